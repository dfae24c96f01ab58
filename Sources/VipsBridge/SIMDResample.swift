internal import CVipsShim

/// The AVX2 passes of QuireImaging's Lanczos3 `Resampler` for one output row
/// (`cvips_resample_vertical`, `cvips_resample_horizontal3`, `cvips_resample_horizontal1`): the same float operations in the
/// same order as its Swift loops, so both give the same bytes; the Swift loops run instead
/// where the CPU has no AVX2.
///
/// Why C: Swift compiles for the x86-64 baseline (SSE2), where the vertical pass converts 4
/// bytes a step and writes its row back once per pair of taps, and the horizontal pass spends
/// half its time clamping lanes one by one; the preview resize was a page's largest cost after
/// decoding (35 of about 230 CPU ms).
public enum SIMDResample {
    /// Whether the passes run here (checked once).
    public static let available: Bool = cvips_resample_available() == 1

    /// `line[i]` = the `taps` rows starting at `rows`, `stride` bytes apart, weighted by
    /// `weights`, for i in 0 ..< length. Returns false (nothing done) without AVX2.
    public static func vertical(
        rows: UnsafePointer<UInt8>, stride: Int, weights: UnsafePointer<Float>, taps: Int,
        length: Int, into line: UnsafeMutablePointer<Float>
    ) -> Bool {
        cvips_resample_vertical(rows, stride, weights, Int32(taps), Int32(length), line) == 1
    }

    /// One 3-band output row from a filtered `line`: pixel x sums `taps` taps from pixel
    /// `first[x]`, weighted from `pairWeights` (see `cvips_resample_horizontal3` for the layout:
    /// 8 floats per pair of pixels and tap, 32-byte aligned). `line` must hold zeros for
    /// 3 x taps + 4 floats past its last pixel. Returns false (nothing done) without AVX2.
    public static func horizontal3(
        line: UnsafePointer<Float>, first: UnsafePointer<Int>, pairWeights: UnsafePointer<Float>,
        taps: Int, outWidth: Int, into out: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        cvips_resample_horizontal3(line, first, pairWeights, Int32(taps), Int32(outWidth), out) == 1
    }

    /// One 1-band (grey) output row from a filtered `line`: pixel x sums `taps` taps from
    /// `first[x]`, weighted from `octWeights` (8 floats per group of eight pixels and tap, see
    /// `cvips_resample_horizontal1`, 32-byte aligned). `line` must hold zeros for `taps` floats
    /// past its last pixel. Returns false (nothing done) without AVX2.
    public static func horizontal1(
        line: UnsafePointer<Float>, first: UnsafePointer<Int>, octWeights: UnsafePointer<Float>,
        taps: Int, outWidth: Int, into out: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        cvips_resample_horizontal1(line, first, octWeights, Int32(taps), Int32(outWidth), out) == 1
    }

    /// `horizontal1` of up to eight grey rows at once, `lines[r]` into `outs[r]` (the same
    /// bytes): a tap is one load for all the rows instead of a gather per row, the preview
    /// resize's largest cost on grey scans. Each line holds `length` floats then zeros up to
    /// `length + taps + 7`; `scratch` holds `(length + taps + 8) * 8` floats, 32-byte aligned.
    /// Returns false (nothing done) without AVX2.
    public static func horizontal1Rows(
        lines: [UnsafePointer<Float>], length: Int, first: UnsafePointer<Int>, octWeights: UnsafePointer<Float>,
        taps: Int, outWidth: Int, into outs: [UnsafeMutablePointer<UInt8>], scratch: UnsafeMutablePointer<Float>
    ) -> Bool {
        precondition(lines.count == outs.count && (1...8).contains(lines.count))
        let lineList: [UnsafePointer<Float>?] = lines
        let outList: [UnsafeMutablePointer<UInt8>?] = outs
        return cvips_resample_horizontal1_rows(
            lineList, Int32(lines.count), Int32(length), first, octWeights, Int32(taps), Int32(outWidth), outList,
            scratch) == 1
    }
}
