import Foundation
import QuireTestSupport
import Testing
import VipsBridge
@testable import QuireImaging

/// `quire detect` previews `quire process`: both make the same decision, and the orientation
/// detector is shown the same pages by both (so they cannot say different turns).
@Suite struct DetectProcessAgreementTests {
    /// Says "upright, surely" of every page and remembers the size of each page it was shown.
    final class Witness: OrientationDetector, @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [String] = []
        func guess(_ page: VIPSImage) throws -> OrientationGuess? {
            lock.withLock { seen.append("\(page.width)x\(page.height)") }
            return OrientationGuess(rotate: 0, confidence: 20, scriptConfidence: 5)
        }
        var sizes: [String] { lock.withLock { seen } }
    }

    /// What `quire process` decides for the file at `path`, and the pages its detector was shown.
    static func processed(_ path: String) throws -> (record: CorrectionRecord, asked: [String], page: VIPSImage) {
        let witness = Witness()
        let frame = try PageDecoder(maxPixels: .max).decodeFrame(PageSource(path: path), planar: true)
        let corrector = PageCorrector(options: CorrectionOptions(), orientation: .some(witness))
        let (page, record) = try corrector.correct(frame, userQuad: nil)
        return (record, witness.sizes, page)
    }

    @Test func aBookOnClothIsAskedAboutAsItIsWritten() throws {
        // The lid cannot be told from the page by colour here: process trims the scan to the
        // outline the detector found, and detect must ask about that trimmed page too.
        let (scan, _) = try ScanDeskewTests.bookOnCloth(degrees: 1.5)
        let path = try TestSupport.temporaryFolder() + "/book.png"
        try scan.save(to: path)
        let witness = Witness()
        let detected = try Detector.detect(file: path, orientation: witness)
        let processed = try Self.processed(path)
        #expect(detected.kind == .scan && processed.record.kind == .deskew)
        #expect(detected.skewDegrees == processed.record.skewDegrees)
        #expect(processed.asked == ["\(processed.page.width)x\(processed.page.height)"])
        #expect(witness.sizes == processed.asked, "detect asked about \(witness.sizes), process \(processed.asked)")
    }

    @Test(arguments: [false, true])
    func aPageOnAGroundIsDecidedAlikeByBoth(textured: Bool) throws {
        // A page of text on a dark ground: flat (a scanner lid: deskewed) or textured (a desk:
        // warped from its quad). Both commands take the same decision, angle and quad.
        let (w, h) = (900, 1200)
        var ground = [UInt8](repeating: 40, count: w * h * 3)
        if textured {
            for i in 0..<(w * h) {
                let v = UInt8(30 + (i * 7 + i / w * 13) % 23)
                (ground[3 * i], ground[3 * i + 1], ground[3 * i + 2]) = (v, v, v)
            }
        }
        let text = PageCorrectorSidewaysTests.textPage()
        for y in 0..<1000 {
            for x in 0..<700 {
                let (s, d) = ((y * 700 + x) * 3, ((y + 100) * w + x + 100) * 3)
                (ground[d], ground[d + 1], ground[d + 2]) = (text[s], text[s + 1], text[s + 2])
            }
        }
        let path = try TestSupport.temporaryFolder() + "/page.png"
        try VIPSImage.fromPixels(ground, width: w, height: h, bands: 3).save(to: path)
        let detected = try Detector.detect(file: path, orientation: Witness())
        let processed = try Self.processed(path)
        let kinds: [DetectionResult.Kind: CorrectionRecord.Kind] = [.photo: .perspective, .scan: .deskew, .none: .none]
        #expect(detected.kind.flatMap { kinds[$0] } == processed.record.kind)
        #expect(detected.skewDegrees == processed.record.skewDegrees)
        if let a = detected.quad, let b = processed.record.quad {
            #expect(a.worstCornerDistance(to: b) <= 0.01, "detect \(a), process \(b)")
        }
        #expect(detected.rotation == processed.record.rotation)
    }
}
