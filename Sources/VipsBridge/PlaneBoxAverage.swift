internal import CVipsShim

/// The box averages of YCbCr planes behind QuireImaging's detection copy
/// (`cvips_box_rgb_planes`): the same integer arithmetic as its Swift loop, so both give the
/// same bytes.
///
/// Why C: the Swift loop spent its time on per-value overhead (range checks, 64-bit index
/// arithmetic) around a few adds per value; C's block sums for the usual factors (4 and 2)
/// and its 32-bit conversion vectorise (the detection-copy stage: 12.6 -> 9.9 CPU ms a page).
public enum PlaneBoxAverage {
    /// Writes `outWidth` x `outHeight` RGB pixels to `out`, each the mean of a `factor` x
    /// `factor` luma block and the chroma under it, converted to RGB. Returns false (nothing
    /// written) when the sums' memory cannot be had.
    public static func rgb(
        luma: UnsafePointer<UInt8>, lumaStride: Int, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>,
        chromaStride: Int, chromaWidth: Int, chromaHeight: Int, horizontalShift: Int, verticalShift: Int,
        factor: Int, outWidth: Int, outHeight: Int, into out: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        cvips_box_rgb_planes(
            luma, lumaStride, cb, cr, chromaStride, Int32(chromaWidth), Int32(chromaHeight),
            Int32(horizontalShift), Int32(verticalShift), Int32(factor),
            Int32(outWidth), Int32(outHeight), out) == 0
    }
}

/// `PlaneBoxAverage.rgb` of a whole frame's planes, made while they were decoded
/// (`YCbCrFrame.averages`): `width` x `height` RGB pixels, each the mean of a `factor` x
/// `factor` block.
///
/// Why during the decode: each band of rows is averaged as soon as it is decoded, while it is
/// still in cache, instead of in a second pass over the whole frame; the same sums in the same
/// order, so the same bytes.
public struct PlaneBoxAverages: Sendable {
    public let factor: Int
    public let width: Int
    public let height: Int
    /// RGB, rows of `width * 3` bytes.
    public let pixels: [UInt8]
}
