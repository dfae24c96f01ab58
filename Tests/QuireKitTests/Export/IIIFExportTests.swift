import Foundation
import Testing
import QuireImaging
import VipsBridge
@testable import QuireKit

/// `IIIFExport` on small output folders built in the test: every advertised tile exists with its
/// size, missing tiles are cut, reruns redo only what changed.
@Suite struct IIIFExportTests {
    static let base = "https://example.org/scans/iiif"

    /// Every tile an info.json advertises, computed here from the Image API's rule (not from
    /// `IIIFTileGrid`), with the size it must have.
    static func advertised(_ info: [String: Any]) -> [(path: String, width: Int, height: Int)] {
        let w = info["width"] as! Int, h = info["height"] as! Int
        let tile = (info["tiles"] as! [[String: Any]])[0]
        let t = tile["width"] as! Int
        var out: [(String, Int, Int)] = []
        for s in tile["scaleFactors"] as! [Int] {
            var y = 0
            while y < h {
                var x = 0
                while x < w {
                    let rw = min(t * s, w - x), rh = min(t * s, h - y)
                    let sw = (rw + s - 1) / s, sh = (rh + s - 1) / s
                    let whole = x == 0 && y == 0 && rw == w && rh == h
                    let region = whole ? "full" : "\(x),\(y),\(rw),\(rh)"
                    let size = whole && sw == w && sh == h ? "max" : "\(sw),\(sh)"
                    out.append(("\(region)/\(size)/0/default.jpg", sw, sh))
                    x += t * s
                }
                y += t * s
            }
        }
        for size in info["sizes"] as! [[String: Int]] {
            let name = size["width"] == w && size["height"] == h ? "max" : "\(size["width"]!),\(size["height"]!)"
            out.append(("full/\(name)/0/default.jpg", size["width"]!, size["height"]!))
        }
        return out
    }

