import Dispatch
import VipsBridge

/// Straightens a page: maps a quad of the source onto an upright rectangle.
///
/// A dedicated loop rather than libvips's `vips_mapim` (which needs a float index image and
/// costs several times more; figures in docs/benchmarks.md#figures-behind-design-choices): each
/// output row takes the homography's exact position every 16 pixels (one division) and steps
/// linearly in 16.16 fixed point between them, samples bilinearly in 8-bit fixed point, and
/// rows are split across the cores when the page has them to itself (one page per core in a
/// batch warps in its own thread). Only the source pixels and the output live in memory.
public enum PerspectiveWarp {
    /// Warps the region `quad` of `image` (TL, TR, BR, BL in continuous coordinates: the image
    /// spans 0...width, pixel centres at +0.5) onto an upright `width` x `height` image whose
    /// outer corners are the quad's corners. Samples outside the source repeat its edge pixels.
    /// - Throws: `VIPSError` when the source cannot be computed, or the quad is degenerate.
    /// - Complexity: O(width x height x bands), parallel over rows when libvips has several threads a page.
    static func warp(_ image: VIPSImage, quad: Quad, width: Int, height: Int) throws -> VIPSImage {
        var source = image
        if source.format != .uchar { source = try source.castToUChar() }
        let bytes = try source.pixelBytes()
        let result = try warp(
            pixels: bytes, width: source.width, height: source.height, bands: source.bands,
            quad: quad, outputWidth: width, outputHeight: height)
        return try VIPSImage.fromPixels(result, width: width, height: height, bands: source.bands)
    }

