internal import CVips

/// A page's resolution in dots per inch, across and down.
///
/// Carried from the source (a scan's density, a PDF's render resolution) through correction to
/// the written files, so that the next tool (img2pdf, an OCR engine, a print dialog) knows the
/// page's physical size.
public struct Resolution: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double

    /// `x` dots per inch across and `y` down.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The same resolution across and down.
    public init(_ dpi: Double) { self.init(x: dpi, y: dpi) }

    /// After a quarter turn (EXIF orientations 5-8, a 90 or 270 degree turn) across is down.
    public var transposed: Resolution { Resolution(x: y, y: x) }

    /// The resolution of the same page drawn `factor` times as many pixels across and down.
    public func scaled(by factor: Double) -> Resolution { Resolution(x: x * factor, y: y * factor) }
}

extension VIPSImage {
    /// The resolution libvips read from the file's header. libvips reports 1 pixel/mm (25.4 dpi)
    /// when the file states none, so callers decide what is meaningful (`PageResolution`).
    public var headerResolution: Resolution {
        Resolution(x: vips_image_get_xres(pointer) * 25.4, y: vips_image_get_yres(pointer) * 25.4)
    }
}

extension VIPSImage {
    /// A metadata field as libvips prints it (`vipsheader -f NAME`), e.g.
    /// `exif-ifd0-XResolution`; nil when the image has no such field.
    public func metadataText(_ name: String) -> String? {
        guard vips_image_get_typeof(pointer, name) != 0 else { return nil }
        var text: UnsafeMutablePointer<CChar>?
        guard vips_image_get_as_string(pointer, name, &text) == 0, let text else { return nil }
        defer { g_free(text) }
        return String(cString: text)
    }
}
