import Foundation
import QuireTestSupport
import Testing

@testable import QuireImaging
@testable import QuirePageAnalysis

/// A scan is never cut to a rectangle of its own print (issue 36): a music score's staff
/// systems have four straight, well supported sides, but around them lies more of the same paper
/// with more print on it; the scan is deskewed as a whole page instead (`PrintAround`).
@Suite struct ScanPrintQuadTests {
    /// A grey page filling the frame (as a sheet feeder or a cropped scan gives it): a title,
    /// two staff systems (two five-line staves each, closed by bar lines at both ends) and a
    /// footnote, all black on white.
    static func scoreLikePage(width: Int = 850, height: Int = 1100) -> DetectionCopy {
        var px = [UInt8](repeating: 250, count: width * height)
        func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
            for y in max(0, y0)..<min(height, y1) { for x in max(0, x0)..<min(width, x1) { px[y * width + x] = 20 } }
        }
        // Title and composer: word-like blocks.
        for (y, words) in [(90, 5), (140, 3)] {
            for w in 0..<words { fill(300 + w * 50, y, 340 + w * 50, y + 14) }
        }
        for top in [280, 640] {
            for staff in 0..<2 {
                let y0 = top + staff * 110
                for line in 0..<5 { fill(110, y0 + line * 12, 740, y0 + line * 12 + 2) }
                // Notes: filled heads along the staff.
                for n in 0..<14 { fill(150 + n * 40, y0 + (n * 7) % 48, 160 + n * 40, y0 + (n * 7) % 48 + 8) }
            }
            // The system's bar lines, top staff to bottom staff, at both ends.
            fill(108, top, 112, top + 110 + 50)
            fill(738, top, 742, top + 110 + 50)
        }
        // A footnote: two lines of words.
        for (y, words) in [(960, 9), (990, 6)] {
            for w in 0..<words { fill(110 + w * 70, y, 160 + w * 70, y + 10) }
        }
        return DetectionCopy(pixels: px, width: width, height: height, bands: 1, scaleX: 1, scaleY: 1)
    }

    @Test func aStaffSystemOnAScanIsNotThePage() {
        let copy = Self.scoreLikePage()
        let analysis = PageAnalyzer.analyze(copy)
        #expect(analysis.kind == .scan, "\(analysis.kind), quad \(String(describing: analysis.detection.quad))")
        #expect(analysis.detection.quad == nil)
    }

    /// The rule leaves a page on a blank lid alone: the lid around the sheet holds no print.
    @Test func aSheetOnABlankLidKeepsItsQuad() {
        let (w, h) = (700, 900)
        var px = [UInt8](repeating: 215, count: w * h)
        for y in 60..<840 {
            for x in 60..<640 {
                px[y * w + x] = 250
                if (y - 100) % 24 < 3, y > 100, y < 800, x > 100, x < 600 { px[y * w + x] = 30 }
            }
        }
        let quad = Quad(rect: Rect(x: 60, y: 60, width: 580, height: 780))
        #expect(!PrintAround.liesInPrint(quad, pixels: px, width: w, height: h, bands: 1))
        let inner = Quad(rect: Rect(x: 100, y: 300, width: 500, height: 200))
        #expect(PrintAround.liesInPrint(inner, pixels: px, width: w, height: h, bands: 1))
    }

    /// Leptonica's `bois-2.tif` (a printed score, BSD-2), once cut to a quad around its second
    /// staff system at confidence 0.85: deskewed as a whole page now.
    @Test func leptonicasScoreIsDeskewedWhole() throws {
        let file = TestSupport.repoRoot.appendingPathComponent("Tools/accuracy/real-scans/leptonica/bois-2.tif")
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        let result = try Detector.detect(file: file.path)
        #expect(result.quad == nil)
        #expect(result.kind == .scan)
        #expect(abs((result.skewDegrees ?? 0) - -0.54) <= 0.1, "\(String(describing: result.skewDegrees))")
    }
}
