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

    @Test func aPhotoAndAScanOfTextDecideTheSame() throws {
        // A page on a dark desk (a photo: warped from its quad) and the same page filling a
        // light frame at a slight angle (a scan: deskewed); both reach the same quad or angle.
        let (w, h) = (900, 1200)
        var desk = [UInt8](repeating: 40, count: w * h * 3)
        let text = PageCorrectorSidewaysTests.textPage()
        for y in 0..<1000 {
            for x in 0..<700 {
                let (s, d) = ((y * 700 + x) * 3, ((y + 100) * w + x + 100) * 3)
                (desk[d], desk[d + 1], desk[d + 2]) = (text[s], text[s + 1], text[s + 2])
            }
        }
        let folder = try TestSupport.temporaryFolder()
        let photo = folder + "/photo.png"
        try VIPSImage.fromPixels(desk, width: w, height: h, bands: 3).save(to: photo)
        let detected = try Detector.detect(file: photo, orientation: Witness())
        let processed = try Self.processed(photo)
        #expect(detected.kind == .photo && processed.record.kind == .perspective)
        let (a, b) = try (#require(detected.quad), #require(processed.record.quad))
        #expect(a.worstCornerDistance(to: b) <= 0.01, "detect \(a), process \(b)")
    }
}
