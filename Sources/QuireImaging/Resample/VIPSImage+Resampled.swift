import VipsBridge

extension VIPSImage {
    /// Fits inside a `box` x `box` square (never enlarging, the size `fitted(inside:)` gives)
    /// with `Resampler`, into a new frame; nil when the pixels are not 8-bit or not already in
    /// memory, where the caller streams through libvips instead (`fitted(inside:)`), because
    /// reading a pipeline's pixels here would first copy the whole image.
    /// - Parameter parallel: split the rows across the cores (see `Resampler.resize`).
    func resampled(toFit box: Int, parallel: Bool = false) throws -> VIPSImage? {
        guard format == .uchar, isInMemory else { return nil }
        let size = Self.fittedSize(width: width, height: height, inside: box)
        return try resampled(toWidth: size.width, height: size.height, parallel: parallel)
    }

    /// Exactly `width` x `height` (a shrink in both directions) with `Resampler`, into a new
    /// frame; the image must be 8-bit and in memory (a decoded JPEG, a frame).
    /// - Parameters:
    ///   - span: the picture's extent in pixels when the last column or row is only partly
    ///     picture (see `Resampler.resize`).
    ///   - parallel: split the rows across the cores.
    func resampled(
        toWidth outWidth: Int, height outHeight: Int, span: (width: Double, height: Double)? = nil,
        parallel: Bool = false
    ) throws -> VIPSImage {
        precondition(format == .uchar && isInMemory, "resampled(toWidth:height:) needs 8-bit pixels in memory")
        if (outWidth, outHeight) == (width, height) && span == nil { return self }
        let out = try VIPSFrame(width: outWidth, height: outHeight, bands: bands)
        try withPixels { src in
            Resampler.resize(
                src, width: width, height: height, bands: bands, into: out.pixels,
                outWidth: outWidth, outHeight: outHeight, span: span, parallel: parallel)
        }
        return out.image
    }
}
