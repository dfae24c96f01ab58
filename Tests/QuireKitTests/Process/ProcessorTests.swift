import Foundation
import Testing
import VipsBridge
@testable import QuireKit

/// The batch: every bad-input kind is reported (one stderr line each, one `errors[]` entry)
/// while the other pages are written, numbered contiguously in input order.
@Suite struct ProcessorTests {
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [ProcessEvent] = []
        func add(_ e: ProcessEvent) { lock.lock(); list.append(e); lock.unlock() }
        var all: [ProcessEvent] { lock.lock(); defer { lock.unlock() }; return list }
    }

    @Test func eachBadInputIsReportedAndTheRestIsProcessed() throws {
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        try TestSupport.writeImage("\(dir)/good1.jpg", width: 160, height: 120, level: 10)
        try TestSupport.writeImage("\(dir)/good2.png", width: 90, height: 150, level: 250, format: .png)
        try TestSupport.writeImage("\(dir)/big.jpg", width: 400, height: 300)
        try TestSupport.writeImage("\(dir)/whole.jpg", width: 300, height: 300)
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(dir)/whole.jpg")))
        try TestSupport.write(Array(whole.prefix(whole.count / 2)), to: "\(dir)/truncated.jpg")
        try TestSupport.writeImage("\(dir)/wholepng.png", width: 300, height: 320, format: .png)
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(dir)/wholepng.png")))
        try TestSupport.write(Array(png.prefix(png.count / 2)), to: "\(dir)/truncated.png")
        try TestSupport.write([], to: "\(dir)/empty.jpg")
        try TestSupport.write(Array("hello, not an image\n".utf8), to: "\(dir)/notes.jpg")
        try TestSupport.write(TestSupport.bmp, to: "\(dir)/picture.bmp")
        try TestSupport.write(
            Array("P6\n2 2\n255\n".utf8) + [UInt8](repeating: 90, count: 12), to: "\(dir)/picture.ppm")

        let names = [
            "good1.jpg", "missing.jpg", "empty.jpg", "truncated.jpg", "notes.jpg", "picture.bmp",
            "picture.ppm", "big.jpg", "truncated.png", "good2.png"
        ]
        let events = Events()
        let summary = try Processor.run(
            ProcessJob(
                inputs: names.map { "\(dir)/\($0)" }, outputDirectory: out,
                maxPixels: 100_000, jobs: 3)
        ) { events.add($0) }

        #expect(summary.report.pages.map(\.source) == ["\(dir)/good1.jpg", "\(dir)/good2.png"])
        #expect(summary.report.pages.map(\.index) == [0, 1])
        // good2 came after eight failures and is still page 0002.
        #expect(summary.report.pages[1].files.page == "pages/0002.jpg")
        #expect(summary.report.pages[1].width == 90 && summary.report.pages[1].height == 150)
        let second = try VIPSImage.load(file: "\(out)/pages/0002.jpg")
        #expect(second.width == 90 && second.height == 150)
        #expect(!FileManager.default.fileExists(atPath: "\(out)/pages/0003.jpg"))

        let messages = Dictionary(
            uniqueKeysWithValues: summary.report.errors.map { (($0.source as NSString).lastPathComponent, $0.message) })
        #expect(
            summary.report.errors.map { ($0.source as NSString).lastPathComponent } == Array(names[1...8]),
            "errors follow input order")
        #expect(messages["missing.jpg"] == "no such file")
        #expect(messages["empty.jpg"] == "empty file")
        #expect(
            messages["truncated.jpg"]?.hasPrefix("truncated or corrupt image data") == true,
            "\(messages["truncated.jpg"] ?? "")")
        #expect(
            messages["truncated.png"]?.hasPrefix("truncated or corrupt image data") == true,
            "\(messages["truncated.png"] ?? "")")
        #expect(messages["notes.jpg"] == "not an image (unknown format)")
        #expect(messages["picture.bmp"] == "unsupported format (BMP; --allow-untrusted-formats to decode it)")
        #expect(messages["picture.ppm"] == "unsupported format (PPM)")
        #expect(messages["big.jpg"]?.contains("over --max-pixels") == true)

        let failed = events.all.compactMap { if case .failed(let e) = $0 { e.line } else { nil } }
        #expect(failed.count == 8)
        #expect(failed.contains("\(dir)/notes.jpg: not an image (unknown format)"))
        #expect(events.all.contains(.started(pageCount: 5)))
        #expect(!summary.succeeded)
    }

    @Test func foldersAreWalkedInNaturalOrderWithRelativeSources() throws {
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        try FileManager.default.createDirectory(atPath: "\(dir)/ch2", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(dir)/ch10", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(dir)/.cache", withIntermediateDirectories: true)
        for name in ["page10.jpg", "page2.jpg", "page1.jpg", "ch2/a.jpg", "ch10/a.jpg", ".hidden.jpg", ".cache/x.jpg"] {
            try TestSupport.writeImage("\(dir)/\(name)", width: 40, height: 30)
        }
        try TestSupport.write(Array("{}".utf8), to: "\(dir)/truth.json")
        let summary = try Processor.run(ProcessJob(inputs: [dir], outputDirectory: out, jobs: 2))
        #expect(
            summary.report.pages.map(\.source) == ["ch2/a.jpg", "ch10/a.jpg", "page1.jpg", "page2.jpg", "page10.jpg"])
        #expect(summary.succeeded)
    }

    @Test func multiPageInputsContributeEveryPage() throws {
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        let pages = try [30, 200].map { level -> VIPSImage in
            try VIPSImage.fromPixels(
                [UInt8](repeating: UInt8(level), count: 50 * 40 * 3), width: 50, height: 40, bands: 3)
        }
        try VIPSImage.joiningPages(pages).save(to: "\(dir)/two.tif", options: .init(format: .tiff))
        try TestSupport.writeImage("\(dir)/after.jpg", width: 20, height: 20)
        let summary = try Processor.run(
            ProcessJob(inputs: ["\(dir)/two.tif", "\(dir)/after.jpg"], outputDirectory: out))
        #expect(summary.report.pages.map(\.sourcePage) == [0, 1, 0])
        #expect(summary.report.pages.map(\.files.page) == ["pages/0001.jpg", "pages/0002.jpg", "pages/0003.jpg"])
        #expect(abs(try VIPSImage.load(file: "\(out)/pages/0002.jpg").average() - 200) < 3)
    }

    @Test func geometryComesFromTheLayoutEngine() throws {
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        try TestSupport.writeImage("\(dir)/a.jpg", width: 200, height: 100)
        try TestSupport.writeImage("\(dir)/b.jpg", width: 100, height: 200)
        let viewport = LayoutReport.Viewport(width: 400, height: 800, stripHeight: 60)
        let summary = try Processor.run(ProcessJob(inputs: [dir], outputDirectory: out, viewport: viewport))
        let pages = summary.report.pages
        try #require(pages.count == 2)
        // Pager (docs/layout-formulas.md#pager): cells side by side, aspect-fit masks, snap at i·W.
        #expect(pages[0].pager.frame.rect == Rect(x: 0, y: 0, width: 400, height: 800))
        #expect(pages[1].pager.frame.rect == Rect(x: 400, y: 0, width: 400, height: 800))
        #expect(pages[0].pager.mask.rect == Rect(x: 0, y: 300, width: 400, height: 200))
        #expect(pages[1].pager.mask.rect == Rect(x: 0, y: 0, width: 400, height: 800))
        #expect(pages.map(\.pager.snapOffset) == [0, 400])
        // Strip (docs/layout-formulas.md#strip): resting cells 30x60 at pitch 34, far inset (400-30-4)/2 = 183.
        #expect(pages[0].strip.frame.rect == Rect(x: 0, y: 0, width: 30, height: 60))
        #expect(pages[1].strip.frame.rect == Rect(x: 34, y: 0, width: 30, height: 60))
        #expect(pages.map(\.strip.snapOffset) == [-183, -149])
        // Focused: the cell takes its page's aspect ratio (120 wide for a 2:1 page), centred on its slot.
        #expect(pages[0].strip.focusedFrame.rect == Rect(x: -45, y: 0, width: 120, height: 60))
        #expect(pages[0].aspectRatio == 2 && pages[1].aspectRatio == 0.5)
    }

    @Test func noLibvipsImageLeaksOverABatch() throws {
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        for i in 0..<6 { try TestSupport.writeImage("\(dir)/p\(i).jpg", width: 300 + i, height: 200) }
        try TestSupport.write(Array("x".utf8), to: "\(dir)/bad.jpg")
        let job = ProcessJob(inputs: [dir], outputDirectory: out, jobs: 2)
        _ = try Processor.run(job)  // warm-up: libvips's lazily created singletons
        // The count is process-wide and suites running in parallel hold images of their own, so
        // compare against the size of a leak: one image a page would add 70 over 10 batches.
        let before = VIPSRuntime.liveImageCount
        for _ in 0..<10 { _ = try Processor.run(job) }
        let after = VIPSRuntime.liveImageCount
        #expect(after < before + 40, "live libvips images grew from \(before) to \(after) over 10 batches")
    }
}
