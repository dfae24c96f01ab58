import Foundation
import Testing

@testable import QuireImaging

/// The blank-page guard of the skew search ("fewer than three separate lines: report nothing")
/// counts the lines of the profile at the angle found and of nothing else. The scores before it
/// share one buffer that only grows, and on a short, wide strip the tail of a steeper angle's
/// longer profile stayed behind the final one, raised its median bin and hid the print's lines:
/// a strip of large print (Pillow's test TIFF of one line, "This is a test file", 590 x 88) was
/// reported unsure (0.08) though its strokes make a sharp profile at 0 degrees.
@Suite struct SkewLineCountRealTests {
    static let strip = TestSupport.realData
        .appendingPathComponent("pillow-test-images/crash-74d2a78403a5a59db1fb0a2b8735ac068a75f6e3.tif").path

    @Test(.enabled(if: FileManager.default.fileExists(atPath: strip), "../shared/data/real is not here"))
    func aStripOfLargePrintIsMeasured() throws {
        let result = try Detector.detect(file: Self.strip, dpi: 200, fullResolution: true)
        #expect(result.kind == .scan)
        #expect(abs(result.skewDegrees ?? 99) <= 0.1, "\(String(describing: result.skewDegrees))")
        #expect(result.confidence >= 0.5, "confidence \(result.confidence)")
    }
}
