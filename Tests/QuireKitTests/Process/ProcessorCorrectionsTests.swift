import Foundation
import Testing
import QuireImaging
import VipsBridge
@testable import QuireKit

/// `--corrections`: each kind of entry applied to the page it names (corners, rotate, split,
/// exclude), the review's captures and keys in layout.json, and a rerun redoing only the pages
/// whose entry changed.
@Suite struct ProcessorCorrectionsTests {
    /// Three sources: two flat pages and a scanned spread (`ProcessorSplitTests.writeSpread`).
    static func batch(_ name: String = #function) throws -> String {
        let dir = try TestSupport.temporaryFolder("corrections-in-" + name)
        try TestSupport.writeImage("\(dir)/a.png", width: 400, height: 300, format: .png)
        try TestSupport.writeImage("\(dir)/b.png", width: 420, height: 320, level: 200, format: .png)
        try ProcessorSplitTests.writeSpread("\(dir)/c-spread.png")
        return dir
    }

    /// A job over `dir` writing uncorrected pages (so sizes are exact) with `entries`.
    static func job(
        _ dir: String, out: String, _ entries: [String: CorrectionEntry]?, correct: CorrectionOptions.Mode = .none
    ) -> ProcessJob {
        var job = ProcessJob(
            inputs: [dir], outputDirectory: out, renditions: RenditionOptions(previewSize: 300, thumbnailSize: 64),
            correction: CorrectionOptions(mode: correct, rotate: .none), jobs: 2)
        job.corrections = entries.map(CorrectionsFile.init(entries:))
        return job
    }

    static func inode(_ path: String) -> UInt64 {
        var s = stat()
        return stat(path, &s) == 0 ? UInt64(s.st_ino) : 0
    }

    @Test func cornersStraightenFromTheGivenQuad() throws {
        let dir = try Self.batch(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        let quad = Quad(rect: Rect(x: 50, y: 40, width: 200, height: 100))
        let pages = try Processor.run(
            Self.job(dir, out: out, ["a.png": CorrectionEntry(corners: quad)], correct: .auto)
        ).report.pages
        #expect(pages[0].correction == .perspective)
        #expect(pages[0].quad == quad.corners.map { [$0.x, $0.y] })
        #expect(pages[0].width == 200 && pages[0].height == 100)
        #expect(pages[0].corrected?.corners == quad.corners.map { [$0.x, $0.y] })
        #expect(pages[1].corrected == nil && pages[1].width == 420)
    }

    @Test func rotate90SwapsWidthAndHeightAndReplacesTheDecision() throws {
        let dir = try Self.batch(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        let pages = try Processor.run(
            Self.job(dir, out: out, ["a.png": CorrectionEntry(rotate: 90), "b.png": CorrectionEntry(rotate: 180)])
        ).report.pages
        #expect(pages[0].width == 300 && pages[0].height == 400)
        #expect(pages[0].rotation == 90 && pages[0].rotationConfidence == nil)
        #expect(pages[0].corrected?.rotate == 90)
        #expect(pages[1].width == 420 && pages[1].height == 320 && pages[1].rotation == 180)
        let image = try VIPSImage.load(file: out + "/" + pages[0].files.page)
        #expect(image.width == 300 && image.height == 400)
    }

    @Test func splitFalseTrueAndAShare() throws {
        let dir = try Self.batch(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        // Without an entry the spread is split at its gutter (two pages).
        let plain = try Processor.run(Self.job(dir, out: out, nil)).report.pages
        #expect(
            plain.map { ($0.source as NSString).lastPathComponent } == [
                "a.png", "b.png", "c-spread.png", "c-spread.png"
            ])
        // false: kept whole; true on a flat page: cut in the middle; 0.4: cut at 40 %.
        let pages = try Processor.run(
            Self.job(
                dir, out: out,
                [
                    "c-spread.png": CorrectionEntry(split: .join), "a.png": CorrectionEntry(split: .gutter),
                    "b.png": CorrectionEntry(split: .at(0.4))
                ])
        ).report.pages
        #expect(
            pages.map { ($0.source as NSString).lastPathComponent } == [
                "a.png", "a.png", "b.png", "b.png", "c-spread.png"
            ])
        #expect(pages[0].width == 200 && pages[1].width == 200 && pages[0].split?.gutter == .given)
        #expect(pages[2].width == 168 && pages[3].width == 252 && pages[2].split?.side == .left)
        #expect(pages[4].width == 1400 && pages[4].split == nil && pages[4].corrected?.split == .flag(false))
        // Both parts of a split source share one capture, named after the first part.
        #expect(pages[0].capture?.file == "captures/0001.jpg" && pages[1].capture?.file == "captures/0001.jpg")
        #expect(pages[2].capture?.file == "captures/0003.jpg" && pages[4].capture?.file == "captures/0005.jpg")
    }

    @Test func excludeRemovesThePageAndRemovingTheEntryBringsItBack() throws {
        let dir = try Self.batch(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        _ = try Processor.run(Self.job(dir, out: out, nil))
        let excluded = try Processor.run(Self.job(dir, out: out, ["a.png": CorrectionEntry(exclude: true)]))
        #expect(
            excluded.report.pages.map { ($0.source as NSString).lastPathComponent } == [
                "b.png", "c-spread.png", "c-spread.png"
            ])
        #expect(excluded.report.pages.map(\.files.page) == ["pages/0001.jpg", "pages/0002.jpg", "pages/0003.jpg"])
        #expect(
            excluded.report.excluded == [
                LayoutReport.ExcludedPage(source: "a.png", sourcePage: 0, correctionKey: "a.png")
            ])
        // Later pages are numbered on and reused, not recomputed; the stale fourth file is gone.
        #expect(excluded.reusedCount == 2)
        #expect(!FileManager.default.fileExists(atPath: out + "/pages/0004.jpg"))
        let layout = try LayoutReport.read(from: URL(fileURLWithPath: out + "/layout.json"))
        #expect(layout.excluded?.map(\.correctionKey) == ["a.png"])

        let back = try Processor.run(Self.job(dir, out: out, [:]))
        #expect(back.report.pages.count == 4 && back.report.excluded == nil)
        #expect((back.report.pages[0].source as NSString).lastPathComponent == "a.png")
    }

