import Foundation
import QuireTestSupport
import Testing
import VipsBridge
@testable import QuireImaging

/// `--split`: an open book is written as its two pages in reading order, each straightened on
/// its own; `--split none` keeps it whole; single pages are never split.
@Suite struct PageSplitterTests {
    /// A scanned spread 1400 x 1000 (white, two blocks of text lines and an ink-free gutter).
    static func spread(in dir: String) throws -> String {
        let gray = TextColumns.page(width: 1400, height: 1000, paper: 250, columns: [0.06...0.44, 0.56...0.94])
        let path = dir + "/spread.png"
        try VIPSImage.fromPixels(gray, width: 1400, height: 1000, bands: 1).save(to: path, options: .init(format: .png))
        return path
    }

    /// Runs the pipeline on `path` with `split`, writing `format` files into `dir`.
    static func run(
        _ path: String, split: SplitOptions, in dir: String, format: OutputFormat = .png
    ) throws -> [PageResult] {
        let pipeline = PagePipeline(
            renditions: RenditionOptions(format: format, previewSize: 200, thumbnailSize: 64),
            correction: CorrectionOptions(rotate: .none), split: split)
        let ext = format.fileExtension
        let paths = PageOutputPaths(
            page: dir + "/page.\(ext)", preview: dir + "/preview.\(ext)", thumbnail: dir + "/thumb.\(ext)")
        return try pipeline.process(PageSource(path: path), to: paths)
    }

    @Test func aSpreadIsWrittenAsTwoPagesInReadingOrder() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Self.spread(in: dir)
        let whole = try Self.run(path, split: SplitOptions(mode: .none), in: dir)
        #expect(whole.count == 1 && whole[0].split == nil)

        let pages = try Self.run(path, split: SplitOptions(), in: dir)
        #expect(pages.map { $0.split?.part } == [1, 2])
        #expect(pages.map { $0.split?.side } == [.left, .right])
        #expect(pages[0].width + pages[1].width == whole[0].width)
        #expect(abs(pages[0].width - whole[0].width / 2) <= whole[0].width / 50, "cut in the gutter")
        #expect(pages.map(\.files.page) == [dir + "/page.png", dir + "/page-2.png"])
        for result in pages {
            let written = try VIPSImage.load(file: result.files.page)
            #expect(written.width == result.width && written.height == result.height)
            #expect(FileManager.default.fileExists(atPath: result.files.thumbnail))
        }

