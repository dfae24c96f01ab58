import Testing
import VipsBridge

@testable import QuireImaging

/// The trim copy's turn (`ScanDeskew.turnedCopy`) on 8-bit copies without alpha: Quire's
/// kernel (libvips's canvas, each pixel within 1 of libvips's bilinear rotation).
@Suite struct ScanDeskewTurnedCopyTests {
    /// An 8-bit copy of `bands` bands (gradients, strokes and noise).
    static func copy(width: Int, height: Int, bands: Int) throws -> VIPSImage {
        let px = TurnTests.page(width: width, height: height, bands: bands, seed: UInt64(width + bands))
        return try VIPSImage.fromPixels(px, width: width, height: height, bands: bands)
    }

    @Test(arguments: [1, 3])
    func withoutAlphaIsTheKernelsTurnWithinOneOfLibvips(bands: Int) throws {
        for (w, h) in [(800, 618), (533, 800)] {
            let small = try Self.copy(width: w, height: h, bands: bands)
            let lid: [Double] = bands == 1 ? [61] : [61, 58, 70]
            for degrees in [0.4, -2.3, 9.0] {
                let ours = try ScanDeskew.turnedCopy(small, degrees: degrees, lid: lid)
                let kernel = try ScanDeskew.turned(small, degrees: degrees, fill: lid)
                let theirs = try small.rotated(degrees: degrees, background: lid, interpolation: .bilinear)
                #expect(ours.width == theirs.width && ours.height == theirs.height)
                let a = try ours.pixelBytes()
                #expect(a == (try kernel.pixelBytes()), "\(w)x\(h)x\(bands) at \(degrees)")
                let most = zip(a, try theirs.pixelBytes()).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(most <= 1, "\(w)x\(h)x\(bands) at \(degrees): \(most)")
            }
        }
    }
}