    /// The pixel loop on interleaved 8-bit buffers.
    public static func warp(
        pixels: [UInt8], width sw: Int, height sh: Int, bands: Int,
        quad: Quad, outputWidth ow: Int, outputHeight oh: Int
    ) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: max(0, ow) * max(0, oh) * max(0, bands))
        try pixels.withUnsafeBufferPointer { src in
            try out.withUnsafeMutableBufferPointer { dst in
                try warp(
                    pixels: src, width: sw, height: sh, bands: bands, quad: quad,
                    outputWidth: ow, outputHeight: oh, into: dst)
            }
        }
        return out
    }

    /// The same loop writing into `dst` (`outputWidth * outputHeight * bands` bytes), e.g. the
    /// buffer of a new libvips image (`VIPSFrame`), so the page is not copied again.
    ///
    /// With `releasingRows`, the output is produced in bands, one after the other, and after
    /// each band the source rows no later band reads are passed to it (each row once), so the
    /// caller can hand them back to the kernel while the output grows: the source and the
    /// output then never both sit whole in memory. Bands run along output rows or columns,
    /// whichever sweeps the source from one end to the other (columns for a capture stored
    /// sideways, EXIF orientations 6 and 8).
    public static func warp(
        pixels: UnsafeBufferPointer<UInt8>, width sw: Int, height sh: Int, bands: Int,
        quad: Quad, outputWidth ow: Int, outputHeight oh: Int,
        into dst: UnsafeMutableBufferPointer<UInt8>,
        releasingRows release: ((Range<Int>) -> Void)? = nil
    ) throws {
        guard ow > 0, oh > 0, sw > 0, sh > 0, bands > 0, pixels.count >= sw * sh * bands,
            dst.count >= ow * oh * bands,
            quad.isFinite, quad.isConvex, quad.signedArea > 0,
            let h = Homography(rectWidth: Double(ow), height: Double(oh), to: quad)
        else {
            throw VIPSError(operation: "warp", message: "cannot map \(quad) onto \(ow)x\(oh)")
        }
        let job = WarpJob(
            m: h.m, src: pixels.baseAddress!, dst: dst.baseAddress!, sw: sw, sh: sh, bands: bands, ow: ow, oh: oh)
        run(job, homography: h, releasingRows: release)
    }

    /// Warps the region `quad` of an image held as YCbCr planes onto an upright RGB `outputWidth`
    /// x `outputHeight` image in `dst` (3 bytes a pixel), converting each output pixel from
    /// its bilinear luma and chroma samples: the rest of the photo is never made RGB. The same
    /// geometry, bands and row release as the interleaved warp.
    /// - Parameter vectorized: use the AVX2 loop where the CPU has it (the same bytes; false
    ///   runs the portable loop alone, for comparing the two).
    public static func warp(
        planes: PlanarPixels, quad: Quad, outputWidth ow: Int, outputHeight oh: Int,
        into dst: UnsafeMutableBufferPointer<UInt8>,
        releasingRows release: ((Range<Int>) -> Void)? = nil, vectorized: Bool = true
    ) throws {
        guard ow > 0, oh > 0, planes.width > 1, planes.height > 1, dst.count >= ow * oh * 3,
            quad.isFinite, quad.isConvex, quad.signedArea > 0,
            let h = Homography(rectWidth: Double(ow), height: Double(oh), to: quad)
        else {
            throw VIPSError(operation: "warp", message: "cannot map \(quad) onto \(ow)x\(oh)")
        }
        run(
            PlanarWarpJob(m: h.m, planes: planes, dst: dst.baseAddress!, ow: ow, oh: oh, vectorized: vectorized),
            homography: h, releasingRows: release)
    }

    /// Runs a warp's tiles on the cores: all at once, or band after band releasing the source
    /// rows no later band reads.
    private static func run<Job: WarpKernel>(
        _ job: Job, homography h: Homography,
        releasingRows release: ((Range<Int>) -> Void)?
    ) {
        let (ow, oh, sh) = (job.ow, job.oh, job.sh)
        guard let release else {
            let rowsPerChunk = max(8, oh / 64)
            inChunks(iterations: (oh + rowsPerChunk - 1) / rowsPerChunk) { chunk in
                job.tiles(rows: (chunk * rowsPerChunk)..<min(oh, (chunk + 1) * rowsPerChunk), columns: 0..<ow)
            }
            return
        }
        let plan = BandPlan(job: job, homography: h)
        var keptTop = 0, keptBottom = sh  // source rows not yet released: keptTop..<keptBottom
        for band in plan.bands.indices {
            let r = plan.bands[band]
            if plan.alongRows {
                let rowsPerChunk = max(4, (r.upperBound - r.lowerBound + 3) / 4)
                inChunks(iterations: (r.count + rowsPerChunk - 1) / rowsPerChunk) { chunk in
                    let y0 = r.lowerBound + chunk * rowsPerChunk
                    job.tiles(rows: y0..<min(r.upperBound, y0 + rowsPerChunk), columns: 0..<ow)
                }
            } else {
                let rowsPerChunk = max(32, oh / 8)
                inChunks(iterations: (oh + rowsPerChunk - 1) / rowsPerChunk) { chunk in
                    job.tiles(rows: (chunk * rowsPerChunk)..<min(oh, (chunk + 1) * rowsPerChunk), columns: r)
                }
            }
            // Rows outside what the remaining bands read are done with.
            let keep = plan.needed(after: band)
            let top = min(max(keptTop, keep.lowerBound), keptBottom)
            let bottom = max(min(keptBottom, keep.upperBound), top)
            if top > keptTop { release(keptTop..<top) }
            if bottom < keptBottom { release(bottom..<keptBottom) }
            (keptTop, keptBottom) = (top, bottom)
        }
    }
}

/// Runs `body` for each chunk: across the cores when a page has them to itself, else in the
/// calling thread (`ImagingRuntime.pageSplitsAcrossCores`).
private func inChunks(iterations: Int, _ body: @Sendable (Int) -> Void) {
    if ImagingRuntime.pageSplitsAcrossCores {
        DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
    } else {
        for i in 0..<iterations { body(i) }
    }
}

/// What the band driver needs of a warp: its sizes and a way to make output tiles.
protocol WarpKernel: Sendable {
    /// Output size and source height (rows are what gets released).
    var ow: Int { get }
    var oh: Int { get }
    var sh: Int { get }
    /// Bytes one source row holds (all planes), and one output pixel.
    var sourceRowBytes: Int { get }
    var outputPixelBytes: Int { get }
    /// Output row `y`, columns `from..<to`.
    func span(y: Int, from xStart: Int, to xEnd: Int)
}

