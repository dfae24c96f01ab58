import QuireTestSupport
import Testing
import VipsBridge

@testable import QuireImaging
@testable import QuirePageAnalysis

/// The clean-up looks at the four strips along a preview's border before it makes the whole
/// 600 px copy: the strips are the whole copy's pixels, and a page is skipped only when the
/// whole copy would have given no edges.
@Suite struct PageCleanerBorderTests {
    /// A seeded preview: paper with noise, text-like strokes, and `bar` columns of dark along the left.
    static func preview(width: Int, height: Int, bands: Int, bar: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        var px = [UInt8](repeating: 0, count: width * height * bands)
        for y in 0..<height {
            for x in 0..<width {
                let inside = x > width / 10 && x < width * 9 / 10 && y > height / 10 && y < height * 9 / 10
                let stroke = inside && (y / 9) % 3 == 0 && (x / 6) % 5 != 0
                let dark = x < bar || stroke
                for z in 0..<bands {
                    px[(y * width + x) * bands + z] = dark ? UInt8(rng.int(0...50)) : UInt8(rng.int(200...255))
                }
            }
        }
        return px
    }

    /// Each strip, made alone from the lazy resize, equals the same pixels of the whole copy
    /// `edges` makes (`fitted(inside:)`, streamed).
    @Test(arguments: [(1600, 1232, 1), (1131, 1600, 3), (1198, 724, 3), (1600, 1146, 1)])
    func stripsAreTheWholeCopysPixels(width: Int, height: Int, bands: Int) throws {
        let image = try VIPSImage.fromPixels(
            Self.preview(width: width, height: height, bands: bands, bar: 0, seed: UInt64(width + bands)),
            width: width, height: height, bands: bands)
        let whole = try image.fitted(inside: PageCleaner.analysisSize)
        let wholeBytes = try whole.pixelBytes()
        let size = VIPSImage.fittedSize(width: width, height: height, inside: PageCleaner.analysisSize)
        let lazy = try image.resized(toWidth: size.width, height: size.height)
        #expect(whole.width == lazy.width && whole.height == lazy.height)
        let (w, h) = (whole.width, whole.height)
        let m = ScannerEdges.seedMargin(width: w, height: h)
        for (x, y, sw, sh) in [(0, 0, w, m.y), (0, h - m.y, w, m.y), (0, m.y, m.x, h - 2 * m.y), (w - m.x, 0, m.x, h)] {
            let strip = try lazy.cropped(x: x, y: y, width: sw, height: sh).pixelBytes()
            var expected = [UInt8]()
            for row in y..<(y + sh) {
                expected += wholeBytes[((row * w + x) * bands)..<((row * w + x + sw) * bands)]
            }
            #expect(strip == expected, "\(width)x\(height)x\(bands) strip at \(x),\(y)")
        }
    }

    /// A light border skips the copy, and the whole copy finds nothing there either; a dark bar
    /// along a side is looked at and found.
    @Test(arguments: [1, 3])
    func onlyPagesWithoutEdgesAreSkipped(bands: Int) throws {
        let cleaner = PageCleaner(options: CleanOptions())
        for bar in [0, 24] {
            let (w, h) = (1131, 1600)
            let image = try VIPSImage.fromPixels(
                Self.preview(width: w, height: h, bands: bands, bar: bar, seed: 3), width: w, height: h, bands: bands)
            let maySeed = try PageCleaner.borderMaySeed(image)
            #expect(maySeed == (bar > 0), "bar \(bar)")
            let edges = try cleaner.edges(in: image)
            #expect((edges != nil) == (bar > 0), "bar \(bar)")
            // What the whole copy gives, asked directly.
            let small = try image.fitted(inside: PageCleaner.analysisSize)
            let grey = PageTone.grey(try small.pixelBytes(), bands: bands)
            let found = ScannerEdges.find(
                grey: grey, width: small.width, height: small.height, paper: PageTone.percentile(grey, 0.9))
            #expect((found != nil) == (bar > 0), "bar \(bar)")
        }
    }
}
