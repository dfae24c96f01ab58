import QuireTestSupport
import Testing
import VipsBridge

@testable import QuireImaging
@testable import QuirePageAnalysis

/// The scanner-edge fill, with empty mask rows skipped and each column's mask cell worked out
/// once, paints exactly the pixels the per-pixel loop it replaced painted (kept here as the
/// reference), so cleaned pages stay the same bytes.
@Suite struct PageCleanerFillTests {
    /// A mask `width` x `height` with bars along two sides, a few stray cells and empty rows.
    static func mask(width: Int, height: Int, seed: UInt64) -> ScannerEdges.Found {
        var rng = SplitMix64(seed: seed)
        var cells = [Bool](repeating: false, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let bar = x < 3 || y >= height - 2
                let stray = y % 5 == 2 && rng.next(below: 7) == 0
                cells[y * width + x] = (bar && y % 4 != 1) || stray
            }
        }
        return ScannerEdges.Found(
            mask: cells, width: width, height: height, area: cells.lazy.filter { $0 }.count)
    }

    /// The fill of main 0d61d31, as it was.
    static func reference(
        _ bytes: inout [UInt8], width: Int, height: Int, bands: Int, mask: ScannerEdges.Found, colour: [UInt8]
    ) {
        for y in 0..<height {
            let my = min(mask.height - 1, y * mask.height / height)
            for x in 0..<width {
                let mx = min(mask.width - 1, x * mask.width / width)
                guard mask.mask[my * mask.width + mx] else { continue }
                for b in 0..<bands { bytes[(y * width + x) * bands + b] = colour[b] }
            }
        }
    }

    @Test(arguments: [
        (width: 301, height: 419, bands: 3, maskWidth: 60, maskHeight: 83),
        (width: 640, height: 480, bands: 1, maskWidth: 600, maskHeight: 450),
        (width: 97, height: 53, bands: 4, maskWidth: 97, maskHeight: 53),
        (width: 1203, height: 1750, bands: 3, maskWidth: 412, maskHeight: 600)
    ])
    func fillPaintsWhatThePerPixelLoopPainted(
        shape: (width: Int, height: Int, bands: Int, maskWidth: Int, maskHeight: Int)
    ) {
        let mask = Self.mask(width: shape.maskWidth, height: shape.maskHeight, seed: UInt64(shape.width))
        var rng = SplitMix64(seed: 3)
        let page = (0..<(shape.width * shape.height * shape.bands)).map { _ in UInt8(rng.int(0...255)) }
        let colour = (0..<shape.bands).map { UInt8(200 + $0) }
        var ours = page, theirs = page
        PageCleaner.fill(
            &ours, width: shape.width, height: shape.height, bands: shape.bands, mask: mask, colour: colour)
        Self.reference(
            &theirs, width: shape.width, height: shape.height, bands: shape.bands, mask: mask, colour: colour)
        // Counts, not the arrays: a failure then prints two numbers, not millions of bytes.
        let differing = zip(ours, theirs).lazy.filter { $0 != $1 }.count
        let painted = zip(ours, page).lazy.filter { $0 != $1 }.count
        #expect(differing == 0)
        #expect(painted > 0)
    }

    /// A page cleaned of its edges alone (filled in a frame the page is computed into) has the
    /// bytes the per-pixel loop paints on the page's bytes, for a page in memory and for a lazy
    /// view of one (a crop).
    @Test(arguments: [1, 3])
    func edgesAloneFillTheFrameAsTheLoopFillsTheBytes(bands: Int) throws {
        let (w, h) = (301, 419)
        var rng = SplitMix64(seed: 5)
        let px = (0..<(w * h * bands)).map { _ in UInt8(rng.int(0...255)) }
        let frame = try VIPSImage.fromPixels(px, width: w, height: h, bands: bands)
        for page in [frame, try frame.cropped(x: 7, y: 11, width: w - 20, height: h - 30)] {
            let mask = Self.mask(width: 60, height: 83, seed: 11)
            let colour = (0..<bands).map { UInt8(200 + $0) }
            let edges = PageCleaner.Edges(found: mask, colour: colour)
            let cleaned = try PageCleaner(options: CleanOptions()).apply(page, edges: edges)
            var expected = try page.pixelBytes()
            Self.reference(&expected, width: page.width, height: page.height, bands: bands, mask: mask, colour: colour)
            let ours = try cleaned.pixelBytes()
            #expect(cleaned.isInMemory && cleaned.width == page.width && cleaned.bands == bands)
            #expect(ours.count == expected.count)
            #expect(zip(ours, expected).lazy.filter { $0 != $1 }.count == 0)
            #expect(ours != (try page.pixelBytes()))
        }
    }
}