extension WarpKernel {
    /// Output `rows` x `columns` in tiles 64 columns wide: a whole output row of a tilted page
    /// walks diagonally through hundreds of source rows (about 80 KB of cache lines for a
    /// 1500 px row at 25 degrees), and the next row wants nearly the same lines again; a
    /// 64-column tile's source stays within the first-level cache (warp stage 57-60 -> 52-58
    /// CPU ms a page on 10 bench captures: the loop is bound more by its dependent loads than
    /// by misses). Same output, byte for byte (spans sit on the row's 16-pixel grid).
    func tiles(rows: Range<Int>, columns: Range<Int>) {
        var x = columns.lowerBound
        while x < columns.upperBound {
            let x1 = min(columns.upperBound, (x & ~63) + 64)
            for y in rows { span(y: y, from: x, to: x1) }
            x = x1
        }
    }
}

/// One output row's source positions: the homography walked in spans of 16 pixels on the
/// row's own grid (ends at multiples of 16), exact at the ends and linear between (the
/// projective curvature over 16 px is far below 1/100 px for camera perspective). A row made
/// in pieces (column bands, tiles) steps through the same spans from the same ends, so it is
/// the same to the byte as a row made whole. Shared by the interleaved and the plane warps.
struct SpanWalk {
    /// One span's part inside the requested columns: output columns `x..<x1`; the source
    /// position of column x is (u, v) and each column adds (du, dv), all 16.16 fixed point;
    /// (ua, va) and (ub, vb) are the span's exact ends, which bound every position in it.
    struct Step {
        let x: Int, x1: Int
        let u: Int, v: Int, du: Int, dv: Int
        let ua: Int, va: Int, ub: Int, vb: Int
    }

    private let m0: Double, m3: Double, m6: Double
    private let bu: Double, bv: Double, bw: Double

    /// Row `y` of an output mapped by the 3x3 homography `m` (output -> source).
    @inline(__always)
    init(_ m: [Double], y: Int) {
        // Output pixel centres (x + 0.5, y + 0.5); source samples at u - 0.5.
        let fy = Double(y) + 0.5
        (m0, m3, m6) = (m[0], m[3], m[6])
        (bu, bv, bw) = (m[1] * fy + m[2], m[4] * fy + m[5], m[7] * fy + m[8])
    }

    /// Exact source position (16.16 fixed point) of output column xx.
    @inline(__always)
    func exact(_ xx: Int) -> (Int, Int) {
        let fx = Double(xx) + 0.5
        let inv = 1 / (m6 * fx + bw)
        return (Int(((m0 * fx + bu) * inv - 0.5) * 65536), Int(((m3 * fx + bv) * inv - 0.5) * 65536))
    }

    /// Calls `body` for the spans covering columns `xStart..<xEnd` of a row `width` wide.
    @inline(__always)
    func steps(from xStart: Int, to xEnd: Int, width: Int, _ body: (Step) -> Void) {
        var x = xStart
        var spanStart = xStart & ~15
        var (ua, va) = exact(spanStart)
        while x < xEnd {
            let spanEnd = min(width, spanStart + 16)
            let (ub, vb) = exact(spanEnd)
            // A whole span divides by the constant 16 (a shift, where a 64-bit division by a
            // variable was a fifth of the walk's time); only a row's last span is shorter.
            let length = spanEnd - spanStart
            let (du, dv) = length == 16 ? ((ub - ua) / 16, (vb - va) / 16) : ((ub - ua) / length, (vb - va) / length)
            let x1 = min(xEnd, spanEnd)
            body(
                Step(
                    x: x, x1: x1, u: ua + du * (x - spanStart), v: va + dv * (x - spanStart), du: du, dv: dv,
                    ua: ua, va: va, ub: ub, vb: vb))
            x = x1
            spanStart = spanEnd
            (ua, va) = (ub, vb)
        }
    }
}

