internal import CVips
internal import CVipsShim

extension VIPSImage {
    /// How much of the source file a load may fail on.
    public enum FailOn: Int, Sendable {
        /// Decode whatever can be decoded (libvips's default).
        case none = 0
        /// Fail on truncated data, so a cut-off JPEG is an error rather than a grey page.
        case truncated = 1
        /// Fail on decoder errors.
        case error = 2
        /// Fail on any warning.
        case warning = 3
    }

    /// Options handed to whichever loader libvips picks; ones a loader lacks are skipped.
    public struct LoadOptions: Sendable, Equatable {
        /// First page to load from a multi-page file (0-based), or nil for the loader default.
        public var page: Int?
        /// Number of pages to load; nil = loader default (1), -1 = all.
        public var pageCount: Int?
        /// Render resolution for PDF and other vector formats.
        public var dpi: Double?
        /// Stream top to bottom, reading pixels once (cheapest for decode-process-encode).
        public var sequential: Bool
        public var failOn: FailOn
        /// Decode at 1/`shrink` of the stored size (1, 2, 4 or 8) where the loader scales while
        /// decoding (JPEG: DCT scaling, several times cheaper than a full decode); loaders
        /// without the option decode at full size, so check the size you get.
        public var shrink: Int

        /// Load options; each nil or default leaves the loader's own default.
        public init(
            page: Int? = nil, pageCount: Int? = nil, dpi: Double? = nil,
            sequential: Bool = false, failOn: FailOn = .none, shrink: Int = 1
        ) {
            self.page = page
            self.pageCount = pageCount
            self.dpi = dpi
            self.sequential = sequential
            self.failOn = failOn
            self.shrink = shrink
        }

        func withCOptions<R>(_ body: (UnsafePointer<cvips_load_options>) throws -> R) rethrows -> R {
            var c = cvips_load_options(
                page: Int32(page ?? -1),
                n: Int32(pageCount ?? 0),
                dpi: dpi ?? 0,
                sequential: sequential ? 1 : 0,
                fail_on: Int32(failOn.rawValue),
                shrink: Int32(clamping: shrink))
            return try body(&c)
        }
    }

    /// The loader libvips would use for a file ("jpegload", "pdfload" ...), from its first
    /// bytes; nil when the format is unknown (or its loader is blocked).
    public static func loaderName(forFile path: String) -> String? {
        guard (try? VIPSRuntime.start()) != nil else { return nil }
        guard let name = cvips_find_loader(path) else {
            _ = VIPSRuntime.takeErrorMessage()
            return nil
        }
        return String(cString: name)
    }

    /// Opens an image file lazily: only the header is read until pixels are needed, so
    /// `width`, `height` and `pageCount` are cheap and can be checked before decoding.
    /// - Throws: `VIPSError` (operation `"load"`) for unknown formats and unreadable headers.
    public static func load(file path: String, options: LoadOptions = LoadOptions()) throws -> VIPSImage {
        try options.withCOptions { c in
            try make("load") { cvips_load(path, c, $0) }
        }
    }

    /// Opens an encoded image held in memory (the bytes are copied).
    public static func load(data: [UInt8], options: LoadOptions = LoadOptions()) throws -> VIPSImage {
        try options.withCOptions { c in
            try data.withUnsafeBytes { raw in
                try make("load") { cvips_load_buffer(raw.baseAddress, raw.count, c, $0) }
            }
        }
    }

    /// A shrink-on-load thumbnail of a file fitting inside `width` x `height` (never enlarged),
    /// with EXIF orientation applied. JPEGs are DCT-scaled and PDFs rendered small, which is
    /// many times cheaper than decoding at full size and resizing. The loader fails on
    /// truncation and is watched for failed reads, as `load(file:options:)` with `.truncated`.
    /// - Parameter loaderOptions: passed to the loader, e.g. `"page=2,dpi=200"`.
    public static func thumbnail(
        file path: String, width: Int, height: Int,
        loaderOptions: String? = nil
    ) throws -> VIPSImage {
        try make("thumbnail") {
            cvips_thumbnail(path, Int32(width), Int32(height), loaderOptions, $0)
        }
    }

