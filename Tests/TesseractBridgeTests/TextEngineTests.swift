import Foundation
import Testing
@testable import TesseractBridge
import QuireTestSupport
import VipsBridge

/// The in-process engine reads words rendered in the test (libvips's Pango `text`) at the place
/// they were drawn, and tells a page turned upside down; skipped where Tesseract's models are
/// not installed.
@Suite struct TextEngineTests {
    static let models = TextModels.locate()

    /// A white 1-band page `width` x `height` with each line of `lines` drawn at its (x, y),
    /// and each line's box in the page.
    static func page(width: Int, height: Int, lines: [(text: String, x: Int, y: Int)]) throws
        -> (image: TextImage, boxes: [(x: Int, y: Int, width: Int, height: Int)])
    {
        var layers: [(image: VIPSImage, x: Int, y: Int)] = []
        var boxes: [(x: Int, y: Int, width: Int, height: Int)] = []
        for line in lines {
            let ink = try VIPSImage.text(line.text, font: "sans 14", dpi: 300)
            layers.append((ink, line.x, line.y))
            boxes.append((line.x, line.y, ink.width, ink.height))
        }
        let canvas = try VIPSImage.solid(width: width, height: height, color: [255, 255, 255]).rgba()
        let grey = try canvas.compositing(layers).flattened(onto: [255, 255, 255]).extractBands(1).materialized()
        let image = try #require(
            TextImage(pixels: try grey.pixelBytes(), width: width, height: height, bands: 1, dpi: 300))
        return (image, boxes)
    }

    /// The `bbox x0 y0 x1 y1` and text of each `ocrx_word` of an hOCR page.
    static func words(inHOCR hocr: String) -> [(text: String, x0: Int, y0: Int, x1: Int, y1: Int)] {
        let pattern = try! NSRegularExpression(
            pattern: "class='ocrx_word'[^>]*title='bbox (\\d+) (\\d+) (\\d+) (\\d+)[^']*'[^>]*>([^<]*)<")
        let ns = hocr as NSString
        return pattern.matches(in: hocr, range: NSRange(location: 0, length: ns.length)).map { m in
            let n = (1...4).map { Int(ns.substring(with: m.range(at: $0)))! }
            return (ns.substring(with: m.range(at: 5)), n[0], n[1], n[2], n[3])
        }
    }

    @Test func readsRenderedWordsAtTheirPlace() throws {
        guard let models = Self.models, models.installed.contains("eng") else { return }
        let lines = [("Quire reads searchable pages", 150, 200), ("Invoice number 48213", 150, 900)]
        let (image, boxes) = try Self.page(width: 2000, height: 1400, lines: lines)
        let engine = try TextEngine(models: models, languages: "eng")
        let reading = try engine.read(image)
        let words = Self.words(inHOCR: reading.hocrPage)
        #expect(
            words.map(\.text) == ["Quire", "reads", "searchable", "pages", "Invoice", "number", "48213"],
            "read: \(reading.text)")
        #expect(reading.text.contains("Invoice number 48213"))
        #expect(reading.wordConfidences.count == words.count)
        #expect((reading.meanConfidence ?? 0) > 80)
        // Every word's box lies inside its line's drawn box (a few pixels of slack for
        // anti-aliased edges), and the words of a line run left to right.
        for (i, word) in words.enumerated() {
            let box = boxes[i < 4 ? 0 : 1]
            #expect(
                word.x0 >= box.x - 3 && word.x1 <= box.x + box.width + 3,
                "\(word.text) at x \(word.x0)-\(word.x1), line \(box)")
            #expect(
                word.y0 >= box.y - 3 && word.y1 <= box.y + box.height + 3,
                "\(word.text) at y \(word.y0)-\(word.y1), line \(box)")
        }
        #expect(words[0].x0 < words[1].x0 && words[1].x0 < words[2].x0)
        #expect(words.first?.x0 ?? 0 < boxes[0].x + 20, "the first word starts where the line was drawn")
        // The engine is reused: a second page on the same engine reads as the first.
        #expect(try engine.read(image).text == reading.text)
    }

    /// Line images kept uncompressed give the LSTM the pixels the PNG round trip gives: the
    /// hOCR (words, boxes, confidences) byte for byte the same, on a grey page and on a colour
    /// one (32-bit line images), and the shortcut is taken (the count stays put when the
    /// executable's `pixWriteMem` is not the one Tesseract calls).
    @Test func lineImagesKeptRawReadTheSameWords() throws {
        guard let models = Self.models, models.installed.contains("eng") else { return }
        let lines = [
            ("Quire reads searchable pages", 150, 120), ("Invoice number 48213, due 2026-11-30", 150, 420),
            ("the quick brown fox jumps over the lazy dog", 300, 700)
        ]
        let (grey, _) = try Self.page(width: 2200, height: 1000, lines: lines)
        // The same page in colour: blue-grey ink on cream paper, three bands.
        var colourPixels: [UInt8] = []
        colourPixels.reserveCapacity(grey.pixels.count * 3)
        for g in grey.pixels { colourPixels += [g, UInt8(Int(g) * 245 / 255), UInt8(Int(g) * 220 / 255 + 30)] }
        let colour = try #require(TextImage(pixels: colourPixels, width: grey.width, height: grey.height, bands: 3))
        let engine = try TextEngine(models: models, languages: "eng")
        for image in [grey, colour] {
            let png = try engine.read(image, lineImages: .png)
            let before = LineImages.rawCount
            let raw = try engine.read(image, lineImages: .raw)
            #expect(LineImages.rawCount > before, "no line image was kept raw (bands \(image.bands))")
            #expect(Self.words(inHOCR: png.hocrPage).count >= 16, "read: \(png.text)")
            #expect(raw.hocrPage == png.hocrPage, "bands \(image.bands)")
            #expect(raw.text == png.text)
        }
    }

    /// Tesseract's OpenMP regions run as plain calls (CTesseractShim/omp_inline.c) read the
    /// same hOCR as libgomp's teams, and the plain calls are taken (the count stays put when the
    /// executable's `GOMP_` definitions are not the ones Tesseract calls).
    @Test func openMPRegionsRunInlineReadTheSameWords() throws {
        guard let models = Self.models, models.installed.contains("eng") else { return }
        let lines = [("Quire reads searchable pages", 150, 120), ("Invoice number 48213, due 2026-11-30", 150, 420)]
        let (image, _) = try Self.page(width: 2000, height: 700, lines: lines)
        let engine = try TextEngine(models: models, languages: "eng")
        let teams = try engine.readings(image, name: nil, writers: [.onePass], regions: .libgomp)[0]
        let before = OpenMPRegions.inlineCount
        let plain = try engine.readings(image, name: nil, writers: [.onePass], regions: .inline)[0]
        #expect(OpenMPRegions.inlineCount > before, "no region ran inline")
        #expect(Self.words(inHOCR: teams.hocrPage).count >= 8, "read: \(teams.text)")
        #expect(plain.hocrPage == teams.hocrPage)
    }

    /// A page read the default way on a thread set to one OpenMP thread (what `set` does for
    /// every image unless the user set `OMP_THREAD_LIMIT`) runs its regions inline: the thread's
    /// own setting counts, not only the process's thread limit, which `quire` leaves unset.
    @Test func aThreadSetToOneOpenMPThreadRunsItsRegionsInline() throws {
        guard let models = Self.models, models.installed.contains("eng") else { return }
        let (image, _) = try Self.page(width: 1600, height: 400, lines: [("Quire reads searchable pages", 120, 120)])
        let engine = try TextEngine(models: models, languages: "eng")
        let counts = OpenMPThreadsTests.onNewThread { () -> (Int, Int, Bool) in
            TextEngine.oneOpenMPThread()
            let before = OpenMPRegions.inlineCount
            let read = (try? engine.readings(image, name: nil, writers: [.onePass])) != nil
            return (before, OpenMPRegions.inlineCount, read)
        }
        #expect(counts.2, "the page was not read")
        #expect(counts.1 > counts.0, "no region ran inline on a one-thread thread")
    }

    /// An inline `sections` region runs each section once, in order, and a region opened inside a
    /// section runs its own sections before the outer region goes on.
    @Test func openMPSectionsRunInlineOnceEachInOrder() {
        #expect(OpenMPRegions.sectionsTrace(count: 3) == [1, 101, 102, 2, 3])
        #expect(OpenMPRegions.sectionsTrace(count: 1) == [1, 101, 102])
    }

    /// The same on two colour photos as they are. Tesseract leaves the alpha byte of their line
    /// images 0, so these do not reach `clearAlpha`: `lineImagesKeptRawClearTheAlphaByte` does,
    /// and Tests/python/test_ocr.py compares a straightened photo's words with the command's.
    @Test func lineImagesKeptRawReadTheSameWordsOnPhotos() throws {
        guard let models = Self.models, models.installed.contains("eng") else { return }
        let engine = try TextEngine(models: models, languages: "eng")
        for name in ["docres_letter.jpg", "dynamsoft_about_page.jpg"] {
            let path = TestSupport.repoRoot.appendingPathComponent("Tools/accuracy/real-photos/" + name).path
            let photo = try VIPSImage.load(file: path)
            try #require(photo.bands == 3)
            let image = try #require(
                TextImage(pixels: try photo.pixelBytes(), width: photo.width, height: photo.height, bands: 3))
            let png = try engine.read(image, lineImages: .png)
            let raw = try engine.read(image, lineImages: .raw)
            #expect(Self.words(inHOCR: png.hocrPage).count >= 5, "\(name) read: \(png.text)")
            #expect(raw.hocrPage == png.hocrPage, "\(name)")
        }
    }

    /// A colour line image kept raw comes back as its PNG round trip does, the alpha byte
    /// included: 0, whatever Tesseract left there (the PNG stores red, green and blue only).
    /// Fails if `clearAlpha` in CTesseractShim/line_images.c is skipped.
    @Test func lineImagesKeptRawClearTheAlphaByte() throws {
        let (width, height) = (37, 5)
        // Every byte varies, the alpha byte (the lowest) included; no two neighbours alike.
        let pixels = (0..<(width * height)).map { i in UInt32(truncatingIfNeeded: i &* 2_654_435_761) | 0x5A }
        let png = try #require(LineImages.roundTrip(pixels, width: width, height: height, as: .png))
        let before = LineImages.rawCount
        let raw = try #require(LineImages.roundTrip(pixels, width: width, height: height, as: .raw))
        #expect(LineImages.rawCount > before, "the image was not kept raw")
        #expect(png.allSatisfy { $0 & 0xFF == 0 }, "the PNG round trip keeps no alpha byte")
        #expect(png == pixels.map { $0 & ~0xFF }, "the PNG round trip keeps red, green and blue")
        let differing = zip(raw, png).filter { $0 != $1 }
        #expect(differing.isEmpty, "\(differing.count) pixels differ, first (raw, png): \(differing.prefix(3))")
    }

    @Test func theHOCRDocumentIsTesseractsOwn() throws {
        guard let models = Self.models, models.installed.contains("eng") else { return }
        let (image, _) = try Self.page(width: 1200, height: 400, lines: [("Hello world", 100, 100)])
        let document = try TextEngine(models: models, languages: "eng").read(image).hocrDocument
        #expect(document.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html"))
        #expect(document.contains("<meta name='ocr-system' content='tesseract \(TextEngine.version)' />"))
        #expect(
            document.contains(
                "<meta name='ocr-capabilities' content='ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf'/>"))
        #expect(document.contains("<div class='ocr_page' id='page_1'"))
        #expect(document.hasSuffix("  </div>\n </body>\n</html>\n"))
    }

    @Test func tellsAPageUpsideDown() throws {
        guard let models = Self.models, models.installed.contains("osd") else { return }
        let lines = (0..<14).map { ("The quick brown fox jumps over the lazy dog \($0)", 120, 100 + $0 * 120) }
        let (upright, _) = try Self.page(width: 2400, height: 1900, lines: lines)
        // Turned 180 degrees: the pixels reversed.
        var turned = upright
        turned.pixels.reverse()
        let engine = try TextEngine(models: models, languages: "osd")
        let asIs = try #require(engine.orientation(of: upright))
        let over = try #require(engine.orientation(of: turned))
        #expect(asIs.rotate == 0, "upright read as \(asIs)")
        #expect(over.rotate == 180 && over.confidence > 2, "upside down read as \(over)")
    }

    @Test func theShimsReadingIsTesseractsOwnWithItsScores() throws {
        guard let models = Self.models, models.installed.contains("osd") else { return }
        let lines = (0..<14).map { ("The quick brown fox jumps over the lazy dog \($0)", 120, 100 + $0 * 120) }
        let (upright, _) = try Self.page(width: 2400, height: 1900, lines: lines)
        var turned = upright
        turned.pixels.reverse()
        let engine = try TextEngine(models: models, languages: "osd")
        for (image, characters) in [(upright, 50), (turned, 50), (upright, 8), (turned, 8)] {
            let found = try #require(engine.orientation(of: image, characters: characters))
            let own = try #require(engine.orientationByTesseractsAPI(of: image, characters: characters))
            #expect(found.counterClockwise == own.counterClockwise && found.confidence == own.confidence)
            #expect(found.scriptConfidence == own.scriptConfidence)
            // The best orientation is the reading's, its margin over the second the confidence.
            let sorted = found.scores.sorted(by: >)
            #expect(found.scores.count == 4 && found.scores.firstIndex(of: sorted[0]) == found.counterClockwise / 90)
            #expect(abs(sorted[0] - sorted[1] - found.confidence) < 1e-3)
            // Tesseract reads at most five times `min_characters_to_try`.
            #expect(found.characters > 0 && found.characters <= 5 * characters)
            // Each character adds the log of each way's share of its fit: printed glyphs fit the
            // way found better than a quarter each (log 1/4 a character), though not by much.
            #expect(sorted[0] / Double(found.characters) > log(0.25), "\(found)")
            #expect(found.scores.allSatisfy { $0 < 0 })
        }
    }

    @Test func aPoolLoadsOneEnginePerConcurrentReader() throws {
        guard let models = Self.models, models.installed.contains("osd") else { return }
        let pool = TextEnginePool(models: models, languages: "osd")
        for _ in 0..<3 { _ = try pool.withEngine { $0.languages } }
        #expect(pool.created == 1, "three pages one after another share one engine")
    }

    @Test func modelsAreFoundWhereTesseractLooks() throws {
        let folder = NSTemporaryDirectory() + "quire-tessdata-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder + "/tessdata", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(TextModels.locate(environment: ["TESSDATA_PREFIX": folder]) == nil, "an empty prefix holds no models")
        _ = FileManager.default.createFile(atPath: folder + "/tessdata/deu.traineddata", contents: Data([1]))
        _ = FileManager.default.createFile(atPath: folder + "/tessdata/osd.traineddata", contents: Data([1]))
        let found = try #require(TextModels.locate(environment: ["TESSDATA_PREFIX": folder]))
        #expect(found.folder == folder + "/tessdata" && found.installed == ["deu", "osd"] && found.readable == ["deu"])
        #expect(
            TextModels.locate(environment: ["TESSDATA_PREFIX": folder + "/tessdata"])?.folder == folder + "/tessdata")
        // A prefix that does not exist is ignored, as Tesseract ignores it: the standard folders are used.
        #expect(
            TextModels.locate(environment: ["TESSDATA_PREFIX": folder + "/missing"])
                == TextModels.locate(environment: [:]))
    }

    @Test func wordsAreCountedAsTheHOCRHasThem() {
        let hocr =
            "<span class='ocr_line' title='bbox 0 0 9 9; x_size 12'><span class='ocrx_word' id='word_1_1' title='bbox 1 2 3 4; x_wconf 87'>a</span>"
            + " <span class='ocrx_word' id='word_1_2' title='bbox 5 2 8 4'>b</span><span class='ocrx_word' title='x_wconf 96'>c</span></span>"
        #expect(TextReading.wordConfidences(inHOCR: hocr) == [87, 0, 96])
        #expect(TextReading(hocrPage: hocr, text: "", wordConfidences: [87, 0, 96]).meanConfidence == 61)
        #expect(TextReading.wordConfidences(inHOCR: "<div class='ocr_page'></div>").isEmpty)
    }

    @Test func pixelsOutOfRangeAreRefused() {
        #expect(TextImage(pixels: [0, 0], width: 1, height: 1, bands: 1) == nil)
        #expect(TextImage(pixels: [], width: 0, height: 0, bands: 1) == nil)
        #expect(TextImage(pixels: [0], width: 1, height: 1, bands: 1, dpi: 10)?.dpi == nil)
        #expect(TextImage(pixels: [0], width: 1, height: 1, bands: 1, dpi: 299.6)?.dpi == 300)
    }
}
