import Dispatch
import Foundation
import VipsBridge

/// Shrinks 8-bit interleaved pixels with a separable Lanczos3 filter: the preview and the
/// thumbnail of every page.
///
/// Why not `vips_resize`: on a page already in memory, libvips's resampling pipeline costs far
/// more than its arithmetic (more than encoding the same page, even with the nearest kernel;
/// figures in docs/benchmarks.md#figures-behind-design-choices). Here the same filter runs as two
/// tight loops with no per-tile machinery.
///
/// The filter is libvips's (and Pillow's): the Lanczos3 kernel stretched by the shrink factor,
/// windowed to the image (weights renormalised at the edges), pixel centres aligned, in
/// single-precision arithmetic with no rounding between the passes. Factors
/// of 4 and more first average whole `k` x `k` blocks (`k` = factor / 2, rounded down), as
/// libvips's `gap` and Pillow's `reducing_gap` do, so the filter itself never spans more than
/// about 24 taps.
///
/// Both passes run in C with AVX2 where the CPU has it (`SIMDResample`): the same float
/// operations in the same order, so the same bytes, at 13.5 instead of 35 CPU ms for a
/// 1600 px preview of an 8 MP page. The Swift loops below are the reference and the fallback.
///
/// Output rows are made one at a time: the vertical taps fill a row of the source's width,
/// then the horizontal taps read it. Nothing but that row (per worker) is held besides the
/// source and the destination.
public enum Resampler {

    /// Resizes `src` (`width` x `height`, `bands` interleaved bytes a pixel) to exactly
    /// `outWidth` x `outHeight` into `dst`.
    /// - Parameters:
    ///   - span: how many pixels' worth of picture the source holds, when its last column or
    ///     row covers only part of a pixel (a JPEG decoded at 1/8: 1203 columns give 151
    ///     pixels spanning 150.375); nil for the whole `width` x `height`.
    ///   - parallel: split the rows across the cores (a page alone); a batch already keeps
    ///     every core busy with pages, where one thread a page costs less.
    ///   - vectorized: run both passes with AVX2 where the CPU has it (`SIMDResample`, the
    ///     same bytes); false keeps the Swift loops (the tests compare the two).
    /// - Precondition: every size is at least 1, `src.count >= width * height * bands` and
    ///   `dst.count >= outWidth * outHeight * bands`.
    /// - Complexity: O(outHeight x width x taps + outHeight x outWidth x taps), taps about
    ///   6 x the residual factor (at most about 24), after an O(width x height) block average
    ///   for factors of 4 and more.
    public static func resize(
        _ src: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bands: Int,
        into dst: UnsafeMutableBufferPointer<UInt8>, outWidth: Int, outHeight: Int,
        span: (width: Double, height: Double)? = nil, parallel: Bool = false,
        vectorized: Bool = true
    ) {
        precondition(width > 0 && height > 0 && bands > 0 && outWidth > 0 && outHeight > 0)
        precondition(src.count >= width * height * bands && dst.count >= outWidth * outHeight * bands)
        let spanX = span?.width ?? Double(width), spanY = span?.height ?? Double(height)
        precondition(
            spanX > Double(width - 1) && spanX <= Double(width) && spanY > Double(height - 1)
                && spanY <= Double(height),
            "the span lies within the last pixel")
        let kx = blockFactor(width, outWidth), ky = blockFactor(height, outHeight)
        if kx == 1 && ky == 1 {
            convolve(
                src.baseAddress!, width: width, height: height, spanX: spanX, spanY: spanY,
                bands: bands, into: dst.baseAddress!, outWidth: outWidth, outHeight: outHeight, parallel: parallel,
                vectorized: vectorized)
            return
        }
        let (bw, bh) = ((width + kx - 1) / kx, (height + ky - 1) / ky)
        var blocks = [UInt8](repeating: 0, count: bw * bh * bands)
        blocks.withUnsafeMutableBufferPointer { b in
            blockAverage(
                src.baseAddress!, width: width, height: height, bands: bands, kx: kx, ky: ky, into: b.baseAddress!)
            // The averaged image spans the source exactly: width / kx block widths, the last
            // block partly outside (it averaged only the columns there were).
            convolve(
                UnsafePointer(b.baseAddress!), width: bw, height: bh,
                spanX: spanX / Double(kx), spanY: spanY / Double(ky),
                bands: bands, into: dst.baseAddress!, outWidth: outWidth, outHeight: outHeight, parallel: parallel,
                vectorized: vectorized)
        }
    }

