import QuireImageTestSupport
import Testing
import VipsBridge
@testable import QuireImaging

/// `Resampler` against libvips's own Lanczos3 `vips_resize` (the oracle), plus the properties a
/// resize must keep whatever the oracle does: exact sizes, flat stays flat, identity copies,
/// parallel equals serial.
@Suite struct ResamplerTests {
    /// The test card (`ExactResize.card`, built with -O in `make test`'s build).
    static func card(width: Int, height: Int, bands: Int) -> [UInt8] {
        ExactResize.card(width: width, height: height, bands: bands)
    }

    static func resize(
        _ src: [UInt8], _ w: Int, _ h: Int, _ bands: Int, to ow: Int, _ oh: Int,
        parallel: Bool = false, vectorized: Bool = true
    ) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: ow * oh * bands)
        src.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { d in
                Resampler.resize(
                    s, width: w, height: h, bands: bands, into: d, outWidth: ow, outHeight: oh,
                    parallel: parallel, vectorized: vectorized)
            }
        }
        return out
    }

    /// Factors from a preview's (about 1.3) through the block-averaged thumbnail path (6.25).
    @Test(arguments: [
        (1257, 1711, 1175, 1600, 3), (1175, 1600, 188, 256, 3), (900, 700, 256, 199, 1),
        (640, 480, 101, 76, 3), (300, 200, 299, 133, 3)
    ])
    func agreesWithTheExactFilter(_ c: (Int, Int, Int, Int, Int)) throws {
        let (w, h, ow, oh, bands) = c
        let src = Self.card(width: w, height: h, bands: bands)
        let ours = Self.resize(src, w, h, bands, to: ow, oh)
        // The exact filter in doubles (`ExactResize.reference`: no fixed point, no rounding
        // between the passes, no block averaging).
        let exact = ExactResize.reference(src, w, h, bands, to: ow, oh)
        let (mean, worst) = ExactResize.differences(ours, exact)
        let blocks = Resampler.blockFactor(w, ow) > 1 || Resampler.blockFactor(h, oh) > 1
        // Single precision, rounded once at the end: within half a level, plus float noise.
        // Block averaging first (factors of 4 and more) blurs a little more than the full
        // kernel on pixel-level detail, as libvips's shrink and Pillow's reducing_gap do.
        #expect(mean < (blocks ? 1.5 : 0.3), "mean |difference| \(mean)")
        #expect(worst <= (blocks ? 24 : 0.51), "worst |difference| \(worst)")
    }

    /// libvips's own Lanczos3 `vips_resize` is the same family of filter but not the same
    /// arithmetic (8.14 differs from the exact filter, and from Pillow, by 1-3.6 levels on
    /// average on this card): a looser check that nothing is shifted or mis-scaled.
    @Test(arguments: [(2134, 2225, 1534, 1600, 3), (1175, 1600, 188, 256, 3)])
    func closeToLibvips(_ c: (Int, Int, Int, Int, Int)) throws {
        let (w, h, ow, oh, bands) = c
        let src = Self.card(width: w, height: h, bands: bands)
        let ours = try VIPSImage.fromPixels(
            Self.resize(src, w, h, bands, to: ow, oh), width: ow, height: oh, bands: bands)
        let theirs = try VIPSImage.fromPixels(src, width: w, height: h, bands: bands)
            .resized(toWidth: ow, height: oh).materialized()
        #expect((theirs.width, theirs.height) == (ow, oh))
        #expect(try ours.meanAbsoluteDifference(to: theirs) < 4.5)
        #expect(abs(try ours.average() - theirs.average()) < 0.5)
    }

    @Test(arguments: [(500, 400, 123, 77, 3), (1600, 1200, 256, 192, 3), (31, 17, 5, 3, 1), (7, 300, 1, 40, 3)])
    func flatStaysFlat(_ c: (Int, Int, Int, Int, Int)) {
        let (w, h, ow, oh, bands) = c
        let src = [UInt8](repeating: 173, count: w * h * bands)
        #expect(Self.resize(src, w, h, bands, to: ow, oh).allSatisfy { $0 == 173 })
    }

    @Test func sameSizeCopiesPixels() {
        let src = Self.card(width: 97, height: 61, bands: 3)
        #expect(Self.resize(src, 97, 61, 3, to: 97, 61) == src)
    }

    @Test func parallelEqualsSerial() {
        let src = Self.card(width: 1200, height: 900, bands: 3)
        let a = Self.resize(src, 1200, 900, 3, to: 700, 525)
        let b = Self.resize(src, 1200, 900, 3, to: 700, 525, parallel: true)
        #expect(a.count == b.count && zip(a, b).allSatisfy { $0 == $1 })
    }

    /// The AVX2 passes (`SIMDResample`) give the Swift loops' bytes: filter only, after block
    /// averaging, grey, odd sizes (pixels left over after the 8-pixel and 32-column steps), one
    /// pixel wide, and a page-sized preview.
    @Test(
        .enabled(if: SIMDResample.available),
        arguments: [
            (1257, 1711, 1175, 1600, 3), (1175, 1600, 188, 256, 3), (901, 703, 257, 199, 1),
            (7, 300, 1, 40, 3), (33, 17, 9, 5, 3), (61, 45, 23, 31, 3), (2481, 3508, 1131, 1600, 3),
            (33, 17, 9, 5, 1), (61, 45, 23, 31, 1), (2481, 3508, 1131, 1600, 1), (1240, 1754, 188, 256, 1)
        ])
    func vectorizedEqualsTheSwiftLoops(_ c: (Int, Int, Int, Int, Int)) {
        let (w, h, ow, oh, bands) = c
        let src = Self.card(width: w, height: h, bands: bands)
        let fast = Self.resize(src, w, h, bands, to: ow, oh)
        let loops = Self.resize(src, w, h, bands, to: ow, oh, vectorized: false)
        #expect(fast.count == loops.count)
        #expect(ExactResize.differingBytes(fast, loops) == 0)
    }

    /// The grey horizontal pass runs in AVX2 (`SIMDResample.horizontal1`, scans' previews) and
    /// gives, pixel by pixel, the sum of its own taps in tap order, as the Swift loop does: rows
    /// of every length against the 8-pixel groups (a partial last group), shrinks and a copy.
    @Test(
        .enabled(if: SIMDResample.available),
        arguments: [(1, 1), (9, 3), (17, 8), (1000, 257), (4152, 1076), (300, 300)])
    func greyRowsInAVX2EqualTheirTapSums(_ c: (Int, Int)) {
        let (width, outWidth) = c
        let taps = FilterTaps(inputCount: width, span: Double(width), outputCount: outWidth)
        let lanes = LaneWeights(taps, pixelsPerGroup: 8)
        var line = [Float](repeating: 0, count: width + 3 * taps.maxCount + 4)
        for i in 0..<width { line[i] = Float((i &* 7919) % 256) + (i % 3 == 0 ? 0.5 : 0) }
        var expected = [UInt8](repeating: 0, count: outWidth)
        for x in 0..<outWidth {
            var total: Float = 0
            for k in 0..<taps.count[x] { total += taps.weights[taps.offset[x] + k] * line[taps.first[x] + k] }
            expected[x] = UInt8(min(max(total, 0), 255).rounded(.toNearestOrEven))
        }
        var out = [UInt8](repeating: 0, count: outWidth)
        let done = line.withUnsafeBufferPointer { l in
            taps.first.withUnsafeBufferPointer { f in
                out.withUnsafeMutableBufferPointer { o in
                    SIMDResample.horizontal1(
                        line: l.baseAddress!, first: f.baseAddress!, octWeights: lanes.floats,
                        taps: taps.maxCount, outWidth: outWidth, into: o.baseAddress!)
                }
            }
        }
        #expect(done)
        #expect(out == expected)
    }

    /// Grey rows eight at a time (`SIMDResample.horizontal1Rows`, scans' previews) give each
    /// row's own tap sums, in tap order: one to eight rows (lanes past the last unused), rows
    /// of every length against the 8-pixel groups, shrinks and a copy.
    @Test(
        .enabled(if: SIMDResample.available),
        arguments: [(1, 1, 1), (9, 3, 8), (17, 8, 3), (1000, 257, 8), (4152, 1076, 5), (300, 300, 7)])
    func greyRowsEightAtATimeEqualTheirTapSums(_ c: (Int, Int, Int)) {
        let (width, outWidth, rows) = c
        let taps = FilterTaps(inputCount: width, span: Double(width), outputCount: outWidth)
        let lanes = LaneWeights(taps, pixelsPerGroup: 8)
        let lineLength = width + taps.maxCount + 8
        var lines = [Float](repeating: 0, count: rows * lineLength)
        for r in 0..<rows {
            for i in 0..<width {
                lines[r * lineLength + i] = Float((i &* 7919 &+ r &* 104_729) % 256) + (i % 3 == r % 3 ? 0.5 : 0)
            }
        }
        var expected = [UInt8](repeating: 0, count: rows * outWidth)
        for r in 0..<rows {
            for x in 0..<outWidth {
                var total: Float = 0
                for k in 0..<taps.count[x] {
                    total += taps.weights[taps.offset[x] + k] * lines[r * lineLength + taps.first[x] + k]
                }
                expected[r * outWidth + x] = UInt8(min(max(total, 0), 255).rounded(.toNearestOrEven))
            }
        }
        var out = [UInt8](repeating: 0, count: rows * outWidth)
        let scratchCount = (width + taps.maxCount + 8) * 8
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: scratchCount * 4, alignment: 32)
            .bindMemory(to: Float.self, capacity: scratchCount)
        defer { scratch.deallocate() }
        let done = lines.withUnsafeBufferPointer { l in
            taps.first.withUnsafeBufferPointer { f in
                out.withUnsafeMutableBufferPointer { o in
                    SIMDResample.horizontal1Rows(
                        lines: (0..<rows).map { l.baseAddress! + $0 * lineLength }, length: width,
                        first: f.baseAddress!, octWeights: lanes.floats, taps: taps.maxCount, outWidth: outWidth,
                        into: (0..<rows).map { o.baseAddress! + $0 * outWidth }, scratch: scratch)
                }
            }
        }
        #expect(done)
        #expect(out == expected)
    }

    /// A grey page split across the cores (rows in chunks that are not multiples of eight)
    /// gives the serial bytes.
    @Test func greyParallelEqualsSerial() {
        let src = Self.card(width: 1241, height: 1748, bands: 1)
        let a = Self.resize(src, 1241, 1748, 1, to: 1136, 1600)
        let b = Self.resize(src, 1241, 1748, 1, to: 1136, 1600, parallel: true)
        #expect(a == b)
    }

    /// An image averaged in 8 x 8 blocks whose last column and row of blocks are partial (what
    /// a JPEG decoded at 1/8 is), resized with its true span, gives what resizing the full
    /// image gives; taking its pixels as whole shifts the picture towards the far edges.
    @Test func aPartialLastPixelIsResizedByItsSpan() {
        let (w, h, ow, oh) = (1203, 797, 96, 64)
        let src = Self.card(width: w, height: h, bands: 1)
        let (bw, bh) = ((w + 7) / 8, (h + 7) / 8)
        var blocks = [UInt8](repeating: 0, count: bw * bh)
        src.withUnsafeBufferPointer { s in
            blocks.withUnsafeMutableBufferPointer { b in
                Resampler.blockAverage(
                    s.baseAddress!, width: w, height: h, bands: 1, kx: 8, ky: 8, into: b.baseAddress!)
            }
        }
        let full = Self.resize(src, w, h, 1, to: ow, oh)
        func fromBlocks(span: (width: Double, height: Double)?) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: ow * oh)
            blocks.withUnsafeBufferPointer { b in
                out.withUnsafeMutableBufferPointer { d in
                    Resampler.resize(
                        b, width: bw, height: bh, bands: 1, into: d, outWidth: ow, outHeight: oh, span: span)
                }
            }
            return out
        }
        func meanDifference(_ a: [UInt8]) -> Double {
            Double(zip(a, full).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(full.count)
        }
        let spanned = meanDifference(fromBlocks(span: (Double(w) / 8, Double(h) / 8)))
        let whole = meanDifference(fromBlocks(span: nil))
        #expect(spanned < 5 && spanned < whole * 0.5, "with the span \(spanned), without \(whole)")
    }

    @Test func onePixelOutputIsTheAverage() {
        let src: [UInt8] = [0, 100, 200, 40]
        let out = Self.resize(src, 4, 1, 1, to: 1, 1)
        #expect(abs(Int(out[0]) - 85) <= 1)
    }

    /// Weights sum to 1 for every output pixel, at every factor and at the edges.
    @Test(arguments: [(1000, 999), (1000, 480), (333, 70), (5, 1), (16, 16), (10, 37)])
    func weightsAreNormalised(_ c: (Int, Int)) {
        let taps = FilterTaps(inputCount: c.0, span: Double(c.0), outputCount: c.1)
        for i in 0..<c.1 {
            let sum = (0..<taps.count[i]).reduce(0) { $0 + Double(taps.weights[taps.offset[i] + $1]) }
            #expect(abs(sum - 1) < 1e-5)
            #expect(taps.first[i] >= 0 && taps.first[i] + taps.count[i] <= c.0)
        }
    }

    /// The `VIPSImage` entry point: frames and memory images are resampled at the size
    /// `fitted(inside:)` gives; pipelines are left to libvips (nil), never copied whole.
    @Test func resampledOnlyFromMemory() throws {
        let image = try VIPSImage.fromPixels(
            Self.card(width: 900, height: 640, bands: 3), width: 900, height: 640, bands: 3
        )
        .materialized()
        #expect(image.isInMemory)
        let small = try #require(try image.resampled(toFit: 256))
        #expect((small.width, small.height) == (256, 182))
        let expected = VIPSImage.fittedSize(width: 900, height: 640, inside: 256)
        #expect((small.width, small.height) == (expected.width, expected.height))
        #expect(try small.meanAbsoluteDifference(to: image.fitted(inside: 256).materialized()) < 4.5)
        let pipeline = try image.rotated(quarterTurns: 1)
        #expect(!pipeline.isInMemory)
        #expect(try pipeline.resampled(toFit: 256) == nil)
        #expect(try image.resampled(toFit: 1000) === image)
    }
}
