import VipsBridge

extension VIPSImage {
    /// This image with its pixels in memory: itself when they already are, else computed once
    /// into a new buffer. libvips evaluates lazily, so a deskewed, turned or cropped view read
    /// by several steps (orientation, clean-up, preview, page encode) would re-run every
    /// operation under it for each of them: a real scan paid its deskew four times (0.3 s of
    /// preview resize and 0.19 s of page encode a page, docs/benchmarks.md). In memory, the
    /// preview is made by `Resampler` and the page encoded by libjpeg in the calling thread.
    func inMemory() throws -> VIPSImage {
        isInMemory ? self : try materialized()
    }
}