    /// Makes again, in `dst`, the output rows of a `resize` (no `span`, not `parallel`) whose
    /// vertical taps read a source row where `changed` is true, leaving the others as they are:
    /// `dst` holds the resize of pixels that differ from `src` only in those rows, and comes
    /// out as `src`'s whole resize, byte for byte (each output row is made on its own, whatever
    /// rows are made with it: `ResamplerRowsTests`).
    /// - Returns: how many output rows were made again; nil, with `dst` untouched, when the
    ///   resize averages blocks first (a factor of 4 or more), where the caller resizes whole.
    /// - Precondition: as `resize`'s, and `changed.count == height`.
    public static func redoRows(
        _ src: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bands: Int,
        into dst: UnsafeMutableBufferPointer<UInt8>, outWidth: Int, outHeight: Int, changed: [Bool],
        vectorized: Bool = true
    ) -> Int? {
        precondition(width > 0 && height > 0 && bands > 0 && outWidth > 0 && outHeight > 0)
        precondition(src.count >= width * height * bands && dst.count >= outWidth * outHeight * bands)
        precondition(changed.count == height, "one flag a source row")
        guard blockFactor(width, outWidth) == 1, blockFactor(height, outHeight) == 1 else { return nil }
        let ys = FilterTaps(inputCount: height, span: Double(height), outputCount: outHeight)
        // Changed source rows up to each row, so a row's taps are checked with one subtraction.
        var before = [Int](repeating: 0, count: height + 1)
        for y in 0..<height { before[y + 1] = before[y] + (changed[y] ? 1 : 0) }
        let job = ResampleJob(
            src: src.baseAddress!, dst: dst.baseAddress!, width: width, bands: bands, outWidth: outWidth,
            xs: FilterTaps(inputCount: width, span: Double(width), outputCount: outWidth), ys: ys,
            vectorized: vectorized && SIMDResample.available)
        var redone = 0, y = 0
        while y < outHeight {
            let touches = { (y: Int) in before[ys.first[y] + ys.count[y]] > before[ys.first[y]] }
            guard touches(y) else {
                y += 1
                continue
            }
            var end = y + 1
            while end < outHeight && touches(end) { end += 1 }
            job.rows(y..<end)
            redone += end - y
            y = end
        }
        return redone
    }

    /// The whole block size averaged before filtering: half the factor, rounded down, so the
    /// filter is left a factor between 2 and 4 (1 below a factor of 4: filter only).
    static func blockFactor(_ from: Int, _ to: Int) -> Int {
        let factor = Double(from) / Double(to)
        return factor >= 4 ? max(1, Int(factor / 2)) : 1
    }

    /// `kx` x `ky` box averages; blocks at the right and bottom edges average the pixels they hold.
    /// Each mean is the rounded quotient `(total + count / 2) / count`, taken with one multiply
    /// (`ExactDivisor`) instead of a hardware division a sample.
    static func blockAverage(
        _ src: UnsafePointer<UInt8>, width: Int, height: Int, bands: Int, kx: Int, ky: Int,
        into dst: UnsafeMutablePointer<UInt8>
    ) {
        let (bw, bh) = ((width + kx - 1) / kx, (height + ky - 1) / ky)
        let rowLength = width * bands
        var sums = [UInt32](repeating: 0, count: rowLength)
        sums.withUnsafeMutableBufferPointer { s in
            let acc = s.baseAddress!
            for by in 0..<bh {
                let y0 = by * ky, y1 = min(height, y0 + ky)
                var row = src + y0 * rowLength
                for i in 0..<rowLength { acc[i] = UInt32(row[i]) }
                for _ in (y0 + 1)..<max(y0 + 1, y1) {
                    row += rowLength
                    for i in 0..<rowLength { acc[i] &+= UInt32(row[i]) }
                }
                let out = dst + by * bw * bands
                // Whole blocks share one count; a last, narrower block has its own.
                let whole = width / kx
                averageRow(acc, from: 0, to: whole, kx: kx, columns: kx, rows: y1 - y0, bands: bands, into: out)
                if whole < bw {
                    averageRow(
                        acc, from: whole, to: bw, kx: kx, columns: width - whole * kx, rows: y1 - y0, bands: bands,
                        into: out)
                }
            }
        }
    }

