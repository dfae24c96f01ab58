import Foundation
import QuireTestSupport
import Testing
@testable import TesseractBridge
import VipsBridge

/// The one-pass writer gives Tesseract's own hOCR and text byte for byte (the same words in
/// the same order, the same boxes, baselines, confidences, ids and paragraph breaks), on a page
/// drawn in the test and on real scans; skipped where Tesseract's `eng` model is not installed.
@Suite struct OnePassWriterTests {
    /// Both writers on one recognition of `image` (recognising it once per writer gave the same
    /// words, and cost the suite's time twice over).
    static func bothWriters(_ image: TextImage, engine: TextEngine) throws -> (ours: TextReading, theirs: TextReading) {
        let readings = try engine.readings(image, name: "page.png", writers: [.onePass, .tesseract])
        return (readings[0], readings[1])
    }

    /// The first line where `a` and `b` differ, for a failure message that can be read.
    static func firstDifference(_ a: String, _ b: String) -> String {
        let (la, lb) = (a.components(separatedBy: "\n"), b.components(separatedBy: "\n"))
        for i in 0..<max(la.count, lb.count) where i >= la.count || i >= lb.count || la[i] != lb[i] {
            return "line \(i + 1): \(i < la.count ? la[i] : "<none>") | \(i < lb.count ? lb[i] : "<none>")"
        }
        return "none"
    }

    @Test func aDrawnPageIsWrittenAsTesseractWritesIt() throws {
        guard let models = TextEngineTests.models, models.installed.contains("eng") else { return }
        // Two paragraphs, a heading, words that need escaping in XML, digits and punctuation
        // (neutral direction), and a line on its own far below.
        let lines = [
            // Pango markup: drawn as "Quarterly report & <summary>".
            ("Quarterly report &amp; &lt;summary&gt;", 150, 120),
            ("The engine reads \"quoted\" words, it's said;", 150, 400),
            ("then numbers: 48213, 7.5% and 2026-11-26.", 150, 480),
            ("A second paragraph starts here", 150, 800),
            ("and ends on this line.", 150, 880),
            ("Page 3 of 12", 1400, 1700)
        ]
        let (image, _) = try TextEngineTests.page(width: 2000, height: 1900, lines: lines)
        let engine = try TextEngine(models: models, languages: "eng")
        let (ours, theirs) = try Self.bothWriters(image, engine: engine)
        #expect(TextEngineTests.words(inHOCR: theirs.hocrPage).count >= 25, "a page of words: \(theirs.text)")
        #expect(theirs.hocrPage.contains("&amp;"), "a word that needs escaping")
        #expect(ours.writer == .onePass && theirs.writer == .tesseract)
        #expect(ours.hocrPage == theirs.hocrPage, "\(Self.firstDifference(ours.hocrPage, theirs.hocrPage))")
        #expect(ours.text == theirs.text, "\(Self.firstDifference(ours.text, theirs.text))")
        #expect(ours.wordConfidences == theirs.wordConfidences)
    }

    @Test func aPageWithoutWordsIsWrittenAsTesseractWritesIt() throws {
        guard let models = TextEngineTests.models, models.installed.contains("eng") else { return }
        let (image, _) = try TextEngineTests.page(width: 600, height: 400, lines: [])
        let engine = try TextEngine(models: models, languages: "eng")
        let (ours, theirs) = try Self.bothWriters(image, engine: engine)
        #expect(ours.hocrPage == theirs.hocrPage)
        #expect(ours.text == theirs.text)
    }

    /// Real scans: F1550.jpg (colour, tinted paper) and pageseg1.tif (text beside pictures and
    /// rules) from the repository, and `../shared/data/real`'s phototest, eurotext and imgsrc003
    /// when they are there.
    @Test func realScansAreWrittenAsTesseractWritesThem() throws {
        guard let models = TextEngineTests.models, models.installed.contains("eng") else { return }
        let root = TestSupport.repoRoot.appendingPathComponent("Tools/accuracy/real-scans").path
        let shared = TestSupport.realData.path
        let files = [
            "\(root)/galfar-deskew/F1550.jpg", "\(root)/leptonica/pageseg1.tif",
            "\(shared)/tesseract-test-images/phototest.tif", "\(shared)/tesseract-test-images/eurotext.tif",
            "\(shared)/unpaper-tests/imgsrc003.png"
        ].filter { FileManager.default.fileExists(atPath: $0) }
        let engine = try TextEngine(models: models, languages: "eng")
        var words = 0
        for file in files {
            let image = try Self.pixels(of: VIPSImage.load(file: file))
            let (ours, theirs) = try Self.bothWriters(image, engine: engine)
            words += ours.wordConfidences.count
            #expect(ours.writer == .onePass, "\(file): all its words read left to right")
            #expect(
                ours.hocrPage == theirs.hocrPage, "\(file): \(Self.firstDifference(ours.hocrPage, theirs.hocrPage))")
            #expect(ours.text == theirs.text, "\(file): \(Self.firstDifference(ours.text, theirs.text))")
        }
        #expect(files.count < 2 || words > 300, "\(words) words on \(files.count) scans")
    }

    /// `image`'s 8-bit pixels as Quire gives Tesseract a page: grey or RGB, alpha dropped.
    static func pixels(of image: VIPSImage) throws -> TextImage {
        var source = image.format == .uchar ? image : try image.castToUChar()
        if source.bands == 2 { source = try source.extractBands(0) }
        if source.bands > 3 { source = try source.extractBands(0, count: 3) }
        return try #require(
            TextImage(pixels: try source.pixelBytes(), width: source.width, height: source.height, bands: source.bands))
    }
}
