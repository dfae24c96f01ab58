internal import CVips
internal import CVipsShim

/// A decoded 8-bit image whose pixels Quire reads and writes in place: one interleaved buffer
/// in a memory mapping of its own, wrapped (not copied) by a libvips image.
///
/// Why: a page is decoded once into a frame, and everything that needs full-size pixels
/// (the detection copy, corner refinement, the perspective warp) reads that buffer directly
/// while libvips can still use the same pixels (`image`) for the scan and uncorrected paths.
/// Rows that are no longer needed (outside the page) can be handed back to the kernel with
/// `releaseRows`, so a frame costs only the rows it still holds.
///
/// The pixels live as long as `image` does (libvips unmaps them when the last reference to
/// the image, from Swift or from a pipeline built on it, goes). Not for concurrent writers.
public final class VIPSFrame: @unchecked Sendable {
    /// The frame as a libvips image (8-bit sRGB, or grey for one or two bands).
    public let image: VIPSImage
    public let width: Int
    public let height: Int
    public let bands: Int
    private let base: UnsafeMutablePointer<UInt8>

    /// An uninitialised frame of the given size.
    /// - Throws: `VIPSError` for an empty size or when the memory cannot be mapped.
    public init(width: Int, height: Int, bands: Int) throws {
        var data: UnsafeMutableRawPointer? = nil
        image = try VIPSImage.make("new_frame") {
            cvips_new_frame(Int32(width), Int32(height), Int32(bands), &data, $0)
        }
        guard let data else { throw VIPSError(operation: "new_frame", message: "no buffer") }
        base = data.assumingMemoryBound(to: UInt8.self)
        self.width = width
        self.height = height
        self.bands = bands
    }

    /// Computes an 8-bit image (a loader pipeline, typically streaming) straight into a new frame.
    /// - Throws: `VIPSError` when the image is not 8-bit or its pixels cannot be computed
    ///   (a corrupt or truncated file).
    public convenience init(rendering source: VIPSImage) throws {
        guard source.format == .uchar else {
            throw VIPSError(operation: "frame", message: "the image is not 8-bit (cast it first)")
        }
        try self.init(width: source.width, height: source.height, bands: source.bands)
        try VIPSImage.check("write_into", cvips_write_into(source.pointer, base, byteCount))
    }

    /// A JPEG file decoded at full size straight into a new frame by libjpeg (the pixels
    /// libvips's loader gives, in about two thirds of its time; see `cvips_jpeg_decode_into`).
    /// - Returns: nil when the file is not a `width` x `height` JPEG of `bands` bands that
    ///   decodes as it is (CMYK, an ICC profile to transform): load it with libvips instead.
    /// - Throws: `VIPSError` when the file cannot be decoded (truncation included).
    public static func decodingJPEG(file path: String, width: Int, height: Int, bands: Int) throws -> VIPSFrame? {
        let frame = try VIPSFrame(width: width, height: height, bands: bands)
        let status = cvips_jpeg_decode_into(path, frame.base, Int32(width), Int32(height), Int32(bands))
        if status == 1 { return nil }
        try VIPSImage.check("jpegload", status)
        return frame
    }

    /// A PNG file decoded at full size straight into a new frame by libpng (the pixels
    /// libvips's loader gives, without its copies and its worker thread; see
    /// `cvips_png_decode_into`).
    /// - Returns: nil when the file is not a `width` x `height` PNG of `bands` 8-bit bands
    ///   without transparency or an ICC profile: load it with libvips instead.
    /// - Throws: `VIPSError` when libpng reports an error or a warning (a truncated or damaged
    ///   file): load it with libvips, which decides whether it is readable and words the error.
    public static func decodingPNG(file path: String, width: Int, height: Int, bands: Int) throws -> VIPSFrame? {
        let frame = try VIPSFrame(width: width, height: height, bands: bands)
        let status = cvips_png_decode_into(path, frame.base, Int32(width), Int32(height), Int32(bands))
        if status == 1 { return nil }
        try VIPSImage.check("pngload", status)
        return frame
    }

    /// Directory `page` of a TIFF file decoded at full size straight into a new frame by
    /// libtiff (the pixels libvips's loader gives, without its copies and its worker thread;
    /// see `cvips_tiff_decode_into`).
    /// - Returns: nil when the page is not a `width` x `height` strip TIFF of one-bit or 8-bit
    ///   grey or 8-bit RGB that decodes as it is: load it with libvips instead.
    /// - Throws: `VIPSError` when libtiff reports an error or a warning (a truncated or damaged
    ///   file): load it with libvips, which decides whether it is readable and words the error.
    public static func decodingTIFF(file path: String, page: Int, width: Int, height: Int, bands: Int) throws
        -> VIPSFrame?
    {
        let frame = try VIPSFrame(width: width, height: height, bands: bands)
        let status = cvips_tiff_decode_into(path, Int32(page), frame.base, Int32(width), Int32(height), Int32(bands))
        if status == 1 { return nil }
        try VIPSImage.check("tiffload", status)
        return frame
    }

    public var byteCount: Int { width * height * bands }
    public var rowBytes: Int { width * bands }

    /// The pixels, row-major and band-interleaved; valid while this frame lives.
    public var pixels: UnsafeMutableBufferPointer<UInt8> {
        UnsafeMutableBufferPointer(start: base, count: byteCount)
    }

    /// Hands the memory of `rows` back to the kernel (whole memory pages inside them); those
    /// rows read as zero afterwards, so release only rows nothing will sample again.
    public func releaseRows(_ rows: Range<Int>) {
        let rows = rows.clamped(to: 0..<height)
        guard !rows.isEmpty else { return }
        _ = cvips_frame_release(base, rows.lowerBound * rowBytes, rows.count * rowBytes)
    }
}

extension VIPSImage {
    /// This image marked as read top to bottom, for pipelines that end in a sink (save,
    /// `materialized`): resampling then runs strip by strip with line caches instead of
    /// recomputing tile overlaps (docs/benchmarks.md, "Figures behind design choices").
    public func streamed() throws -> VIPSImage {
        try Self.make("copy") { cvips_streamed(pointer, $0) }
    }

    /// True when the pixels are already in memory (a frame, a `materialized()` image), so
    /// `withPixels` reads them without computing or copying anything; false for a pipeline.
    public var isInMemory: Bool { cvips_is_memory(pointer) != 0 }

    /// Calls `body` with this image's pixels (row-major, band-interleaved), computing them
    /// into memory first when the image is a pipeline. The pointer is valid only inside `body`.
    /// - Throws: `VIPSError` when the pixels cannot be computed or the image is not 8-bit.
    public func withPixels<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R {
        guard format == .uchar else {
            throw VIPSError(operation: "pixels", message: "the image is not 8-bit (cast it first)")
        }
        guard let raw = cvips_memory_pixels(pointer) else {
            throw VIPSError(operation: "pixels", message: VIPSRuntime.takeErrorMessage())
        }
        return try withExtendedLifetime(self) {
            try body(UnsafeBufferPointer(start: raw.assumingMemoryBound(to: UInt8.self), count: width * height * bands))
        }
    }
}
