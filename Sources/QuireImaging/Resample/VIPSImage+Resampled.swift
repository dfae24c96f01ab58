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

extension VIPSImage {
    /// `resampled(toFit: box)` of this image, made from `previous`, the same rendition of an
    /// image that differs from this one only in the rows where `changed` is true: a copy of
    /// `previous` with only the rows those reach made again (`Resampler.redoRows`), byte for
    /// byte the whole resize. Nil where that does not apply (not 8-bit in memory, no shrink,
    /// block averaging, `previous` not of the fitted size), where the caller resizes whole.
    func resampled(toFit box: Int, from previous: VIPSImage, changed: [Bool]) throws -> VIPSImage? {
        guard format == .uchar, isInMemory, previous.format == .uchar, previous.isInMemory, changed.count == height,
            previous.bands == bands
        else { return nil }
        let size = Self.fittedSize(width: width, height: height, inside: box)
        guard (size.width, size.height) == (previous.width, previous.height), size != (width, height),
            Resampler.blockFactor(width, size.width) == 1, Resampler.blockFactor(height, size.height) == 1
        else { return nil }
        let out = try VIPSFrame(width: size.width, height: size.height, bands: bands)
        try previous.withPixels { old in _ = out.pixels.initialize(fromContentsOf: old) }
        let redone = try withPixels { src in
            Resampler.redoRows(
                src, width: width, height: height, bands: bands, into: out.pixels, outWidth: size.width,
                outHeight: size.height, changed: changed)
        }
        guard let redone else { return nil }
        StageProfile.note("cleaned preview: \(redone) of \(size.height) rows made again")
        return out.image
    }
}
