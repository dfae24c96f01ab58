internal import CVips
internal import CVipsShim

extension VIPSImage {
    /// Computes the pipeline and returns its pixels, row-major and band-interleaved, in the
    /// image's own band format (8-bit for everything Quire writes).
    public func pixelBytes() throws -> [UInt8] {
        try VIPSRuntime.start()
        var length = 0
        guard let raw = cvips_write_to_memory(pointer, &length) else {
            throw VIPSError(operation: "write_to_memory", message: VIPSRuntime.takeErrorMessage())
        }
        defer { cvips_free(raw) }
        return Array(UnsafeRawBufferPointer(start: raw, count: length))
    }

    /// An 8-bit image from interleaved pixels (`width * height * bands` bytes), sRGB for three
    /// bands or more, else grey, copied into a new frame: in memory (`isInMemory`), so the
    /// steps after it read the pixels directly. A libvips copy that only set the
    /// interpretation was a pipeline: a cleaned scan's preview was then made by libvips and
    /// its page encode ran the copy again (docs/benchmarks.md, "The cleaned page in memory").
    public static func fromPixels(_ bytes: [UInt8], width: Int, height: Int, bands: Int) throws -> VIPSImage {
        guard width > 0, height > 0, bands > 0, bytes.count == width * height * bands else {
            throw VIPSError(
                operation: "new_from_memory",
                message: "\(bytes.count) bytes do not make a \(width)x\(height)x\(bands) image")
        }
        let frame = try VIPSFrame(width: width, height: height, bands: bands)
        _ = frame.pixels.initialize(from: bytes)
        return frame.image
    }

    /// A black (zero) image.
    public static func black(width: Int, height: Int, bands: Int = 1) throws -> VIPSImage {
        try make("black") { cvips_black(Int32(width), Int32(height), Int32(bands), $0) }
    }

    /// The mean of all pixel values over all bands.
    public func average() throws -> Double {
        var value = 0.0
        try Self.check("avg", cvips_average(pointer, &value))
        return value
    }
}

extension VIPSImage {
    /// Whether this image's pixels come from a loader whose read of them failed (the loader
    /// marks its image when it does; see `cvips_watch_loader`). Renders into memory check
    /// this and fail, even when libvips lost the failure on its worker thread.
    var loaderFailedToRead: Bool { cvips_pixels_failed(pointer) != 0 }

    /// Marks this image as its loader does when a read of its pixels fails (tests of the
    /// renders' check).
    func markLoaderFailedToRead() { cvips_mark_pixels_failed(pointer) }
}
