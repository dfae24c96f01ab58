import VipsBridge

/// The input formats Quire decodes, as recognised by libvips from a file's first bytes.
public enum SourceFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg, png, tiff, webp, heif, gif, pdf, jxl
    /// Taken only with `--allow-untrusted-formats` (`ImagingRuntime.allowUntrustedFormats`):
    /// SVG, and anything only ImageMagick decodes (BMP, ICO, PSD ...).
    case svg, magick

    /// libvips loader nicknames ("jpegload", "pdfload_source" ...) mapped to formats; loaders
    /// libvips has but Quire does not take (PPM, FITS, CSV, Analyze, Radiance, OpenSlide ...)
    /// map to nil and are reported as unsupported.
    init?(loader: String) {
        let base = loader.split(separator: "_").first.map(String.init) ?? loader
        switch base {
        case "jpegload": self = .jpeg
        case "pngload": self = .png
        case "tiffload": self = .tiff
        case "webpload": self = .webp
        case "heifload": self = .heif
        case "gifload": self = .gif
        case "pdfload": self = .pdf
        case "jxlload": self = .jxl
        case "svgload": self = .svg
        case "magickload", "magickload5", "magickload6", "magickload7": self = .magick
        default: return nil
        }
    }

    /// Formats that hold several pages, each of which becomes a page of the batch. GIF and
    /// WebP animations contribute their first frame only; HEIF its primary image.
    public var isMultiPage: Bool { self == .tiff || self == .pdf }

    /// Formats refused unless `--allow-untrusted-formats`: a scanner never makes them, and their
    /// decoders have hung (a truncated SVGZ spins forever in libvips 8.14) or run delegates.
    public var isUntrusted: Bool { self == .svg || self == .magick }

    /// Formats whose decoder (libheif) has already applied the orientation: rotating again by
    /// the EXIF tag would turn the page twice.
    var decoderAppliesOrientation: Bool { self == .heif }

    /// A readable name for a format libvips can open but Quire does not take, from the loader
    /// nickname ("ppmload" -> "PPM").
    static func displayName(ofLoader loader: String) -> String {
        var base = loader.split(separator: "_").first.map(String.init) ?? loader
        if base.hasSuffix("load") { base.removeLast(4) }
        return base.uppercased()
    }

    /// Formats libvips does not open here (or that Quire blocks), recognised by their first
    /// bytes so the user hears "unsupported format (BMP)" rather than "not an image".
    static func sniffUnsupported(_ head: [UInt8]) -> String? {
        func starts(_ bytes: [UInt8]) -> Bool { head.count >= bytes.count && Array(head.prefix(bytes.count)) == bytes }
        if starts([0x42, 0x4D]) { return "BMP" }
        if starts([0x00, 0x00, 0x01, 0x00]) { return "ICO" }
        if starts(Array("8BPS".utf8)) { return "PSD" }
        if starts([0xFF, 0x4F, 0xFF, 0x51]) || starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50]) { return "JPEG 2000" }
        if starts([0x1F, 0x8B]) { return "gzip (SVGZ?)" }
        let text = String(decoding: head.prefix(512), as: UTF8.self).lowercased()
        if text.contains("<svg") { return "SVG" }
        return nil
    }
}
