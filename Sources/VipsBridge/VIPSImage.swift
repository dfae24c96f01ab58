internal import CVips
internal import CVipsShim

/// A libvips image: an immutable, lazily evaluated pixel pipeline.
///
/// Every operation returns a new `VIPSImage`; nothing is computed until pixels are written or
/// read. The wrapper owns exactly one reference to the underlying `VipsImage` and releases it in
/// `deinit`, so images are freed as soon as the last Swift reference goes. libvips images are
/// immutable and thread-safe to read, hence `@unchecked Sendable`.
public final class VIPSImage: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<VipsImage>

    init(owning pointer: UnsafeMutablePointer<VipsImage>) {
        self.pointer = pointer
    }

    deinit {
        cvips_unref(pointer)
    }

    /// Runs one shim call that produces an image, turning failure into a `VIPSError`.
    static func make(
        _ operation: String,
        _ call: (UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32
    ) throws -> VIPSImage {
        try VIPSRuntime.start()
        var out: UnsafeMutablePointer<VipsImage>? = nil
        let status = call(&out)
        guard status == 0, let image = out else {
            if let image = out { cvips_unref(image) }
            throw VIPSError(operation: operation, message: VIPSRuntime.takeErrorMessage())
        }
        return VIPSImage(owning: image)
    }

    /// Runs one shim call that returns only a status.
    static func check(_ operation: String, _ status: Int32) throws {
        if status != 0 {
            throw VIPSError(operation: operation, message: VIPSRuntime.takeErrorMessage())
        }
    }

    // MARK: Header

    public var width: Int { Int(cvips_width(pointer)) }
    public var height: Int { Int(cvips_height(pointer)) }
    public var bands: Int { Int(cvips_bands(pointer)) }
    /// The EXIF orientation tag, 1-8 (1 when absent or invalid).
    public var orientation: Int { Int(cvips_orientation(pointer)) }
    /// Pages in the source file (multi-page TIFF, PDF, animated GIF/WebP), at least 1.
    public var pageCount: Int { max(1, Int(cvips_n_pages(pointer))) }
    /// Height of one page when several pages were loaded as a vertical strip.
    public var pageHeight: Int { Int(cvips_page_height(pointer)) }
    public var hasAlpha: Bool { cvips_has_alpha(pointer) != 0 }
    /// Whether an ICC profile is attached (the colours are in its space, not necessarily sRGB).
    public var hasICCProfile: Bool { vips_image_get_typeof(pointer, "icc-profile-data") != 0 }
    /// The loader that produced this image ("jpegload", "pdfload" ...), if it came from a file.
    public var loader: String? { cvips_loader_name(pointer).map { String(cString: $0) } }
    /// The number of pixels (width x height).
    public var pixelCount: Int { width * height }
    public var format: BandFormat { BandFormat(rawValue: Int(cvips_format(pointer))) ?? .other }
    /// True when the image is one grey band (with or without alpha).
    public var isGray: Bool { bands - (hasAlpha ? 1 : 0) == 1 }

    /// Pixel storage formats Quire cares about (libvips's `VipsBandFormat` values).
    public enum BandFormat: Int, Sendable {
        case uchar = 0, char = 1, ushort = 2, short = 3, uint = 4, int = 5
        case float = 6, complex = 7, double = 8, dpcomplex = 9
        case other = -1
    }
}
