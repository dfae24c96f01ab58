internal import CVipsShim

/// The AVX2 inner loop of the YCbCr-plane warp (`cvips_warp_planar_pairs`): 16 page pixels at a
/// time with gathered taps, the same arithmetic and bytes as QuireImaging's Swift loop, which
/// runs instead where the CPU has no AVX2 (and at the planes' edges).
///
/// Why C: Swift compiles for the x86-64 baseline (SSE2: no gathers, no 32-bit lane multiply),
/// and the warp was the largest single cost of a page (51 of about 230 CPU ms).
public enum SIMDWarp {
    /// Whether `planarPairs` runs here (checked once).
    public static let planarAvailable: Bool = cvips_warp_planar_available() == 1

    /// Makes the first multiple of 8 of `count` pixels of a run (see `cvips_warp_planar_pairs`
    /// for the contract: every 4-byte tap inside the planes) and returns how many it made.
    public static func planarPairs(
        luma: UnsafePointer<UInt8>, lumaStride: Int, cb: UnsafePointer<UInt8>,
        cr: UnsafePointer<UInt8>, chromaStride: Int, horizontalShift: Int, verticalShift: Int,
        u: Int, v: Int, du: Int, dv: Int, count: Int, out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        Int(
            cvips_warp_planar_pairs(
                luma, lumaStride, cb, cr, chromaStride, Int32(horizontalShift), Int32(verticalShift),
                Int32(truncatingIfNeeded: u), Int32(truncatingIfNeeded: v),
                Int32(truncatingIfNeeded: du), Int32(truncatingIfNeeded: dv), Int32(count), out))
    }
}
