import Testing
import VipsBridge
@testable import QuireImaging

/// The grey copy every orientation reading is made on (`PageCorrector.gray`): block means of
/// the green channel (the grey one for a one-band page), every other pixel of each block. The
/// one-tap path (every page up to twice `longSide`) must give the same bytes as the block loop.
@Suite struct OrientationCopyTests {
    /// The copy as the block loop defines it, written out plainly.
    static func reference(_ pixels: [UInt8], width: Int, height: Int, bands: Int, longSide: Int)
        -> (gray: [UInt8], width: Int, height: Int)
    {
        let f = max(1, (max(width, height) + longSide - 1) / longSide)
        let (ow, oh) = (width / f, height / f)
        let step = f >= 2 ? 2 : 1, channel = bands >= 3 ? 1 : 0
        var gray = [UInt8](repeating: 0, count: ow * oh)
        for oy in 0..<oh {
            for ox in 0..<ow {
                var (sum, taps) = (0, 0)
                for y in stride(from: oy * f, to: oy * f + f, by: step) {
                    for x in stride(from: ox * f, to: ox * f + f, by: step) {
                        sum += Int(pixels[(y * width + x) * bands + channel])
                        taps += 1
                    }
                }
                gray[oy * ow + ox] = UInt8(sum / taps)
            }
        }
        return (gray, ow, oh)
    }

    /// Pages of odd sizes, one and three bands, at block factors 1 (one tap), 2 (one tap: every
    /// other pixel) and 3 (four taps), their pixels a pattern that differs from pixel to pixel.
    @Test(arguments: [(1, 1), (3, 1), (1, 2), (3, 2), (3, 3), (1, 3)])
    func theCopyIsTheBlockSampleOfThePage(_ bands: Int, _ factor: Int) throws {
        let longSide = 100
        let (width, height) = (longSide * factor - 7, longSide * factor * 3 / 4 + 5)
        let pixels = (0..<(width * height * bands)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }
        let page = try VIPSImage.fromPixels(pixels, width: width, height: height, bands: bands)
        #expect(page.isInMemory)
        let copy = try PageCorrector.gray(page, longSide: longSide)
        let want = Self.reference(pixels, width: width, height: height, bands: bands, longSide: longSide)
        #expect(copy.width == want.width && copy.height == want.height)
        #expect(copy.gray == want.gray)
    }
}