    /// Blocks `first..<end` of one row of blocks, each `columns` wide (starting every `kx`
    /// columns) and `rows` deep, from the column sums `acc`.
    @inline(__always)
    private static func averageRow(
        _ acc: UnsafePointer<UInt32>, from first: Int, to end: Int, kx: Int, columns: Int, rows: Int, bands: Int,
        into dst: UnsafeMutablePointer<UInt8>
    ) {
        let count = UInt32(columns * rows)
        let divisor = ExactDivisor(count)
        var out = dst + first * bands
        for bx in first..<end {
            let x0 = bx * kx
            for b in 0..<bands {
                var total: UInt32 = 0
                var i = x0 * bands + b
                for _ in 0..<columns {
                    total &+= acc[i]
                    i += bands
                }
                out[b] = UInt8(truncatingIfNeeded: divisor.quotient(total &+ count / 2))
            }
            out += bands
        }
    }

    /// The same means pixel by pixel with a division each: the reference `blockAverage` is
    /// tested against (ResamplerTests.blockAverageEqualsTheDivisionLoop).
    static func blockAverageByDivision(
        _ src: UnsafePointer<UInt8>, width: Int, height: Int, bands: Int, kx: Int, ky: Int,
        into dst: UnsafeMutablePointer<UInt8>
    ) {
        let (bw, bh) = ((width + kx - 1) / kx, (height + ky - 1) / ky)
        for by in 0..<bh {
            let y0 = by * ky, y1 = min(height, y0 + ky)
            for bx in 0..<bw {
                let x0 = bx * kx, x1 = min(width, x0 + kx)
                let count = UInt32((x1 - x0) * (y1 - y0))
                for b in 0..<bands {
                    var total: UInt32 = 0
                    for y in y0..<y1 {
                        for x in x0..<x1 { total &+= UInt32(src[(y * width + x) * bands + b]) }
                    }
                    dst[(by * bw + bx) * bands + b] = UInt8(truncatingIfNeeded: (total + count / 2) / count)
                }
            }
        }
    }

    /// The Lanczos3 filter pass of `resize`: `width` x `height` pixels covering `spanX` x
    /// `spanY` source units (the averaged image may span a fraction less than its pixels).
    private static func convolve(
        _ src: UnsafePointer<UInt8>, width: Int, height: Int, spanX: Double, spanY: Double,
        bands: Int, into dst: UnsafeMutablePointer<UInt8>, outWidth: Int, outHeight: Int,
        parallel: Bool, vectorized: Bool
    ) {
        let xs = FilterTaps(inputCount: width, span: spanX, outputCount: outWidth)
        let ys = FilterTaps(inputCount: height, span: spanY, outputCount: outHeight)
        let job = ResampleJob(
            src: src, dst: dst, width: width, bands: bands, outWidth: outWidth, xs: xs, ys: ys,
            vectorized: vectorized && SIMDResample.available)
        let chunks = parallel ? min(outHeight, 16) : 1
        let rowsPerChunk = (outHeight + chunks - 1) / chunks
        DispatchQueue.concurrentPerform(iterations: (outHeight + rowsPerChunk - 1) / rowsPerChunk) { chunk in
            job.rows(chunk * rowsPerChunk..<min(outHeight, (chunk + 1) * rowsPerChunk))
        }
    }
}

/// For each output index, the first input index the filter reads, how many, and their
/// weights (summing to 1).
struct FilterTaps: @unchecked Sendable {
    let first: [Int]
    let count: [Int]
    /// `count[i]` weights for output i start at `offset[i]`.
    let offset: [Int]
    let weights: [Float]
    let maxCount: Int

    /// - Parameters:
    ///   - inputCount: input pixels.
    ///   - span: input units they cover (`inputCount` but for a block-averaged input).
    ///   - outputCount: output pixels spread over the same span.
    init(inputCount: Int, span: Double, outputCount: Int) {
        let scale = span / Double(outputCount)  // input units per output pixel
        let stretch = max(scale, 1)  // the kernel widens when shrinking
        let support = 3 * stretch
        var first = [Int](), count = [Int](), offset = [Int](), weights = [Float]()
        first.reserveCapacity(outputCount); count.reserveCapacity(outputCount); offset.reserveCapacity(outputCount)
        var maxCount = 1
        var real = [Double]()
        for i in 0..<outputCount {
            let centre = (Double(i) + 0.5) * scale  // in input units; input pixel j is centred at j + 0.5
            let lo = max(0, Int((centre - support - 0.5).rounded(.up)))
            let hi = min(inputCount - 1, Int((centre + support - 0.5).rounded(.down)))
            real.removeAll(keepingCapacity: true)
            var total = 0.0
            if lo <= hi {
                for j in lo...hi {
                    let w = Self.lanczos3((Double(j) + 0.5 - centre) / stretch)
                    real.append(w)
                    total += w
                }
            }
            offset.append(weights.count)
            if real.isEmpty || abs(total) < 1e-9 {
                // Nothing under the kernel (a degenerate span): the nearest pixel.
                first.append(min(inputCount - 1, max(0, Int(centre))))
                count.append(1)
                weights.append(1)
                continue
            }
            first.append(lo)
            count.append(real.count)
            weights.append(contentsOf: real.map { Float($0 / total) })
            maxCount = max(maxCount, real.count)
        }
        self.first = first
        self.count = count
        self.offset = offset
        self.weights = weights
        self.maxCount = maxCount
    }

