import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// The line look before Tesseract: pages of printed lines turned any of four ways are read the
/// right way up from their baselines alone, and pages whose marks have no baseline (rings, no
/// text) are not answered by it.
@Suite struct LineOrientationTests {
    static let sentences = [
        "The quick brown fox jumps over the lazy dog, and keeps going.",
        "Pack my box with five dozen liquor jugs before the night falls.",
        "A page of printed text sits on its baseline; few letters hang below it.",
        "Sphinx of black quartz, judge my vow: the ledger is kept in good order."
    ]

    /// A white page 1700 x 1100 of fourteen lines of rendered serif text at 200 dpi, grey.
    static func textPage() throws -> VIPSImage {
        var layers: [(image: VIPSImage, x: Int, y: Int)] = []
        for i in 0..<14 {
            layers.append(
                (try VIPSImage.text(sentences[i % sentences.count], font: "serif 11", dpi: 200), 80, 80 + i * 65))
        }
        return try VIPSImage.solid(width: 1700, height: 1100, color: [255, 255, 255]).rgba().compositing(layers)
            .flattened(onto: [255, 255, 255]).extractBands(1).materialized()
    }

    /// The look at `image`, on the grey copy `TesseractOSD` gives it.
    static func finding(_ image: VIPSImage) throws -> LineOrientation.Finding? {
        let look = try PageCorrector.gray(image, longSide: TextPresence.longSide)
        return LineOrientation.find(gray: look.gray, width: look.width, height: look.height)
    }

    /// Turned `turns` quarter turns clockwise, the page needs the rest of a full turn back.
    static func needed(_ turns: Int) -> Int { (360 - 90 * turns) % 360 }

    @Test(arguments: 0..<4) func renderedTextIsReadEveryWayUp(_ turns: Int) throws {
        let page = try Self.textPage().rotated(quarterTurns: turns).materialized()
        let found = try #require(try Self.finding(page))
        #expect(found.isSure && found.rotate == Self.needed(turns), "\(found)")
        #expect(found.confidence >= OrientationPolicy.minimumConfidence, "a sure finding turns a page: \(found)")
    }

    /// The detector answers a clear page from the look (no script confidence: Tesseract was
    /// not asked), with the turn that makes it upright.
    @Test func theDetectorAnswersAClearPageWithoutTesseract() throws {
        let page = try Self.textPage().rotated(quarterTurns: 3).materialized()
        let guess = try #require(try TesseractOSD().guess(page))
        #expect(guess.rotate == 90 && guess.scriptConfidence == nil, "\(guess)")
        #expect(OrientationPolicy.turns(guess))
    }

    /// Real scans of the shared test images, each turned four ways (skipped without ../shared).
    @Test(arguments: [
        "tesseract-test-images/phototest.tif", "unpaper-tests/imgsrc001.png",
        "ocrmypdf-test-resources/linn.png"
    ])
    func realScansAreReadEveryWayUp(_ name: String) throws {
        let path = TestSupport.realData.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let upright = try VIPSImage.load(file: path).materialized()
        for turns in 0..<4 {
            let found = try #require(try Self.finding(try upright.rotated(quarterTurns: turns).materialized()))
            #expect(found.isSure && found.rotate == Self.needed(turns), "\(name) turned \(turns * 90): \(found)")
        }
    }

    /// Letter-sized rings in rows pass the glyph check but have no baseline: the look is not
    /// sure, and the page is not turned (Tesseract, when installed, has the last word).
    @Test func marksWithoutABaselineAreNotAnswered() throws {
        let rings = TextPresenceTests.page(width: 1200, height: 900, rows: 25, columns: 35, size: 14) {
            TextPresenceTests.ring($0, $1)
        }
        let found = try #require(LineOrientation.find(gray: rings, width: 1200, height: 900))
        #expect(!found.isSure && found.confidence < OrientationPolicy.minimumConfidence, "\(found)")
        let image = try VIPSImage.fromPixels(rings, width: 1200, height: 900, bands: 1)
        if let guess = try TesseractOSD().guess(image) {
            #expect(!OrientationPolicy.turns(guess), "\(guess)")
        }
    }