    @Test func aRerunRedoesOnlyThePagesWhoseEntryChanged() throws {
        let dir = try Self.batch(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        let first = try Processor.run(Self.job(dir, out: out, ["b.png": CorrectionEntry(rotate: 90)]))
        #expect(first.reusedCount == 0)
        let inodes = (1...4).map { Self.inode(out + "/pages/000\($0).jpg") }
        // The same file again: everything reused.
        let same = try Processor.run(Self.job(dir, out: out, ["b.png": CorrectionEntry(rotate: 90)]))
        #expect(same.reusedCount == 3)
        // a.png's entry added, b.png's altered: those two redone, the spread reused.
        let changed = try Processor.run(
            Self.job(dir, out: out, ["a.png": CorrectionEntry(rotate: 270), "b.png": CorrectionEntry(rotate: 180)]))
        #expect(changed.reusedCount == 1)
        let after = (1...4).map { Self.inode(out + "/pages/000\($0).jpg") }
        #expect(after[0] != inodes[0] && after[1] != inodes[1])
        #expect(after[2] == inodes[2] && after[3] == inodes[3])
        // b.png's entry removed: only b.png redone.
        let removed = try Processor.run(Self.job(dir, out: out, ["a.png": CorrectionEntry(rotate: 270)]))
        #expect(removed.reusedCount == 2)
        #expect(removed.report.pages[1].corrected == nil && removed.report.pages[1].rotation == 0)
    }

    @Test func capturesAndKeysAreInLayoutJSON() throws {
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        try TestSupport.writeImage("\(dir)/big.jpg", width: 3203, height: 2002)
        try TestSupport.writeImage("\(dir)/small.png", width: 400, height: 300, format: .png)
        let pages = try Processor.run(Self.job(dir, out: out, nil)).report.pages
        // Averaged by 4 to 800x500, which covers the source's first 3200x2000 pixels.
        #expect(
            pages[0].capture
                == LayoutReport.Capture(
                    file: "captures/0001.jpg", width: 800, height: 500, sourceWidth: 3200, sourceHeight: 2000))
        // Never enlarged.
        #expect(
            pages[1].capture
                == LayoutReport.Capture(
                    file: "captures/0002.jpg", width: 400, height: 300, sourceWidth: 400, sourceHeight: 300))
        #expect(pages.map(\.correctionKey) == ["big.jpg", "small.png"])
        let capture = try VIPSImage.load(file: out + "/captures/0001.jpg")
        #expect(capture.width == 800 && capture.height == 500)
        // A thumbnails-only run writes none, and removes the stale ones.
        var thumbs = Self.job(dir, out: out, nil)
        thumbs.thumbnailsOnly = true
        let again = try Processor.run(thumbs).report.pages
        #expect(again.allSatisfy { $0.capture == nil })
        #expect(!FileManager.default.fileExists(atPath: out + "/captures/0001.jpg"))
    }

    @Test func aCorrectionsFileInOutIsNamedInLayoutJSON() throws {
        let dir = try Self.batch(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var job = Self.job(dir, out: out, ["a.png": CorrectionEntry(rotate: 90)])
        job.correctionsPath = out + "/corrections.json"
        #expect(try Processor.run(job).report.corrections == "corrections.json")
        job.correctionsPath = dir + "/corrections.json"
        #expect(try Processor.run(job).report.corrections == nil)
    }
}