    /// The read buffer of `jpegScaled` and the full-size JPEG decoder, in bytes (kept below
    /// `VIPSRuntime.defaultMmapThreshold` so it is reused from the heap, not mapped per file).
    public static var jpegReadBufferBytes: Int { Int(cvips_jpeg_source_buffer_bytes()) }

    /// A JPEG decoded at 1/`shrink` of its stored size (1, 2, 4 or 8, libjpeg's DCT scaling)
    /// straight into memory, 8-bit RGB or grey, in stored orientation (EXIF not applied), the
    /// file's ICC profile attached (`hasICCProfile`): the cheapest way to the pixels of a
    /// thumbnail (see `cvips_jpeg_load_scaled`).
    /// - Returns: nil when the file needs libvips's loader instead (CMYK and YCCK).
    /// - Throws: `VIPSError` when the file cannot be decoded, truncation included.
    public static func jpegScaled(file path: String, shrink: Int) throws -> VIPSImage? {
        try jpegScaled(file: path, shrink: shrink, skipping: true)?.image
    }

    /// `jpegScaled(file:shrink:)` with its entropy decoder chosen (see
    /// `cvips_jpeg_load_scaled_by`): with `skipping` false libjpeg alone decodes, the pixels
    /// the skipper must give; `skipped` says whether the skipper decoded them.
    static func jpegScaled(file path: String, shrink: Int, skipping: Bool) throws -> (
        image: VIPSImage, skipped: Bool
    )? {
        try VIPSRuntime.start()
        var out: UnsafeMutablePointer<VipsImage>? = nil
        var skipped: Int32 = 0
        let status =
            skipping
            ? cvips_jpeg_load_scaled_by(path, Int32(clamping: shrink), &skipped, &out)
            : cvips_jpeg_load_scaled_by(path, Int32(clamping: shrink), nil, &out)
        if status == 1 { return nil }
        guard status == 0, let image = out else {
            if let image = out { cvips_unref(image) }
            throw VIPSError(operation: "jpegload", message: VIPSRuntime.takeErrorMessage())
        }
        return (VIPSImage(owning: image), skipped == 1)
    }

    /// Whether `jpegScaled` may decode through the skipper in this process (see
    /// `cvips_jpeg_skip_available`): false when the libjpeg loaded at run time is not of the
    /// family the skipper was compiled against, and libjpeg alone then decodes every file.
    static var jpegSkipperAvailable: Bool { cvips_jpeg_skip_available() == 1 }

    /// The rule behind `jpegSkipperAvailable` (see `cvips_jpeg_skip_library_fits`): compiled
    /// against libjpeg-turbo `builtVersion` (as LIBJPEG_TURBO_VERSION_NUMBER, 2001005 for
    /// 2.1.5), with a runtime library that has libjpeg-turbo 3's API or not.
    static func jpegSkipperFits(builtVersion: Int, runtimeHas3xAPI: Bool) -> Bool {
        cvips_jpeg_skip_library_fits(Int32(clamping: builtVersion), runtimeHas3xAPI ? 1 : 0) == 1
    }
}

extension VIPSImage {
    /// Opens the page of a TIFF file whose directory (IFD) starts at byte `ifdOffset`, as a
    /// one-page TIFF (see `cvips_load_tiff_page`): its cost does not grow with the number of
    /// pages in the file, as `load(file:options:)` with `page` does. `options.page` and
    /// `options.pageCount` are ignored.
    /// - Throws: `VIPSError` (operation `"load"`) when there is no directory at `ifdOffset`.
    public static func loadTIFFPage(file path: String, ifdOffset: UInt64, options: LoadOptions = LoadOptions()) throws
        -> VIPSImage
    {
        try options.withCOptions { c in
            try make("load") { cvips_load_tiff_page(path, guint64(ifdOffset), c, $0) }
        }
    }
}
