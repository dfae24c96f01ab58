import QuireImageTestSupport
import QuireTestSupport
import Testing
import VipsBridge

@testable import QuireImaging
@testable import QuirePageAnalysis

/// A cleaned page's preview made again only in the rows its fill reaches
/// (`Resampler.redoRows`, `VIPSImage.resampled(toFit:from:changed:)`) has every byte of the
/// preview made whole from the cleaned page.
@Suite struct ResamplerRowsTests {
    /// Which source rows a fill changes: bars at the top, the bottom, a band inside, scattered
    /// single rows, every row, none.
    static func fills(height: Int) -> [[Bool]] {
        var rng = SplitMix64(seed: UInt64(height))
        return [
            (0..<height).map { $0 < height / 20 },
            (0..<height).map { $0 >= height - 3 },
            (0..<height).map { $0 >= height / 3 && $0 < height / 3 + 7 },
            (0..<height).map { _ in rng.next(below: 40) == 0 },
            [Bool](repeating: true, count: height),
            [Bool](repeating: false, count: height)
        ]
    }

    /// `src` with the flagged rows' pixels changed: a bar of one colour in the left columns,
    /// and a gradient in the rest, so the rows change unevenly.
    static func filled(_ src: [UInt8], width: Int, bands: Int, rows: [Bool]) -> [UInt8] {
        var out = src
        for (y, on) in rows.enumerated() where on {
            for x in 0..<width {
                for b in 0..<bands {
                    out[(y * width + x) * bands + b] = x < width / 4 ? UInt8(190 + b) : UInt8((x * 7 + y + b) % 256)
                }
            }
        }
        return out
    }

    /// Preview factors (the filter alone), grey and colour, the AVX2 passes and the loops.
    @Test(
        arguments: [
            (1241, 1748, 1136, 1600, 3), (1275, 1755, 1162, 1600, 1), (2480, 3507, 1131, 1600, 3),
            (301, 419, 150, 209, 1), (640, 480, 433, 325, 3)
        ], [true, false])
    func redoneRowsEqualTheWholeResize(_ c: (Int, Int, Int, Int, Int), vectorized: Bool) {
        let (w, h, ow, oh, bands) = c
        let before = ExactResize.card(width: w, height: h, bands: bands)
        let old = ResamplerTests.resize(before, w, h, bands, to: ow, oh, vectorized: vectorized)
        for rows in Self.fills(height: h) {
            let after = Self.filled(before, width: w, bands: bands, rows: rows)
            let whole = ResamplerTests.resize(after, w, h, bands, to: ow, oh, vectorized: vectorized)
            var ours = old
            let redone = after.withUnsafeBufferPointer { s in
                ours.withUnsafeMutableBufferPointer { d in
                    Resampler.redoRows(
                        s, width: w, height: h, bands: bands, into: d, outWidth: ow, outHeight: oh, changed: rows,
                        vectorized: vectorized)
                }
            }
            // Counts, not the arrays: a failure prints two numbers, not millions of bytes.
            #expect(zip(ours, whole).lazy.filter { $0 != $1 }.count == 0, "\(c), \(rows.filter { $0 }.count) rows")
            let changedRows = rows.contains(true)
            #expect(((redone ?? -1) > 0) == changedRows)
            #expect((redone ?? 0) <= oh)
            if changedRows, !rows.allSatisfy({ $0 }) { #expect(whole != old) }
        }
    }

    /// Factors of 4 and more average blocks first: declined, the rendition untouched.
    @Test func blockAveragedResizesAreDeclined() {
        let (w, h, ow, oh) = (1175, 1600, 188, 256)
        let src = ExactResize.card(width: w, height: h, bands: 3)
        var dst = [UInt8](repeating: 7, count: ow * oh * 3)
        let redone = src.withUnsafeBufferPointer { s in
            dst.withUnsafeMutableBufferPointer { d in
                Resampler.redoRows(
                    s, width: w, height: h, bands: 3, into: d, outWidth: ow, outHeight: oh,
                    changed: [Bool](repeating: true, count: h))
            }
        }
        #expect(redone == nil)
        #expect(dst.allSatisfy { $0 == 7 })
    }

    /// The pipeline's path: a page cleaned of edges, its preview made from the old one in the
    /// rows `changedRows` names, equals the preview made whole from the cleaned page.
    @Test(arguments: [1, 3])
    func cleanedPreviewEqualsTheWholeRemake(bands: Int) throws {
        let (w, h) = (1241, 1748)
        let page = try VIPSImage.fromPixels(
            ExactResize.card(width: w, height: h, bands: bands), width: w, height: h, bands: bands)
        let preview = try #require(try page.resampled(toFit: 1600))
        for seed in [UInt64(3), 11] {
            let mask = PageCleanerFillTests.mask(width: 412, height: 580, seed: seed)
            let edges = PageCleaner.Edges(found: mask, colour: (0..<bands).map { UInt8(201 + $0) })
            let cleaner = PageCleaner(options: CleanOptions())
            let changed = try #require(cleaner.changedRows(of: page, edges: edges))
            let cleaned = try cleaner.apply(page, edges: edges)
            let ours = try #require(try cleaned.resampled(toFit: 1600, from: preview, changed: changed))
            let whole = try #require(try cleaned.resampled(toFit: 1600))
            let (a, b) = (try ours.pixelBytes(), try whole.pixelBytes())
            #expect(a.count == b.count && zip(a, b).lazy.filter { $0 != $1 }.count == 0)
            #expect(changed.contains(false) && changed.contains(true))
        }
    }
}