    static func info(_ folder: URL, _ id: String) throws -> [String: Any] {
        let data = try Data(contentsOf: folder.appendingPathComponent("iiif/\(id)/info.json"))
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    static func checkTiles(_ folder: URL, _ id: String) throws -> Int {
        let info = try info(folder, id)
        var checked = 0
        for tile in advertised(info) {
            let path = folder.appendingPathComponent("iiif/\(id)/\(tile.path)").path
            let image = try VIPSImage.load(file: path)
            #expect(image.width == tile.width && image.height == tile.height, "\(id)/\(tile.path)")
            checked += 1
        }
        return checked
    }

    @Test func everyAdvertisedTileExistsWithItsSize() throws {
        // A page larger than a tile at both scales, one under a tile, one exactly a tile.
        let fixture = try OutputFixture.make(aspectRatios: [0.69, 1.5, 1.0], pageLong: 1301)
        defer { fixture.remove() }
        var report = try LayoutReport.read(from: fixture.url.appendingPathComponent("layout.json"))
        try OutputFixture.image(OutputFixture.spec(1, aspectRatio: 1.5), width: 300, height: 200)
            .save(
                to: fixture.url.appendingPathComponent("pages/0002.jpg").path,
                options: .init(format: .jpeg, quality: 90))
        try OutputFixture.image(OutputFixture.spec(2, aspectRatio: 1), width: 512, height: 512)
            .save(to: fixture.url.appendingPathComponent("pages/0003.png").path, options: .init(format: .png))
        report.pages[2].files.page = "pages/0003.png"
        try report.encoded().write(to: fixture.url.appendingPathComponent("layout.json"))

        let result = try IIIFExport.run(folder: fixture.url.path, options: IIIFExportOptions(baseURL: Self.base + "/"))
        #expect(result.pageCount == 3 && result.written == 3 && result.failures.isEmpty)
        var checked = 0
        for id in ["0001", "0002", "0003"] { checked += try Self.checkTiles(fixture.url, id) }
        #expect(checked >= result.tiles)
        #expect(try Self.info(fixture.url, "0001")["id"] as? String == Self.base + "/0001")
        // full/max of a JPEG page is the page's own bytes.
        let page = try Data(contentsOf: fixture.url.appendingPathComponent("pages/0001.jpg"))
        #expect(try Data(contentsOf: fixture.url.appendingPathComponent("iiif/0001/full/max/0/default.jpg")) == page)
        // dzsave's own files that are not part of the service are gone.
        #expect(
            !FileManager.default.fileExists(
                atPath: fixture.url.appendingPathComponent("iiif/0001/vips-properties.xml").path))
        // The manifest lists the three canvases in order.
        let manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result.manifest)))
            as! [String: Any]
        let canvases = manifest["items"] as! [[String: Any]]
        #expect(canvases.map { $0["id"] as! String } == ["0001", "0002", "0003"].map { Self.base + "/canvas/" + $0 })
        #expect(canvases[1]["width"] as? Int == 300 && canvases[1]["height"] as? Int == 200)
    }

    @Test func missingTilesAreCutFromThePage() throws {
        let fixture = try OutputFixture.make(aspectRatios: [0.69], pageLong: 1400)
        defer { fixture.remove() }
        let page = fixture.url.appendingPathComponent("pages/0001.jpg").path
        let folder = try TestSupport.temporaryFolder() + "/0001"
        let image = try VIPSImage.load(file: page)
        try image.saveIIIFTiles(to: folder, id: Self.base, tileSize: 512, quality: 85)
        let grid = IIIFTileGrid(width: image.width, height: image.height, tileSize: 512)
        // Remove an edge tile at every scale factor, as some dzsave versions leave them out.
        var removed: [IIIFTileGrid.Tile] = []
        for s in grid.scaleFactors {
            let edge = grid.tiles(scaleFactor: s).last!
            for name in [edge.path(imageWidth: grid.width, imageHeight: grid.height), edge.dzsavePath] {
                try? FileManager.default.removeItem(atPath: folder + "/" + name)
            }
            removed.append(edge)
        }
        let stats = try IIIFExport.complete(folder, grid: grid, page: page, quality: 85)
        #expect(stats.rendered == removed.count)
        for tile in grid.allTiles {
            let cut = try VIPSImage.load(
                file: folder + "/" + tile.path(imageWidth: grid.width, imageHeight: grid.height))
            #expect(cut.width == tile.width && cut.height == tile.height)
        }
        // A cut tile shows its region: the right edge of this page is in the right-hand colour.
        let edge = try VIPSImage.load(
            file: folder + "/" + removed[0].path(imageWidth: grid.width, imageHeight: grid.height))
        let expected = OutputFixture.spec(0, aspectRatio: 0.69).right
        let mean = try edge.displayReady(keepGray: false).extractBands(0).average()
        #expect(abs(mean - expected[0]) < 8)
    }

    @Test func rerunsRedoOnlyWhatChanged() throws {
        let fixture = try OutputFixture.make(aspectRatios: [0.7, 1.4, 1.0], pageLong: 700)
        defer { fixture.remove() }
        let first = try IIIFExport.run(folder: fixture.url.path, options: IIIFExportOptions(baseURL: Self.base))
        #expect(first.written == 3 && first.reused == 0)
        let tile = fixture.url.appendingPathComponent("iiif/0003/0,0,512,512/512,512/0/default.jpg").path
        let before = try #require(ExportStamp.fileIdentity(tile))

        let again = try IIIFExport.run(folder: fixture.url.path, options: IIIFExportOptions(baseURL: Self.base))
        #expect(again.written == 0 && again.reused == 3)
        // A new base URL rewrites the JSON only.
        let moved = try IIIFExport.run(
            folder: fixture.url.path, options: IIIFExportOptions(baseURL: "http://127.0.0.1:8080/iiif"))
        #expect(moved.written == 0 && moved.reused == 3)
        #expect(try Self.info(fixture.url, "0001")["id"] as? String == "http://127.0.0.1:8080/iiif/0001")
        #expect(
            try String(contentsOfFile: moved.manifest, encoding: .utf8).contains(
                "http://127.0.0.1:8080/iiif/canvas/0003"))
        #expect(ExportStamp.fileIdentity(tile)?.inode == before.inode)

        // A rewritten page is tiled again; the others are kept.
        let page = fixture.url.appendingPathComponent("pages/0002.jpg").path
        try OutputFixture.image(OutputFixture.spec(6, aspectRatio: 1.4), width: 700, height: 500)
            .save(to: page + ".new", options: .init(format: .jpeg, quality: 90))
        #expect(rename(page + ".new", page) == 0)
        let changed = try IIIFExport.run(folder: fixture.url.path, options: IIIFExportOptions(baseURL: Self.base))
        #expect(changed.written == 1 && changed.reused == 2)

        // A batch that shrank loses the folders of pages it no longer has; a folder a person put
        // there stays; no temporary folder is left.
        var report = try LayoutReport.read(from: fixture.url.appendingPathComponent("layout.json"))
        report.pages.removeLast()
        try report.encoded().write(to: fixture.url.appendingPathComponent("layout.json"))
        try FileManager.default.createDirectory(
            at: fixture.url.appendingPathComponent("iiif/extra"), withIntermediateDirectories: true)
        let shrunk = try IIIFExport.run(folder: fixture.url.path, options: IIIFExportOptions(baseURL: Self.base))
        #expect(shrunk.pageCount == 2)
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.url.appendingPathComponent("iiif").path)
            .sorted()
        #expect(names == ["0001", "0002", "extra", "manifest.json"])
    }

    @Test func textRangesThePDFAndMetadataGoIntoTheManifest() throws {
        let fixture = try OutputFixture.make(aspectRatios: [0.7, 1.4, 1.0], pageLong: 700)
        defer { fixture.remove() }
        // Pages 1 and 2 come from one file; page 1 has text (hOCR at half the page's size).
        var report = try LayoutReport.read(from: fixture.url.appendingPathComponent("layout.json"))
        report.pages[1].source = report.pages[0].source
        try report.encoded().write(to: fixture.url.appendingPathComponent("layout.json"))
        try FileManager.default.createDirectory(
            at: fixture.url.appendingPathComponent("text"), withIntermediateDirectories: true)
        let page = fixture.url.appendingPathComponent("pages/0001.jpg").path
        let size = try #require(JPEGFrameHeader.read(path: page))
        let hocr = """
            <div class='ocr_page' title='bbox 0 0 \(size.width / 2) \(size.height / 2)'>
            <span class='ocr_line' title='bbox 10 20 110 40'><span class='ocrx_word' title='bbox 10 20 50 40'>Hello</span>
            <span class='ocrx_word' title='bbox 60 20 110 40'>world</span></span></div>
            """
        try Data(hocr.utf8).write(to: fixture.url.appendingPathComponent("text/0001.hocr"))
        _ = try PDFExport.run(folder: fixture.url.path, options: PDFExportOptions())

        let result = try IIIFExport.run(folder: fixture.url.path, options: IIIFExportOptions(baseURL: Self.base))
        let manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result.manifest)))
            as! [String: Any]
        let canvases = manifest["items"] as! [[String: Any]]
        let reference = (canvases[0]["annotations"] as? [[String: Any]])?.first
        #expect(
            reference?["id"] as? String == Self.base + "/text/0001.json"
                && reference?["type"] as? String == "AnnotationPage")
        #expect(canvases[1]["annotations"] == nil)
        let text =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: fixture.url.appendingPathComponent("iiif/text/0001.json"))) as! [String: Any]
        let line = (text["items"] as! [[String: Any]])[0]
        #expect(line["motivation"] as? String == "supplementing")
        #expect((line["body"] as? [String: Any])?["value"] as? String == "Hello world")
        // The hOCR's pixels are half the canvas's: the region doubles.
        #expect(line["target"] as? String == Self.base + "/canvas/0001#xywh=20,40,200,40")
        let ranges = manifest["structures"] as! [[String: Any]]
        #expect(ranges.map { ($0["items"] as! [[String: Any]]).count } == [2, 1])
        let rendering = (manifest["rendering"] as? [[String: Any]])?.first
        #expect(
            rendering?["id"] as? String == Self.base + "/pages.pdf"
                && rendering?["format"] as? String == "application/pdf")
        #expect(
            ExportStamp.fileIdentity(fixture.url.appendingPathComponent("iiif/pages.pdf").path)?.inode
                == ExportStamp.fileIdentity(fixture.url.appendingPathComponent("pages.pdf").path)?.inode)
        #expect((manifest["metadata"] as? [[String: Any]])?.count == 4)

        // The text removed, the annotation page goes with it.
        try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("text/0001.hocr"))
        _ = try IIIFExport.run(folder: fixture.url.path, options: IIIFExportOptions(baseURL: Self.base))
        #expect(!FileManager.default.fileExists(atPath: fixture.url.appendingPathComponent("iiif/text/0001.json").path))
    }

    @Test func aBadBaseURLIsRefused() throws {
        let fixture = try OutputFixture.make(aspectRatios: [1.0])
        defer { fixture.remove() }
        #expect(throws: ExportError.self) {
            try IIIFExport.run(folder: fixture.url.path, options: IIIFExportOptions(baseURL: "example.org/iiif"))
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.url.appendingPathComponent("iiif").path))
    }
}

