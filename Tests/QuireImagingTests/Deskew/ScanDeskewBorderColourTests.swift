import QuirePageAnalysis
import QuireTestSupport
import Testing
import VipsBridge

@testable import QuireImaging

/// The colour around a page filling the frame, read from the trim copy's ring alone
/// (`ScanDeskew.borderColourOfTrimCopy`), is the colour of the whole trim copy made as before:
/// grey and RGB pages, sizes that shrink by a whole factor and by a whole factor and a rest,
/// margins of one colour, of noise, and of different colours on each side.
@Suite struct ScanDeskewBorderColourTests {
    /// A page of `bands` bands with a noisy, side-dependent margin around seeded print.
    static func page(width: Int, height: Int, bands: Int, seed: UInt64) -> [UInt8] {
        var px = TurnTests.page(width: width, height: height, bands: bands, seed: seed)
        var rng = SplitMix64(seed: seed &+ 99)
        let margin = max(3, width / 40)
        for y in 0..<height {
            for x in 0..<width where x < margin || y < margin || x >= width - margin || y >= height - margin {
                let side = x < margin ? 0 : y < margin ? 1 : x >= width - margin ? 2 : 3
                for z in 0..<bands {
                    let base = 150 + 20 * side + 7 * z + Int(seed % 13)
                    px[(y * width + x) * bands + z] = UInt8(min(255, base + rng.int(0...(4 + Int(seed % 30)))))
                }
            }
        }
        return px
    }

    @Test(arguments: [1, 3])
    func ringAloneGivesTheWholeCopysColour(bands: Int) throws {
        let sizes = [(2550, 3300), (1700, 2200), (3001, 2003), (1601, 1203), (900, 700), (820, 5), (640, 480)]
        for (i, (w, h)) in sizes.enumerated() {
            let px = Self.page(width: w, height: h, bands: bands, seed: UInt64(i * 7 + bands))
            let image = try VIPSImage.fromPixels(px, width: w, height: h, bands: bands).materialized()
            let small = try image.analysisShrunk(toLongSide: ScanDeskew.trimLongSide)
                .displayReady(keepGray: true).materialized()
            let whole = ScanTrim.borderColour(
                pixels: try small.pixelBytes(), width: small.width, height: small.height, bands: small.bands)
            #expect(try ScanDeskew.borderColourOfTrimCopy(image) == whole, "\(w)x\(h)x\(bands)")
        }
    }
}
