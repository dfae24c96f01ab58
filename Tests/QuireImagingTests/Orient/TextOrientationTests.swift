import Foundation
import Testing
import TesseractBridge
import VipsBridge
@testable import QuireImaging
import QuireTestSupport

/// Pages scanned sideways or upside down come out upright; a guess that is not confident
/// enough leaves the page as it is; photos are asked once straightened (`PageCorrector+SidewaysTests`).
@Suite struct TextOrientationTests {
    /// A detector that answers the same for every page and counts the questions.
    final class Fixed: OrientationDetector, @unchecked Sendable {
        let answer: OrientationGuess?
        var asked = 0
        init(_ answer: OrientationGuess?) { self.answer = answer }
        func guess(_ page: VIPSImage) throws -> OrientationGuess? { asked += 1; return answer }
    }

    @Test func tesseractsFindingIsRead() {
        // Tesseract's "Orientation in degrees" is counter-clockwise; the page turns the other way.
        let found = ScriptOrientation(counterClockwise: 90, confidence: 8.7234, scriptConfidence: 1.6271)
        #expect(TesseractOSD.guess(found) == OrientationGuess(rotate: 270, confidence: 8.72, scriptConfidence: 1.63))
        #expect(
            TesseractOSD.guess(ScriptOrientation(counterClockwise: 180, confidence: 3, scriptConfidence: 1))?.rotate
                == 180)
        #expect(
            TesseractOSD.guess(ScriptOrientation(counterClockwise: 0, confidence: .nan, scriptConfidence: 1)) == nil)
        #expect(
            TesseractOSD.guess(ScriptOrientation(counterClockwise: 0, confidence: 5, scriptConfidence: .infinity))?
                .scriptConfidence == nil)
        #expect(OrientationGuess(rotate: -90, confidence: 1).rotate == 270)
    }

    /// The in-process detector says what `tesseract IMAGE stdout --psm 0 -l osd` says of the
    /// same grey copy (the subprocess it replaces): the same turn and confidences, so
    /// `OrientationPolicy` decides as before.
    @Test func inProcessDetectionAgreesWithTheTesseractCommand() async throws {
        guard TesseractOSD.installed != nil, let cli = TestSupport.executable("tesseract") else { return }
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Lines of rendered text on a page, turned a quarter clockwise.
        var layers: [(image: VIPSImage, x: Int, y: Int)] = []
        for i in 0..<12 {
            layers.append(
                (
                    try VIPSImage.text("Orientation is found in process, line \(i)", font: "serif 12", dpi: 300), 100,
                    120 + i * 110
                ))
        }
        let page = try VIPSImage.solid(width: 2200, height: 1600, color: [255, 255, 255]).rgba().compositing(layers)
            .flattened(onto: [255, 255, 255]).extractBands(1).rotated(quarterTurns: 1).materialized()
        let guess = try #require(try TesseractOSD.installed!.tesseractGuess(page))
        // The copy the subprocess was given: the same image, written as a PNG.
        let png = dir + "/page.png"
        try page.save(to: png, options: .init(format: .png, compression: 1))
        let report = try await Subprocess.run(cli, [png, "stdout", "--psm", "0", "-l", "osd"], stderr: .discard).out
        func value(_ name: String) -> Double? {
            report.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { Double($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)) }
        }
        #expect(
            guess.rotate == 270 && Double(guess.rotate) == value("Rotate"), "in process \(guess), command:\n\(report)")
        #expect(guess.confidence == value("Orientation confidence"), "in process \(guess), command:\n\(report)")
        #expect(guess.scriptConfidence == value("Script confidence"), "in process \(guess), command:\n\(report)")
    }

    /// When the line look is not sure, Tesseract reads one crop of the densest text, scaled to
    /// the glyph size it reads best, with fewer characters than its default: on a generated page
    /// of text turned each of four ways it gives the turn that makes it upright, confidently.
    @Test(arguments: 0..<4) func aCropOfTheDensestTextAnswersLikeThePage(_ turns: Int) throws {
        guard let osd = TesseractOSD.installed else { return }
        let page = try LineOrientationTests.textPage().rotated(quarterTurns: turns).materialized()
        let look = try PageCorrector.gray(page, longSide: TextPresence.longSide)
        let boxes = LineOrientation.look(gray: look.gray, width: look.width, height: look.height).boxes
        let guess = try #require(
            try osd.tesseractGuess(page, boxes: boxes, copyWidth: look.width, copyHeight: look.height))
        #expect(guess.rotate == LineOrientationTests.needed(turns), "\(guess)")
        #expect(turns == 0 || OrientationPolicy.turns(guess), "\(guess)")
    }

    /// ocrmypdf's typewriter.png (a typed letter) turned 270 comes out of correction upright.
    /// Skipped without ../shared.
    static let typewriter = TestSupport.realData.appendingPathComponent("ocrmypdf-test-resources/typewriter.png").path

    @Test(.enabled(if: FileManager.default.fileExists(atPath: typewriter) && TesseractOSD.installed != nil))
    func aTypewrittenLetterTurned270ComesOutUpright() throws {
        let page = try VIPSImage.load(file: Self.typewriter).rotated(quarterTurns: 3).materialized()
        let (_, record) = try PageCorrector(options: CorrectionOptions()).correct(page, userQuad: nil)
        #expect(record.rotation == 90, "turned \(record.rotation), confidence \(record.rotationConfidence ?? -1)")
    }

    /// A crop's answer under the bar (1.82: what the crop of typewriter.png turned 270 once read,
    /// with the older line look) is not kept: the whole page is read once more
    /// (`fallbackGuess`), and its confident turn wins. A crop answer at the bar or over it is kept.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: typewriter) && TesseractOSD.installed != nil))
    func anUnsureCropFallsBackToTheWholePage() throws {
        let osd = try #require(TesseractOSD.installed)
        let page = try VIPSImage.load(file: Self.typewriter).rotated(quarterTurns: 3).materialized()
        let crop = OrientationGuess(rotate: 0, confidence: 1.82, scriptConfidence: 3)
        #expect(TesseractOSD.fallsBack(crop))
        #expect(!TesseractOSD.fallsBack(OrientationGuess(rotate: 90, confidence: 4.6, scriptConfidence: 24)))
        let guess = try #require(try osd.fallbackGuess(page, crop: crop))
        #expect(guess.rotate == 90 && OrientationPolicy.turns(guess), "\(guess)")
    }

    /// Handwriting fools Tesseract's orientation model (upright pages read as upside down with
    /// confidence up to 5.7, script confidence under 0.7): a guess under the sure confidence
    /// turns a page only when a script was read.
    @Test func aGuessOnUnrecognisedScriptNeedsMoreConfidence() {
        #expect(!OrientationPolicy.turns(OrientationGuess(rotate: 180, confidence: 5.7, scriptConfidence: 0.4)))
        #expect(OrientationPolicy.turns(OrientationGuess(rotate: 180, confidence: 5.7, scriptConfidence: 1.2)))
        #expect(OrientationPolicy.turns(OrientationGuess(rotate: 90, confidence: 12, scriptConfidence: 0.2)))
        #expect(
            OrientationPolicy.turns(OrientationGuess(rotate: 90, confidence: 3)), "no script reported: confidence alone"
        )
        #expect(!OrientationPolicy.turns(OrientationGuess(rotate: 0, confidence: 40, scriptConfidence: 9)))
        #expect(!OrientationPolicy.turns(OrientationGuess(rotate: 270, confidence: 1.9, scriptConfidence: 9)))
    }

    /// handwriting-ocr's upright handwritten pages (photos the analyser keeps whole or deskews as
    /// scans) are not turned upside down.
    @Test(arguments: ["hwocr_page03.jpg", "hwocr_page05.jpg", "hwocr_page07.jpg"])
    func uprightHandwritingStaysUpright(_ name: String) throws {
        guard TesseractOSD.installed != nil else { return }
        let path = TestSupport.repoRoot.appendingPathComponent("Tools/accuracy/real-photos/" + name).path
        let decoded = try PageDecoder(maxPixels: .max).decodeFrame(PageSource(path: path), planar: true)
        let (_, record) = try PageCorrector(options: CorrectionOptions()).correct(decoded, userQuad: nil)
        #expect(
            record.rotation == 0, "\(name): turned \(record.rotation) (confidence \(record.rotationConfidence ?? -1))")
    }

    /// A text-like scan 300 x 200 (wider than high) that the detector says must turn 90 degrees.
    static func scan() throws -> VIPSImage {
        try TestSupport.image(width: 300, height: 200, bands: 1) { x, y, _ in
            (y % 12) < 3 && x > 20 && x < 280 && (x / 7) % 5 != 4 && y > 15 && y < 185 ? 20 : 235
        }
    }

    @Test func aConfidentGuessTurnsTheScan() throws {
        let detector = Fixed(OrientationGuess(rotate: 90, confidence: 9))
        let corrector = PageCorrector(options: CorrectionOptions(), orientation: detector)
        let (page, record) = try corrector.correct(try Self.scan(), userQuad: nil)
        #expect(record.rotation == 90 && record.rotationConfidence == 9)
        #expect(page.width < page.height, "turned a quarter: \(page.width) x \(page.height)")
        #expect(detector.asked == 1, "asked once, not again after the turn")
    }

    @Test func anUnsureGuessKeepsThePage() throws {
        let detector = Fixed(OrientationGuess(rotate: 180, confidence: OrientationPolicy.minimumConfidence - 0.1))
        let (page, record) = try PageCorrector(options: CorrectionOptions(), orientation: detector)
            .correct(try Self.scan(), userQuad: nil)
        #expect(record.rotation == 0 && record.rotationConfidence == OrientationPolicy.minimumConfidence - 0.1)
        #expect(page.width == 300)
        // --rotate none does not ask at all.
        let none = Fixed(OrientationGuess(rotate: 90, confidence: 50))
        let (_, kept) = try PageCorrector(options: CorrectionOptions(rotate: .none), orientation: none)
            .correct(try Self.scan(), userQuad: nil)
        #expect(none.asked == 0 && kept.rotation == 0 && kept.rotationConfidence == nil)
    }

    @Test func aPhotoWithAPageQuadIsNotAsked() throws {
        let detector = Fixed(OrientationGuess(rotate: 90, confidence: 50))
        let quad = SyntheticPhoto.quad(width: 800, height: 600, pageAspect: 0.707, degrees: 15, keystone: 0.1)
        let photo = SyntheticPhoto(width: 800, height: 600, quad: quad, pageAspect: 0.707, background: .texture)
        let image = try VIPSImage.fromPixels(photo.pixels, width: 800, height: 600, bands: 3)
        let (_, record) = try PageCorrector(options: CorrectionOptions(), orientation: detector).correct(
            image, userQuad: nil)
        #expect(record.kind == .perspective)
        #expect(detector.asked == 0 && record.rotation == 0)
    }

    /// OCRmyPDF's cardinal.pdf: page 1 upright, pages 2-4 scanned sideways and upside down.
    @Test func cardinalsPagesComeOutUpright() throws {
        let pdf = TestSupport.realData.appendingPathComponent("ocrmypdf-test-resources/cardinal.pdf").path
        guard FileManager.default.fileExists(atPath: pdf), TesseractOSD.installed != nil else { return }
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        var turns: [Int] = []
        for page in 0..<4 {
            let paths = PageOutputPaths(
                page: "\(out)/p\(page).jpg", preview: "\(out)/v\(page).jpg", thumbnail: "\(out)/t\(page).jpg")
            let result = try PagePipeline().process(PageSource(path: pdf, page: page, dpi: 100), to: paths)[0]
            turns.append(result.correction.rotation)
            #expect(result.width < result.height, "page \(page + 1) is portrait once upright")
        }
        #expect(turns == [0, 270, 180, 90])
    }

    /// Text lying at a large angle misleads Tesseract (eurotext.tif turned 35 degrees reads as
    /// upside down, confidence 3): a scan is asked once it is straight, and stays the right way up.
    @Test func aPageLaidAtThirtyFiveDegreesIsStraightenedNotTurnedOver() throws {
        let tif = TestSupport.realData.appendingPathComponent("tesseract-test-images/eurotext.tif").path
        guard FileManager.default.fileExists(atPath: tif), TesseractOSD.installed != nil else { return }
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let turned = "\(out)/turned.png"
        try VIPSImage.load(file: tif).rotated(degrees: -35, background: [255]).save(
            to: turned, options: .init(format: .png))
        let paths = PageOutputPaths(page: "\(out)/p.png", preview: "\(out)/v.png", thumbnail: "\(out)/t.png")
        let result = try PagePipeline(renditions: RenditionOptions(format: .png)).process(
            PageSource(path: turned), to: paths)[0]
        #expect(result.correction.kind == .deskew)
        #expect(
            abs((result.correction.skewDegrees ?? 0) - 34.22) < 0.3, "skew \(result.correction.skewDegrees ?? .nan)")
        #expect(result.correction.rotation == 0)
    }
}