    /// The Lanczos kernel with three lobes.
    static func lanczos3(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= 3 { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }
}

/// One resize's inputs, shared read-only by the workers; each worker writes only its own rows.
///
/// Arithmetic is in `Float`: SSE2, the baseline every x86-64 build targets, has no fast
/// 32-bit integer multiply but multiplies four floats at once, so the vertical pass
/// vectorises as it is and the horizontal pass handles a whole RGB pixel per tap.
private struct ResampleJob: @unchecked Sendable {
    let src: UnsafePointer<UInt8>
    let dst: UnsafeMutablePointer<UInt8>
    let width: Int, bands: Int, outWidth: Int
    let xs: FilterTaps, ys: FilterTaps
    /// Both passes through `SIMDResample` (AVX2, the same bytes as the loops below).
    let vectorized: Bool
    /// The horizontal weights laid out for `SIMDResample.horizontal3` (3 bands, vectorized).
    let pairWeights: PairWeights?
    /// The same for `SIMDResample.horizontal1` (grey, vectorized): scans' previews spent most
    /// of their resize in the scalar grey loop (docs/benchmarks.md, issue 32).
    let octWeights: LaneWeights?

    init(
        src: UnsafePointer<UInt8>, dst: UnsafeMutablePointer<UInt8>, width: Int, bands: Int, outWidth: Int,
        xs: FilterTaps, ys: FilterTaps, vectorized: Bool
    ) {
        (self.src, self.dst, self.width, self.bands, self.outWidth, self.xs, self.ys) = (
            src, dst, width, bands, outWidth, xs, ys
        )
        self.vectorized = vectorized
        pairWeights = vectorized && bands == 3 ? PairWeights(xs) : nil
        octWeights = vectorized && bands == 1 ? LaneWeights(xs, pixelsPerGroup: 8) : nil
    }

    /// Output rows `rows`: vertical taps into one full-width row, then horizontal taps.
    func rows(_ rows: Range<Int>) {
        if let octs = octWeights, greyRowsInEights(rows, octs) { return }
        let rowLength = width * bands
        // Spare zeros: the horizontal pass reads whole SIMD4s at the last pixel, and the AVX2
        // one reads up to 3 x maxCount more (zero-weighted).
        let spare = 3 * xs.maxCount + 4
        let line = UnsafeMutablePointer<Float>.allocate(capacity: rowLength + spare)
        line.initialize(repeating: 0, count: rowLength + spare)
        defer { line.deallocate() }
        ys.weights.withUnsafeBufferPointer { yw in
            xs.weights.withUnsafeBufferPointer { xw in
                xs.first.withUnsafeBufferPointer { first in
                    for y in rows {
                        // Vertical: weighted sum of the rows under the kernel, element by element.
                        let row = src + ys.first[y] * rowLength
                        let weights = yw.baseAddress! + ys.offset[y]
                        if !(vectorized
                            && SIMDResample.vertical(
                                rows: row, stride: rowLength, weights: weights,
                                taps: ys.count[y], length: rowLength, into: line))
                        {
                            vertical(row, taps: ys.count[y], weights: weights, into: line)
                        }
                        // Horizontal, into the output row.
                        let out = dst + y * outWidth * bands
                        if let pairs = pairWeights,
                            SIMDResample.horizontal3(
                                line: line, first: first.baseAddress!, pairWeights: pairs.floats,
                                taps: xs.maxCount, outWidth: outWidth, into: out)
                        {
                            continue
                        }
                        if let octs = octWeights,
                            SIMDResample.horizontal1(
                                line: line, first: first.baseAddress!, octWeights: octs.floats,
                                taps: xs.maxCount, outWidth: outWidth, into: out)
                        {
                            continue
                        }
                        if bands == 3 {
                            horizontal3(line, out, xw.baseAddress!)
                        } else {
                            horizontal(line, out, xw.baseAddress!)
                        }
                    }
                }
            }
        }
    }

