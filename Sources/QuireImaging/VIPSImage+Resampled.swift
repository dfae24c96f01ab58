import VipsBridge

extension VIPSImage {
    /// Fits inside a `box` x `box` square (never enlarging, the size `fitted(inside:)` gives)
    /// with `Resampler`, into a new frame; nil when the pixels are not 8-bit or not already in
    /// memory, where the caller streams through libvips instead (`fitted(inside:)`), because
    /// reading a pipeline's pixels here would first copy the whole image.
    /// - Parameter parallel: split the rows across the cores (see `Resampler.resize`).
    func resampled(toFit box: Int, parallel: Bool = false) throws -> VIPSImage? {
        guard format == .uchar, isInMemory else { return nil }
        if width <= box && height <= box { return self }
        let size = Self.fittedSize(width: width, height: height, inside: box)
        let out = try VIPSFrame(width: size.width, height: size.height, bands: bands)
        try withPixels { src in
            Resampler.resize(src, width: width, height: height, bands: bands, into: out.pixels,
                             outWidth: size.width, outHeight: size.height, parallel: parallel)
        }
        return out.image
    }
}