        // Right to left: the right page comes first.
        let rtl = try Self.run(path, split: SplitOptions(order: .rtl), in: dir)
        #expect(rtl.map { $0.split?.side } == [.right, .left])
        #expect(rtl.map { $0.split?.part } == [1, 2])
        #expect(rtl[0].width == pages[1].width)
    }

    /// unpaper's scanned spreads: two pages at -0.83 and 2.63 degrees, each deskewed on its own.
    @Test(arguments: ["imgsrcE001.png", "imgsrcE002.png", "imgsrcE003.png"])
    func unpapersSpreadsAreSplitAndEachPageDeskewed(_ name: String) throws {
        let path = TestSupport.realData.appendingPathComponent("unpaper-tests/" + name).path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // JPEG pages: the split and each page's skew are decided before anything is encoded.
        let pages = try Self.run(path, split: SplitOptions(), in: dir, format: .jpeg)
        try #require(pages.count == 2)
        #expect(abs((pages[0].correction.skewDegrees ?? 0) - -0.83) < 0.1, "\(pages[0].correction)")
        #expect(abs((pages[1].correction.skewDegrees ?? 0) - 2.63) < 0.1, "\(pages[1].correction)")
        #expect(pages[0].split?.gutter == .margins)
    }

    /// The open books among the repo's real photos are split into their two pages, each page's
    /// quad (the part of the spread's quad it came from) at IoU 0.9 or more with the true page
    /// where the spread's quad was found; every other real photo and scan stays one page.
    @Test func realSpreadsSplitAndSinglePagesStayWhole() throws {
        let photos = TestSupport.repoRoot.appendingPathComponent("Tools/accuracy/real-photos")
        let scans = TestSupport.repoRoot.appendingPathComponent("Tools/accuracy/real-scans")
        let data = try Data(contentsOf: photos.appendingPathComponent("truth.json"))
        let truth = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        var files = truth.keys.sorted().map { photos.appendingPathComponent($0).path }
        let walker = FileManager.default.enumerator(atPath: scans.path)
        while let relative = walker?.nextObject() as? String {
            if ["png", "jpg", "tif", "pdf"].contains((relative as NSString).pathExtension) {
                files.append(scans.appendingPathComponent(relative).path)
            }
        }
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var split: [String] = []
        for file in files {
            let name = (file as NSString).lastPathComponent
            // JPEG files: the split and the quads are decided before anything is encoded, and
            // PNG's deflate of every full-size page was a third of this test's CPU (docs/benchmarks.md).
            let pages = try Self.run(file, split: SplitOptions(), in: dir, format: .jpeg)
            guard pages.count == 2 else { continue }
            split.append(name)
            guard let truePages = truth[name]?["pages"] as? [[String: Any]], pages[0].correction.kind == .perspective
            else { continue }
            for (page, expected) in zip(pages, truePages) {
                let corners = try #require(expected["corners"] as? [[Double]])
                let trueQuad = try #require(Quad(corners: corners.map { Point(x: $0[0], y: $0[1]) }))
                let quad = try #require(page.correction.quad)
                let iou = trueQuad.intersectionOverUnion(with: quad)
                if let why = Self.misplacedSpreads[name] {
                    withKnownIssue(Comment(rawValue: why)) { #expect(iou >= 0.9, "\(name): IoU \(iou)") }
                } else {
                    #expect(iou >= 0.9, "\(name) page \(page.split?.part ?? 0): IoU \(iou)")
                }
            }
        }
        let spreads = truth.keys.filter { truth[$0]?["pages"] != nil }.sorted()
        let wholeSplit = split.filter { Self.splitSinglePages[$0] == nil }
        #expect(wholeSplit.sorted() == spreads.filter { Self.unsplitSpreads[$0] == nil }, "split: \(split)")
        for (name, why) in Self.splitSinglePages.sorted(by: { $0.key < $1.key }) where truth[name] != nil {
            withKnownIssue(Comment(rawValue: why)) { #expect(!split.contains(name), "\(name) is split") }
        }
        for (name, why) in Self.unsplitSpreads.sorted(by: { $0.key < $1.key }) where spreads.contains(name) {
            withKnownIssue(Comment(rawValue: why)) { #expect(split.contains(name), "\(name) is not split") }
        }
    }

    /// Open books of the real set that are not split today, with why. They are still run, so the
    /// test says when one starts to split (a known issue that stops occurring is reported).
    static let unsplitSpreads = [
        "persp_open_book_hands.jpg":
            "held-out (2026-11-26): a paperback held open in two hands; the spread's quad is found "
            + "(confidence 0.96) but the straightened spread is not cut at its gutter (not yet looked into)"
    ]

    /// Single pages of the real set cut in two today, with why. They are still run, so the test
    /// says when one stays whole (a known issue that stops occurring is reported).
    static let splitSinglePages = [
        "zxing_card_in_hand_off_top.jpg":
            "held-out (2026-11-28, branch y-cards): a business card with a large QR code held in a hand, "
            + "running off the frame's top; the whole frame is kept (the photo taken for a scan) and the frame, "
            + "hand and card, is cut in two"
    ]

    /// Open books of the real set whose spread's quad is not the spread today, with why: their
    /// halves are still checked, as known issues (one that starts to pass is reported).
    static let misplacedSpreads: [String: String] = [
        "paddleocr_open_book_upside_down.jpg":
            "held-out (2026-11-27, branch u-verify2): an open paperback photographed upside down on a desk "
            + "printed with a map; since the glass-edge margin the bright paper region's quad is taken (IoU 0.81 "
            + "with the spread: over the desk at the left, to the frame's edge past the page stack at the right) "
            + "and split, its pages at IoU 0.76 and 0.80 in reading order; here, not turned, they come in the "
            + "photo's order, the truth's in reading order"
    ]

    /// A single page photographed lying a quarter turn round is landscape once straightened,
    /// and a gap between its lines runs down its middle: an article page and an invoice of the
    /// real set, turned either way, were cut in two there. They stay one page.
    @Test(arguments: ["dynamsoft_about_page.jpg", "inv3d_invoice_shadow.jpg"], [90, 270])
    func aPagePhotographedSidewaysIsNotSplit(_ name: String, degrees: Int) throws {
        let photo = TestSupport.repoRoot.appendingPathComponent("Tools/accuracy/real-photos/" + name).path
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The turned photo as an uncompressed PNG (the same pixels, none of deflate's cost at
        // full size), its pages as JPEG (the split is decided before anything is encoded).
        let turned = dir + "/turned.png"
        try VIPSImage.load(file: photo).autorotated().rotated(quarterTurns: degrees / 90).save(
            to: turned, options: .init(format: .png, compression: 0))
        let pages = try Self.run(turned, split: SplitOptions(), in: dir, format: .jpeg)
        #expect(pages.count == 1, "\(name) turned \(degrees): split at \(pages.first?.split?.rect as Any)")
    }
}