/// One warp's inputs, shared read-only by the workers; each worker writes only its own output
/// pixels, so sharing the pointers is safe.
private struct WarpJob: WarpKernel, @unchecked Sendable {
    let m: [Double]
    let src: UnsafePointer<UInt8>
    let dst: UnsafeMutablePointer<UInt8>
    let sw: Int, sh: Int, bands: Int, ow: Int, oh: Int
    var sourceRowBytes: Int { sw * bands }
    var outputPixelBytes: Int { bands }

    /// Output row `y`, columns `xStart..<xEnd`.
    @inline(__always)
    func span(y: Int, from xStart: Int, to xEnd: Int) {
        let (src, dst, bands) = (src, dst, bands)
        let rowStride = sw * bands
        let maxX = sw - 1, maxY = sh - 1
        var o = (y * ow + xStart) * bands
        SpanWalk(m, y: y).steps(from: xStart, to: xEnd, width: ow) { s in
            var (u, v) = (s.u, s.v)
            let (du, dv) = (s.du, s.dv)
            // Samples between the span's ends lie between their positions: when
            // both ends are inside, every bilinear neighbour is, and the loop
            // needs no clamping (most of a page).
            if bands == 3, min(s.ua, s.ub) >= 0, min(s.va, s.vb) >= 0,
                max(s.ua, s.ub) >> 16 < maxX, max(s.va, s.vb) >> 16 < maxY
            {
                // Wrapping arithmetic: the bounds above make overflow impossible,
                // and without trap checks the loop keeps its values in registers.
                var n = s.x1 - s.x
                var out = dst + o
                let stride = rowStride
                while n > 0 {
                    let ax = Int32(truncatingIfNeeded: (u &>> 8) & 255)
                    let ay = Int32(truncatingIfNeeded: (v &>> 8) & 255)
                    let p = src + ((v &>> 16) &* stride &+ (u &>> 16) &* 3)
                    let q = p + stride
                    u &+= du; v &+= dv
                    // Horizontal blends (8.8 fixed point) on both rows, then vertical.
                    let r0 = Int32(p[0]) &<< 8 &+ (Int32(p[3]) &- Int32(p[0])) &* ax
                    let r1 = Int32(q[0]) &<< 8 &+ (Int32(q[3]) &- Int32(q[0])) &* ax
                    let g0 = Int32(p[1]) &<< 8 &+ (Int32(p[4]) &- Int32(p[1])) &* ax
                    let g1 = Int32(q[1]) &<< 8 &+ (Int32(q[4]) &- Int32(q[1])) &* ax
                    let b0 = Int32(p[2]) &<< 8 &+ (Int32(p[5]) &- Int32(p[2])) &* ax
                    let b1 = Int32(q[2]) &<< 8 &+ (Int32(q[5]) &- Int32(q[2])) &* ax
                    out[0] = UInt8(truncatingIfNeeded: (r0 &<< 8 &+ (r1 &- r0) &* ay &+ 32768) &>> 16)
                    out[1] = UInt8(truncatingIfNeeded: (g0 &<< 8 &+ (g1 &- g0) &* ay &+ 32768) &>> 16)
                    out[2] = UInt8(truncatingIfNeeded: (b0 &<< 8 &+ (b1 &- b0) &* ay &+ 32768) &>> 16)
                    out += 3
                    n &-= 1
                }
                o += (s.x1 - s.x) * 3
                return
            }
            for _ in s.x..<s.x1 {
                var fx = u >> 8, fyy = v >> 8
                u += du; v += dv
                fx = min(max(fx, 0), maxX << 8)
                fyy = min(max(fyy, 0), maxY << 8)
                let x0 = fx >> 8, yy0 = fyy >> 8
                let ax = fx & 255, ay = fyy & 255
                let dx = x0 < maxX ? bands : 0, dy = yy0 < maxY ? rowStride : 0
                let p00 = src + yy0 * rowStride + x0 * bands
                let w00 = (256 - ax) * (256 - ay), w10 = ax * (256 - ay)
                let w01 = (256 - ax) * ay, w11 = ax * ay
                if bands == 3 {
                    let a = Int(p00[0]) * w00 + Int(p00[dx]) * w10 + Int(p00[dy]) * w01 + Int(p00[dx + dy]) * w11
                    let b =
                        Int(p00[1]) * w00 + Int(p00[dx + 1]) * w10 + Int(p00[dy + 1]) * w01 + Int(p00[dx + dy + 1])
                        * w11
                    let c =
                        Int(p00[2]) * w00 + Int(p00[dx + 2]) * w10 + Int(p00[dy + 2]) * w01 + Int(p00[dx + dy + 2])
                        * w11
                    dst[o] = UInt8(truncatingIfNeeded: (a + 32768) >> 16)
                    dst[o + 1] = UInt8(truncatingIfNeeded: (b + 32768) >> 16)
                    dst[o + 2] = UInt8(truncatingIfNeeded: (c + 32768) >> 16)
                } else {
                    for b in 0..<bands {
                        let v =
                            Int(p00[b]) * w00 + Int(p00[dx + b]) * w10 + Int(p00[dy + b]) * w01
                            + Int(p00[dx + dy + b]) * w11
                        dst[o + b] = UInt8(truncatingIfNeeded: (v + 32768) >> 16)
                    }
                }
                o += bands
            }
        }
    }
}