/// A IIIF rerun that meets a full disk part-way keeps the previous export whole (an 8 MB tmpfs;
/// needs root to mount, skipped elsewhere).
@Suite struct IIIFFullDiskTests {
    /// Bytes of the files under `folder`.
    static func size(_ folder: String) -> Int {
        var total = 0
        let walker = FileManager.default.enumerator(atPath: folder)
        while let name = walker?.nextObject() as? String {
            total += ((try? FileManager.default.attributesOfItem(atPath: folder + "/" + name))?[.size] as? Int) ?? 0
        }
        return total
    }

    @Test func aForcedRerunThatFillsTheDiskKeepsTheOldManifest() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let disk = folder + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        guard geteuid() == 0, mount("tmpfs", disk, "tmpfs", 0, "size=8m") == 0 else { return }
        defer { umount(disk) }
        let fixture = try OutputFixture.make(aspectRatios: [0.7, 1.4, 1.0, 0.75, 0.8], pageLong: 300)
        defer { fixture.remove() }
        let out = disk + "/out"
        try FileManager.default.copyItem(atPath: fixture.url.path, toPath: out)
        let options = IIIFExportOptions(baseURL: "https://example.org/iiif")
        let first = try IIIFExport.run(folder: out, options: options)
        #expect(first.pageCount == 5)
        let manifest = try Data(contentsOf: URL(fileURLWithPath: first.manifest))
        let small = Self.size(out + "/iiif/0001")