    /// A page with no text: no finding at all (blank), or none sure (a few words).
    @Test func aPageWithoutTextIsLeftWithLowConfidence() throws {
        #expect(LineOrientation.find(gray: [UInt8](repeating: 230, count: 600 * 400), width: 600, height: 400) == nil)
        let words = try VIPSImage.solid(width: 1200, height: 900, color: [255, 255, 255]).rgba()
            .compositing([(try VIPSImage.text("Invoice 2026", font: "serif 11", dpi: 200), 100, 100)])
            .flattened(onto: [255, 255, 255]).extractBands(1).materialized()
        let found = try Self.finding(words)
        #expect(found.map { !$0.isSure } ?? true, "\(String(describing: found))")
        #expect(try TesseractOSD().guess(words) == OrientationGuess(rotate: 0, confidence: 0))
    }

    /// A finding at its thresholds scores the confidence a guess needs to turn a page.
    @Test func aSureFindingTurnsAPage() {
        #expect(LineOrientation.sureConfidence == OrientationPolicy.minimumConfidence)
        let edge = LineOrientation.Finding(
            rotate: 90, votes: LineOrientation.minimumVotes,
            directionShare: LineOrientation.minimumDirectionShare,
            linePieces: LineOrientation.minimumLinePiecesRead,
            edgeMargin: LineOrientation.minimumEdgeMargin)
        #expect(
            edge.isSure && OrientationPolicy.turns(OrientationGuess(rotate: edge.rotate, confidence: edge.confidence)))
    }

    /// The window Tesseract is shown is the square holding the most glyph pieces: a block of
    /// text in the lower right beats a few pieces at the top left, and the window stays on the page.
    @Test func theDensestWindowHoldsTheText() throws {
        var boxes = (0..<5).map { LineOrientation.Box(x0: 10 + $0 * 12, y0: 10, x1: 18 + $0 * 12, y1: 20) }
        for row in 0..<10 {
            for column in 0..<20 {
                let (x, y) = (600 + column * 12, 500 + row * 20)
                boxes.append(LineOrientation.Box(x0: x, y0: y, x1: x + 8, y1: y + 10))
            }
        }
        let found = try #require(LineOrientation.densestWindow(boxes, width: 900, height: 800, side: 300))
        #expect(found.pieces == 200, "\(found)")
        #expect(found.window.x0 <= 600 && found.window.y0 <= 500 && found.window.x1 >= 840 && found.window.y1 >= 690)
        #expect(found.window.x1 < 900 && found.window.y1 < 800)
        #expect(LineOrientation.densestWindow([], width: 900, height: 800, side: 300) == nil)
    }

    /// The second crop Tesseract may read (`TesseractOSD.axisReadAgain`) is the densest window
    /// among the pieces outside the densest one: the smaller block, not the first block again.
    @Test func theSecondWindowHoldsOtherText() throws {
        var boxes: [LineOrientation.Box] = []
        for (x0, y0, rows) in [(600, 500, 10), (40, 40, 4)] {
            for row in 0..<rows {
                for column in 0..<20 {
                    let (x, y) = (x0 + column * 12, y0 + row * 20)
                    boxes.append(LineOrientation.Box(x0: x, y0: y, x1: x + 8, y1: y + 10))
                }
            }
        }
        let second = try #require(
            LineOrientation.densestWindow(boxes, width: 900, height: 800, side: 300, skippingDensest: true))
        #expect(second.pieces == 80, "\(second)")
        #expect(second.window.x0 <= 40 && second.window.y0 <= 40 && second.window.x1 < 600, "\(second)")
        // One block only: no second window.
        let one = Array(boxes.prefix(200))
        #expect(LineOrientation.densestWindow(one, width: 900, height: 800, side: 300, skippingDensest: true) == nil)
    }

    /// Boxes turned a quarter clockwise land where the turned page's pixels do.
    @Test func boxesTurnWithThePage() {
        let box = LineOrientation.Box(x0: 10, y0: 2, x1: 19, y1: 5)
        // On a 100-row page, (10, 2) goes to (97, 10) and (19, 5) to (94, 19).
        #expect(
            LineOrientation.turnedClockwise(box, height: 100) == LineOrientation.Box(x0: 94, y0: 10, x1: 97, y1: 19))
    }
}
