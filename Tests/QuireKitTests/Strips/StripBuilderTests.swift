import Foundation
import QuireKit
import QuireLayout
import Testing
import VipsBridge

@Suite struct StripBuilderTests {
    let aspects = [0.707, 0.75, 1.414, 0.4, 1.0, 0.62]

    @Test func eachSpriteRectHoldsThatPagesThumbnail() throws {
        let fixture = try OutputFixture.make(aspectRatios: aspects)
        defer { fixture.remove() }
        var options = StripOptions()
        options.scale = 2
        let result = try StripBuilder.build(try fixture.folder(), options: options)
        let m = try StripManifest.read(from: fixture.url.appendingPathComponent("strips/strip.json"))
        #expect(m == result.manifest)
        #expect(m.sprites.count == 1 && m.sprites[0].file == "strips/strip.jpg")
        #expect(m.pixelHeight == 132 && m.spacing == 8 && m.scale == 2)
        #expect(m.pages.map(\.index) == Array(0..<aspects.count))
        let sprite = try VIPSImage.load(file: fixture.url.appendingPathComponent("strips/strip.jpg").path)
        #expect(sprite.width == m.sprites[0].width && sprite.height == 132)
        var x = 0
        for (i, rect) in m.pages.enumerated() {
            #expect(rect.x == x && rect.y == 0 && rect.height == 132)
            #expect(abs(Double(rect.width) - 132 * aspects[i]) <= 1)
            x += rect.width + m.spacing
            let crop = try sprite.cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            // Compared at the thumbnail's own resolution (the larger crop scaled down to it).
            let thumbFile = try VIPSImage.load(
                file: fixture.url.appendingPathComponent(String(format: "thumbs/%04d.jpg", i + 1)).path)
            let difference = try crop.resized(toWidth: thumbFile.width, height: thumbFile.height)
                .meanAbsoluteDifference(to: thumbFile)
            #expect(difference < 4, "page \(i): mean difference \(difference)")
            let thumb = try thumbFile.resized(toWidth: rect.width, height: rect.height)
            // A crop of the neighbouring slot must not match (the comparison can fail).
            if i + 1 < m.pages.count {
                let next = m.pages[i + 1]
                let other = try sprite.cropped(x: next.x, y: 0, width: min(next.width, rect.width), height: 132)
                #expect(
                    try other.meanAbsoluteDifference(to: thumb.cropped(x: 0, y: 0, width: other.width, height: 132))
                        > 20)
            }
        }
        #expect(x - m.spacing == sprite.width)
        // The gaps are the background (white for JPEG).
        let pixels = try Pixels(sprite)
        #expect(pixels.matches(m.pages[0].width + 4, 66, [255, 255, 255], tolerance: 8))
    }

    @Test func largeBatchesWrapIntoBoundedSprites() throws {
        let many = (0..<40).map { [0.5, 0.7, 1.3, 0.9][$0 % 4] }
        let fixture = try OutputFixture.make(aspectRatios: many, pageLong: 120, previewLong: 90, thumbBox: 64)
        defer { fixture.remove() }
        var options = StripOptions()
        options.format = .png
        options.maxWidth = 400
        let m = try StripBuilder.build(try fixture.folder(), options: options).manifest
        #expect(m.sprites.count > 4)
        #expect(m.sprites.map(\.file) == (1...m.sprites.count).map { "strips/strip-\($0).png" })
        #expect(m.pages.map(\.index) == Array(0..<40))
        for (n, sprite) in m.sprites.enumerated() {
            let image = try VIPSImage.load(file: fixture.url.appendingPathComponent(sprite.file).path)
            #expect(image.width == sprite.width && image.width <= 400 && image.height == 66)
            let rects = m.pages.filter { $0.sprite == n }
            #expect(rects.first?.index == sprite.firstPage && rects.last?.index == sprite.lastPage)
            #expect(rects.allSatisfy { $0.file == sprite.file && $0.x + $0.width <= image.width })
            // Probe each page's left colour inside its rect.
            let pixels = try Pixels(image)
            for rect in rects {
                let spec = fixture.specs[rect.index]
                #expect(pixels.matches(rect.x + rect.width / 4, 33, spec.left), "page \(rect.index)")
                #expect(pixels.matches(rect.x + rect.width * 3 / 4, 33, spec.right), "page \(rect.index)")
            }
        }
        // A second run that fits in one sprite removes the stale numbered files.
        options.maxWidth = 16_000
        let again = try StripBuilder.build(try fixture.folder(), options: options).manifest
        #expect(again.sprites.map(\.file) == ["strips/strip.png"])
        let names = try FileManager.default.contentsOfDirectory(
            atPath: fixture.url.appendingPathComponent("strips").path)
        #expect(!names.contains { $0.hasPrefix("strip-") && $0.hasSuffix(".png") && !$0.contains("focus") })
    }

    @Test func planWrapsGreedilyAndKeepsOversizedPagesAlone() {
        #expect(StripBuilder.plan(widths: [10, 10, 10], spacing: 2, maxWidth: 22) == [[0, 1], [2]])
        #expect(StripBuilder.plan(widths: [10, 10, 10], spacing: 2, maxWidth: 34) == [[0, 1, 2]])
        #expect(StripBuilder.plan(widths: [50, 5, 5], spacing: 1, maxWidth: 20) == [[0], [1, 2]])
        #expect(StripBuilder.plan(widths: [], spacing: 1, maxWidth: 20).isEmpty)
    }

    @Test func focusStripPlacesItemsWhereTheStripLayoutSays() throws {
        let fixture = try OutputFixture.make(aspectRatios: aspects)
        defer { fixture.remove() }
        let k = 2
        var options = StripOptions()
        options.scale = 2
        options.focus = [k]
        let m = try StripBuilder.build(try fixture.folder(), options: options).manifest
        #expect(m.focus.map(\.file) == ["strips/strip-focus-2.png"])
        let pixels = try Pixels(file: fixture.url.appendingPathComponent("strips/strip-focus-2.png").path)
        #expect(pixels.width == 780 && pixels.height == 132 && pixels.bands == 4)

        // The engine's own frames for that state, computed here independently of the renderer.
        let strip = Layouts.Strip(viewport: Size(width: 390, height: 66), aspectRatios: aspects)
        let offset = try #require(strip.offset(forIndex: k))
        let items = strip.items(at: offset, in: nil)
        #expect(items.count >= 5)
        for item in items {
            let f = item.attributes.frame.offsetBy(dx: -offset.x, dy: 0)
            let spec = fixture.specs[item.attributes.index]
            for (fraction, colour) in [(0.25, spec.left), (0.75, spec.right)] {
                let x = Int(((f.minX + f.width * fraction) * 2).rounded())
                guard x >= 0 && x < pixels.width else { continue }
                #expect(pixels.matches(x, 66, colour), "item \(item.attributes.index) at \(fraction)")
            }
            // 1.5 pt inside each edge: the page; 1.5 pt outside: the transparent background
            // (gaps are at least 4 pt). This pins every frame edge to within 1.5 pt.
            let probes: [(Double, [Double]?)] = [
                (f.minX + 1.5, spec.left), (f.maxX - 1.5, spec.right),
                (f.minX - 1.5, nil), (f.maxX + 1.5, nil)
            ]
            for (pointX, colour) in probes {
                let x = Int((pointX * 2).rounded())
                guard x >= 0 && x < pixels.width else { continue }
                if let colour {
                    #expect(pixels.matches(x, 66, colour), "item \(item.attributes.index) inside edge at \(pointX)")
                } else {
                    #expect(pixels.alpha(x, 66) == 0, "item \(item.attributes.index) outside edge at \(pointX)")
                }
            }
        }
        // The focused page is expanded to its own aspect ratio.
        let focused = try #require(items.first { $0.attributes.index == k }).attributes.frame
        #expect(abs(focused.width - 66 * aspects[k]) <= 1)
    }

    @Test func contactSheetIsANumberedGridOfEveryPage() throws {
        let fixture = try OutputFixture.make(aspectRatios: aspects)
        defer { fixture.remove() }
        var options = StripOptions()
        options.contactSheet = true
        options.columns = 3
        let m = try StripBuilder.build(try fixture.folder(), options: options).manifest
        #expect(m.contactSheet == "strips/contact-sheet.jpg")
        let sheet = try VIPSImage.load(file: fixture.url.appendingPathComponent("strips/contact-sheet.jpg").path)
        // 3 columns of 160 pt boxes, 12 pt gaps, 12 pt margins; 2 rows of 160 + 22 label.
        #expect(sheet.width == 3 * 160 + 2 * 12 + 2 * 12)
        #expect(sheet.height == 2 * (160 + 22) + 12 + 2 * 12)
        let pixels = try Pixels(sheet)
        for i in aspects.indices {
            let cx = 12 + (i % 3) * (160 + 12) + 80, cy = 12 + (i / 3) * (182 + 12) + 80
            #expect(pixels.matches(cx - 10, cy, fixture.specs[i].left, tolerance: 30), "page \(i)")
            #expect(pixels.matches(cx + 10, cy, fixture.specs[i].right, tolerance: 30), "page \(i)")
        }
        // The number label is drawn: dark ink somewhere under the first cell.
        var dark = 0
        for y in (12 + 160)..<(12 + 182) { for x in 12..<(12 + 160) where pixels[x, y][0] < 128 { dark += 1 } }
        #expect(dark > 5)
    }

    @Test func badArgumentsGiveClearErrors() throws {
        let fixture = try OutputFixture.make(aspectRatios: [0.7, 0.8])
        defer { fixture.remove() }
        var options = StripOptions()
        options.focus = [5]
        #expect(throws: OutputFolderError.unknownPage(index: 5, count: 2)) {
            try StripBuilder.build(try fixture.folder(), options: options)
        }
        // Nothing was written for the refused run.
        #expect(!FileManager.default.fileExists(atPath: fixture.url.appendingPathComponent("strips").path))

        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("quire-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: OutputFolderError.emptyOutput(path: empty.path)) { try OutputFolder(url: empty) }
        try Data().write(to: empty.appendingPathComponent("notes.txt"))
        #expect(throws: OutputFolderError.missingLayout(path: empty.appendingPathComponent("layout.json").path)) {
            try OutputFolder(url: empty)
        }

        var jpegTransparent = StripOptions()
        jpegTransparent.background = .transparent
        #expect(throws: OutputFolderError.self) { try StripBuilder.validate(jpegTransparent) }
        var badScale = StripOptions()
        badScale.scale = 4
        #expect(throws: OutputFolderError.invalidOption("--scale must be 1, 2 or 3 (got 4)")) {
            try StripBuilder.validate(badScale)
        }

        // A page whose files are all gone is named in the error.
        try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("thumbs"))
        try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("previews"))
        try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("pages/0002.jpg"))
        do {
            _ = try StripBuilder.build(try fixture.folder(), options: StripOptions())
            Issue.record("expected a missing-image error")
        } catch let error as OutputFolderError {
            guard case .missingImage(let page, _, _) = error else { Issue.record("\(error)"); return }
            #expect(page == 1)
        }
    }

    @Test func thumbnailsComeFromTheSmallestFileThatIsLargeEnough() throws {
        let fixture = try OutputFixture.make(aspectRatios: [0.75, 0.75], pageLong: 600, previewLong: 300, thumbBox: 96)
        defer { fixture.remove() }
        var options = StripOptions()
        options.height = 96  // exactly the thumbnails: used as they are
        var usage = try StripBuilder.build(try fixture.folder(), options: options).usage
        #expect(usage[.thumbnailAsIs] == 2)
        options.height = 200  // larger than the thumbnails: cut from the previews
        usage = try StripBuilder.build(try fixture.folder(), options: options).usage
        #expect(usage[.preview] == 2)
        options.height = 40
        usage = try StripBuilder.build(try fixture.folder(), options: options).usage
        #expect(usage[.thumbnail] == 2)
    }
}