        // The last two pages become noise that compresses badly, then the disk is filled to
        // within three small pages: the rerun tiles the first pages and runs out on the fourth.
        for name in ["0004", "0005"] {
            var bytes = [UInt8](repeating: 0, count: 900 * 900 * 3)
            var state: UInt32 = name == "0004" ? 17 : 23
            for j in bytes.indices {
                state = state &* 1_664_525 &+ 1_013_904_223; bytes[j] = UInt8(truncatingIfNeeded: state >> 24)
            }
            try VIPSImage.fromPixels(bytes, width: 900, height: 900, bands: 3)
                .save(to: out + "/pages/\(name).jpg", options: .init(format: .jpeg, quality: 95))
        }
        FileManager.default.createFile(atPath: disk + "/filler", contents: nil)
        let filler = try #require(FileHandle(forWritingAtPath: disk + "/filler"))
        let block = Data(count: 16 * 1024)
        while (try? filler.write(contentsOf: block)) != nil {}
        let filled = try filler.offset()
        try filler.truncate(atOffset: filled - UInt64(3 * small))
        try filler.close()

        #expect(throws: ExportError.self) {
            try IIIFExport.run(
                folder: out, options: IIIFExportOptions(baseURL: "https://example.org/iiif", force: true))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: first.manifest)) == manifest)
        for id in ["0001", "0002", "0003", "0004", "0005"] {
            #expect(FileManager.default.fileExists(atPath: out + "/iiif/\(id)/info.json"), "\(id)")
        }
    }
}
