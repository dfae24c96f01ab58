internal import CVips
internal import CVipsShim

extension VIPSImage {
    /// Encodings Quire writes.
    public enum SaveFormat: String, Sendable, CaseIterable, Codable {
        case jpeg, png, webp, tiff, gif

        /// The file extension, without the dot.
        public var fileExtension: String {
            switch self {
            case .jpeg: "jpg"
            case .png: "png"
            case .webp: "webp"
            case .tiff: "tif"
            case .gif: "gif"
            }
        }

        var cValue: cvips_save_format {
            switch self {
            case .jpeg: CVIPS_SAVE_JPEG
            case .png: CVIPS_SAVE_PNG
            case .webp: CVIPS_SAVE_WEBP
            case .tiff: CVIPS_SAVE_TIFF
            case .gif: CVIPS_SAVE_GIF
            }
        }
    }

    /// Encoder settings.
    public struct SaveOptions: Sendable, Equatable {
        public var format: SaveFormat
        /// 1-100 for JPEG and WebP.
        public var quality: Int
        /// Drop metadata (EXIF, XMP); the written pixels are already upright.
        public var stripMetadata: Bool
        /// PNG zlib level 0-9, or nil for libvips's default.
        public var compression: Int?
        /// JPEG: optimised Huffman tables. Smaller files, but the encoder then holds the whole
        /// image's coefficients and makes a second pass (figures in docs/benchmarks.md), so it
        /// is off unless asked for.
        public var optimizeCoding: Bool
        /// The page's resolution, written as JFIF density (JPEG), pHYs (PNG), EXIF resolution
        /// (WebP) or TIFF tags; nil when unknown (JPEG then has no density, the others say 72 dpi,
        /// what readers assume).
        public var dpi: Resolution?
        /// PNG: one bit a pixel, for a black and white page whose pixels are 0 or 255 (8 times
        /// smaller before compression; every reader opens it).
        public var oneBit: Bool

        /// Save options; the defaults are JPEG at quality 85 without metadata.
        public init(
            format: SaveFormat = .jpeg, quality: Int = 85, stripMetadata: Bool = true,
            compression: Int? = nil, optimizeCoding: Bool = false, dpi: Resolution? = nil, oneBit: Bool = false
        ) {
            self.format = format
            self.quality = quality
            self.stripMetadata = stripMetadata
            self.compression = compression
            self.optimizeCoding = optimizeCoding
            self.dpi = dpi
            self.oneBit = oneBit
        }

        var cValue: cvips_save_options {
            cvips_save_options(
                format: format.cValue, quality: Int32(max(1, min(100, quality))),
                strip: stripMetadata ? 1 : 0, compression: Int32(compression ?? -1),
                optimize: optimizeCoding ? 1 : 0, xdpi: dpi?.x ?? 0, ydpi: dpi?.y ?? 0,
                bitdepth: oneBit && format == .png ? 1 : 0)
        }
    }

    /// Computes the pipeline and writes it to `path` in one pass.
    /// Callers that need atomic files write to a temporary name and rename.
    ///
    /// A stripped JPEG of pixels already in memory (a warped page, a preview) is encoded in the
    /// calling thread with libjpeg directly (`cvips_jpeg_save_in_thread`): the same bytes as
    /// libvips's saver without its worker-thread hand-offs, which with a page per core left a
    /// core waiting on wake-ups.
    /// - Parameter viaLibvips: always use libvips's saver (to compare the two).
    public func save(to path: String, options: SaveOptions = SaveOptions(), viaLibvips: Bool = false) throws {
        try VIPSRuntime.start()
        var c = options.cValue
        if options.format == .jpeg && options.stripMetadata && !viaLibvips {
            let rc = cvips_jpeg_save_in_thread(pointer, path, c.quality, c.optimize, c.xdpi, c.ydpi)
            if rc != 1 {
                try Self.check("save", rc)
                return try Self.check("save", cvips_refuse_failed_pixels(pointer))
            }
        }
        try Self.check("save", cvips_save(pointer, path, &c))
        // libvips can lose a worker thread's failed read and report the save a success: a file
        // made from pixels never decoded is refused here too (see cvips_watch_loader).
        try Self.check("save", cvips_refuse_failed_pixels(pointer))
    }

    /// Computes the pipeline and returns the encoded bytes.
    public func encoded(options: SaveOptions = SaveOptions()) throws -> [UInt8] {
        try VIPSRuntime.start()
        var c = options.cValue
        var length = 0
        guard let raw = cvips_save_buffer(pointer, &c, &length) else {
            throw VIPSError(operation: "save", message: VIPSRuntime.takeErrorMessage())
        }
        defer { cvips_free(raw) }
        return Array(UnsafeRawBufferPointer(start: raw, count: length))
    }
}