/// The order a banded warp produces its output in, and which source rows each band reads.
private struct BandPlan {
    /// Output rows (`alongRows`) or columns of each band, in the order they are produced.
    var bands: [Range<Int>] = []
    var alongRows = true
    /// Source rows the bands from index i on read: suffix bounds.
    private var fromLow: [Int] = [], fromHigh: [Int] = []

    init<Job: WarpKernel>(job: Job, homography h: Homography) {
        let (ow, oh, sh) = (job.ow, job.oh, job.sh)
        /// Source rows a band of output reads: the extreme rows of its rectangle's image (a
        /// convex quad, extremes at corners) widened by a row for the bilinear taps.
        func rows(_ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int) -> (Int, Int) {
            let ys = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)].compactMap {
                h.apply(Point(x: Double($0.0), y: Double($0.1)))?.y
            }
            // Clamped before the conversion: a row far off (or not finite) must not trap in Int().
            guard ys.count == 4, ys.allSatisfy(\.isFinite) else { return (0, sh) }
            let low = min(max((ys.min()! - 1.5).rounded(.down), 0), Double(sh))
            let high = min(max((ys.max()! + 1.5).rounded(.up), 0), Double(sh))
            return (Int(low), Int(high))
        }
        func plan(alongRows: Bool) -> (bands: [Range<Int>], low: [Int], high: [Int], peak: Double) {
            let extent = alongRows ? oh : ow
            let step = max(16, (extent + 31) / 32)
            let bands = stride(from: 0, to: extent, by: step).map { $0..<min(extent, $0 + step) }
            let reads = bands.map {
                alongRows ? rows(0, ow, $0.lowerBound, $0.upperBound) : rows($0.lowerBound, $0.upperBound, 0, oh)
            }
            var low = Array(repeating: sh, count: bands.count + 1), high = Array(repeating: 0, count: bands.count + 1)
            for i in stride(from: bands.count - 1, through: 0, by: -1) {
                low[i] = min(low[i + 1], reads[i].0)
                high[i] = max(high[i + 1], reads[i].1)
            }
            // Memory while band i is made: the source rows still held plus the output so far.
            let sourceRow = Double(job.sourceRowBytes), output = Double(ow * oh * job.outputPixelBytes)
            var peak = 0.0
            for i in bands.indices {
                let held = Double(max(0, high[i] - low[i])) * sourceRow
                let made = output * Double(i + 1) / Double(bands.count)
                peak = max(peak, held + made)
            }
            return (bands, low, high, peak)
        }
        let byRows = plan(alongRows: true), byColumns = plan(alongRows: false)
        let chosen = byRows.peak <= byColumns.peak ? byRows : byColumns
        alongRows = byRows.peak <= byColumns.peak
        bands = chosen.bands
        fromLow = chosen.low
        fromHigh = chosen.high
    }

    /// Source rows the bands after `band` still read (empty at the end).
    func needed(after band: Int) -> Range<Int> {
        let lo = fromLow[band + 1], hi = fromHigh[band + 1]
        return lo < hi ? lo..<hi : lo..<lo
    }
}