    /// Grey output rows `rows` eight at a time (`SIMDResample.horizontal1Rows`, the same bytes
    /// as one at a time): the vertical taps into eight lines, then the horizontal taps of all
    /// eight together. False (nothing done) where the AVX2 pass does not run.
    private func greyRowsInEights(_ rows: Range<Int>, _ octs: LaneWeights) -> Bool {
        // Each line: the row, then the zeros the horizontal pass may read past it.
        let lineLength = width + xs.maxCount + 8
        let lines = UnsafeMutablePointer<Float>.allocate(capacity: 8 * lineLength)
        lines.initialize(repeating: 0, count: 8 * lineLength)
        defer { lines.deallocate() }
        let scratchCount = (width + xs.maxCount + 8) * 8
        let scratch = UnsafeMutableRawPointer.allocate(
            byteCount: scratchCount * MemoryLayout<Float>.stride, alignment: 32
        ).bindMemory(to: Float.self, capacity: scratchCount)
        defer { scratch.deallocate() }
        return ys.weights.withUnsafeBufferPointer { yw in
            xs.first.withUnsafeBufferPointer { first in
                var y = rows.lowerBound
                while y < rows.upperBound {
                    let group = y..<min(rows.upperBound, y + 8)
                    for (r, row) in group.enumerated() {
                        let line = lines + r * lineLength, top = src + ys.first[row] * width
                        let weights = yw.baseAddress! + ys.offset[row]
                        if !SIMDResample.vertical(
                            rows: top, stride: width, weights: weights, taps: ys.count[row], length: width, into: line)
                        {
                            vertical(top, taps: ys.count[row], weights: weights, into: line)
                        }
                    }
                    guard
                        SIMDResample.horizontal1Rows(
                            lines: group.map { UnsafePointer(lines + ($0 - y) * lineLength) },
                            length: width, first: first.baseAddress!, octWeights: octs.floats, taps: xs.maxCount,
                            outWidth: outWidth, into: group.map { dst + $0 * outWidth }, scratch: scratch)
                    else { return false }
                    y = group.upperBound
                }
                return true
            }
        }
    }

    /// The portable vertical pass: `line` = the `n` rows from `row` weighted by `w`.
    /// Taps two at a time: each pass over the row reads and writes it once for two source rows
    /// (the row traffic, not the arithmetic, bounds this loop).
    private func vertical(
        _ row: UnsafePointer<UInt8>, taps n: Int, weights w: UnsafePointer<Float>,
        into line: UnsafeMutablePointer<Float>
    ) {
        let rowLength = width * bands
        var k = 0
        if n % 2 == 1 {
            let w0 = w[0]
            for i in 0..<rowLength { line[i] = w0 * Float(row[i]) }
            k = 1
        } else {
            let (wa, wb) = (w[0], w[1])
            let next = row + rowLength
            for i in 0..<rowLength { line[i] = wa * Float(row[i]) + wb * Float(next[i]) }
            k = 2
        }
        while k < n {
            let a = row + k * rowLength, b = a + rowLength
            let (wa, wb) = (w[k], w[k + 1])
            for i in 0..<rowLength { line[i] += wa * Float(a[i]) + wb * Float(b[i]) }
            k += 2
        }
    }

    /// Clamped to 0...255 and rounded to the nearest (ties to even), without branches: adding
    /// 2^23 leaves the rounded integer in the low bits of the float (Swift's checked
    /// `Int32(Float)` costs two compares and branches per value, a fifth of the filter's time).
    @inline(__always)
    private static func byte(_ v: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: (min(max(v, 0), 255) + 8_388_608).bitPattern)
    }

