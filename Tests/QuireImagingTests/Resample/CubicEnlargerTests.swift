import Testing
import TesseractBridge
import VipsBridge

@testable import QuireImaging

/// `CubicEnlarger` against libvips's `vips_resize`, whose bytes it must reproduce: Tesseract's
/// orientation reading of a crop changes with any pixel of it.
@Suite struct CubicEnlargerTests {
    /// Grey noise with dark strokes (a plain LCG with a fixed seed: the same bytes on every run):
    /// hard edges make the cubic over- and undershoot, so the clamping is exercised too.
    static func strokes(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<(width * height)).map { i in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let stroke = (i % width) % 7 < 2 || (i / width) % 11 == 3
            return stroke ? UInt8(truncatingIfNeeded: state >> 61) : 200 + UInt8(truncatingIfNeeded: state >> 59)
        }
    }

    /// Sizes and factors the orientation crop takes (28 px glyphs over the page's, at most 4
    /// times), with odd sizes, a one-pixel column and a factor just over 1.
    static let cases: [(width: Int, height: Int, scale: Double)] = [
        (73, 73, 3.5), (94, 131, 1.4), (41, 41, 28 / 9.0), (168, 214, 1.12), (154, 150, 28 / 26.0),
        (64, 58, 4), (102, 101, 28 / 11.0), (37, 5, 2.7), (1, 9, 3.3), (61, 47, 1.0001)
    ]

    @Test func enlargesAsLibvipsDoesByteForByte() throws {
        for (n, c) in Self.cases.enumerated() {
            let src = Self.strokes(width: c.width, height: c.height, seed: UInt64(n + 1))
            let vips = try VIPSImage.fromPixels(src, width: c.width, height: c.height, bands: 1)
                .resized(horizontal: c.scale, vertical: c.scale)
            let size = CubicEnlarger.size(width: c.width, height: c.height, scale: c.scale)
            #expect(size.width == vips.width && size.height == vips.height, "\(c)")
            let ours = CubicEnlarger.enlarge(src, width: c.width, height: c.height, scale: c.scale)
            #expect(ours == (try vips.pixelBytesDirect()), "\(c)")
        }
    }

    /// The orientation crop is handed the bytes libvips's resize gave it, 8-bit or not, and
    /// keeps the crop's stated resolution.
    @Test func theOrientationCropIsHandedLibvipsBytes() throws {
        let src = Self.strokes(width: 150, height: 120, seed: 9)
        let crop = try VIPSImage.fromPixels(src, width: 150, height: 120, bands: 1)
        for scale in [2.8, 0.8] {
            let handed = try #require(try TesseractOSD.scaled(crop, by: scale))
            let resized = try crop.resized(horizontal: scale, vertical: scale)
            #expect(handed.width == resized.width && handed.height == resized.height)
            #expect(handed.pixels == (try resized.pixelBytesDirect()))
            #expect(
                handed.dpi == TextImage(pixels: [0], width: 1, height: 1, bands: 1, dpi: crop.headerResolution.y)?.dpi)
        }
    }
}