    @inline(__always)
    private func horizontal3(
        _ line: UnsafeMutablePointer<Float>, _ out: UnsafeMutablePointer<UInt8>,
        _ w: UnsafePointer<Float>
    ) {
        let raw = UnsafeRawPointer(line)
        xs.first.withUnsafeBufferPointer { first in
            xs.count.withUnsafeBufferPointer { count in
                xs.offset.withUnsafeBufferPointer { offset in
                    var o = out
                    for x in 0..<outWidth {
                        var p = first[x] * 3 * MemoryLayout<Float>.stride
                        var q = w + offset[x]
                        // (r, g, b, next r): the fourth lane is read and ignored.
                        var total = SIMD4<Float>(repeating: 0)
                        for _ in 0..<count[x] {
                            total += raw.loadUnaligned(fromByteOffset: p, as: SIMD4<Float>.self) * q.pointee
                            p += 3 * MemoryLayout<Float>.stride; q += 1
                        }
                        o[0] = Self.byte(total[0])
                        o[1] = Self.byte(total[1])
                        o[2] = Self.byte(total[2])
                        o += 3
                    }
                }
            }
        }
    }

    private func horizontal(
        _ line: UnsafeMutablePointer<Float>, _ out: UnsafeMutablePointer<UInt8>,
        _ w: UnsafePointer<Float>
    ) {
        for x in 0..<outWidth {
            let n = xs.count[x], base = xs.first[x] * bands, w0 = xs.offset[x]
            for band in 0..<bands {
                var total: Float = 0
                for k in 0..<n { total += w[w0 + k] * line[base + k * bands + band] }
                out[x * bands + band] = Self.byte(total)
            }
        }
    }
}

/// `FilterTaps` weights in the layout of `SIMDResample.horizontal3`: for each pair of output
/// pixels and each of `maxCount` taps, 8 floats (the first pixel's weight x 4, the second's x 4),
/// zero after a pixel's own taps, 32-byte aligned. Read-only once made, shared by the workers.
final class PairWeights: @unchecked Sendable {
    let floats: UnsafeMutablePointer<Float>

    init(_ taps: FilterTaps) {
        let pairs = (taps.count.count + 1) / 2, n = taps.maxCount
        let total = pairs * n * 8
        floats = UnsafeMutableRawPointer.allocate(byteCount: max(1, total) * MemoryLayout<Float>.stride, alignment: 32)
            .bindMemory(to: Float.self, capacity: max(1, total))
        floats.initialize(repeating: 0, count: max(1, total))
        for x in taps.count.indices {
            let base = (x / 2) * n * 8 + (x % 2) * 4
            for k in 0..<taps.count[x] {
                let w = taps.weights[taps.offset[x] + k]
                for lane in 0..<4 { floats[base + k * 8 + lane] = w }
            }
        }
    }

    deinit { floats.deallocate() }
}

/// `FilterTaps` weights in the layout of `SIMDResample.horizontal1`: for each group of
/// `pixelsPerGroup` output pixels and each of `maxCount` taps, one float per pixel (its weight,
/// zero after its own taps and for pixels past the last), 32-byte aligned. Read-only once made,
/// shared by the workers.
final class LaneWeights: @unchecked Sendable {
    let floats: UnsafeMutablePointer<Float>

    init(_ taps: FilterTaps, pixelsPerGroup lanes: Int) {
        let groups = (taps.count.count + lanes - 1) / lanes, n = taps.maxCount
        let total = max(1, groups * n * lanes)
        floats = UnsafeMutableRawPointer.allocate(byteCount: total * MemoryLayout<Float>.stride, alignment: 32)
            .bindMemory(to: Float.self, capacity: total)
        floats.initialize(repeating: 0, count: total)
        for x in taps.count.indices {
            let base = (x / lanes) * n * lanes + x % lanes
            for k in 0..<taps.count[x] { floats[base + k * lanes] = taps.weights[taps.offset[x] + k] }
        }
    }

    deinit { floats.deallocate() }
}

/// Division of 32-bit numerators by a fixed divisor with one 64-bit multiply: `quotient(n)`
/// is exactly `n / d` for every `n` and `d` below 2^32. With `m` = ceil(2^64 / d) = 2^64 / d +
/// e / d (0 <= e < d), n * m / 2^64 = n / d + n e / (d 2^64), and n e < 2^64, so the excess
/// stays below 1 / d and never carries the quotient past the next integer.
struct ExactDivisor {
    let d: UInt32
    let m: UInt64

    init(_ d: UInt32) {
        precondition(d > 0)
        self.d = d
        m = d == 1 ? 0 : UInt64.max / UInt64(d) + 1  // ceil(2^64 / d); 1 needs no multiply
    }

    @inline(__always)
    func quotient(_ n: UInt32) -> UInt32 {
        d == 1 ? n : UInt32(truncatingIfNeeded: UInt64(n).multipliedFullWidth(by: m).high)
    }
}
