import QuireImaging
/// The size of one PDF page and where its image sits on it, in PDF points (1/72 inch).
///
/// Chosen in a fixed order (`PDFPageSize.make`):
/// 1. `--dpi N`: every page is its pixel size at N dots per inch;
/// 2. the page's own resolution (layout.json's `dpi`, else the page file's JFIF/EXIF/pHYs
///    density): a scan keeps its physical size;
/// 3. otherwise (a corrected photo, or any page without a resolution) the page takes a paper
///    width: its short side is the paper's short side (`--paper`, A4 when not given) and its long
///    side follows the page's measured aspect ratio. When `--paper` was given and the aspect is
///    within `paperSnap` of that paper's, the page is exactly the paper (the image is stretched by
///    that little): a photographed A4 sheet measures 0.70 or 0.71, never exactly 1/sqrt(2).
public struct PDFPageSize: Sendable, Equatable, CustomStringConvertible {
    /// Page width and height in points.
    public var width: Double
    public var height: Double
    /// The image's rect on the page, in points (the whole page for every rule above).
    public var imageX: Double = 0, imageY: Double = 0
    public var imageWidth: Double, imageHeight: Double
    /// Which rule chose the size.
    public var rule: Rule

    public enum Rule: String, Sendable, Equatable {
        /// `--dpi` for every page.
        case givenDPI
        /// The page's own resolution.
        case pageDPI
        /// A paper width at the measured aspect.
        case paperWidth
        /// Exactly the given paper (aspect within `paperSnap`).
        case paper
    }

    public static let pointsPerInch = 72.0
    public static let pointsPerMillimetre = 72.0 / 25.4
    /// Largest relative aspect difference snapped to the exact paper size (3%).
    public static let paperSnap = 0.03
    /// Whether `dpi` says something about the page (`PageResolution.isMeaningful`: plausible,
    /// and not the 72 or 96 dpi that programs write when they know nothing).
    public static func isMeaningful(_ dpi: (x: Double, y: Double)) -> Bool {
        PageResolution.isMeaningful(dpi)
    }

    /// A page of `width` x `height` points filled by its image.
    public init(width: Double, height: Double, rule: Rule) {
        self.width = width
        self.height = height
        self.imageWidth = width
        self.imageHeight = height
        self.rule = rule
    }

    public var description: String {
        func r(_ v: Double) -> String { String(Double(Int((v * 100).rounded())) / 100) }
        return "\(r(width)) x \(r(height)) pt (\(rule.rawValue))"
    }

    /// The largest page side PDF readers accept (200 inches, PDF 1.5's limit without UserUnit).
    public static let maximumSide = 14_400.0

    /// The page for an image of `pixelWidth` x `pixelHeight` pixels; a page over
    /// `maximumSide` is scaled down to fit it, keeping its aspect.
    /// - Parameters:
    ///   - pixelWidth: the page image's width in pixels.
    ///   - pixelHeight: the page image's height in pixels.
    ///   - givenDPI: `--dpi`, overriding everything else.
    ///   - pageDPI: the page's own horizontal and vertical resolution, when known.
    ///   - paper: `--paper`; nil = A4 width at the measured aspect, never snapped.
    /// - Returns: nil when the pixel size is empty.
    public static func make(
        pixelWidth: Int, pixelHeight: Int, givenDPI: Double? = nil,
        pageDPI: (x: Double, y: Double)? = nil, paper: PaperSize? = nil
    ) -> PDFPageSize? {
        guard
            var size = unlimited(
                pixelWidth: pixelWidth, pixelHeight: pixelHeight, givenDPI: givenDPI,
                pageDPI: pageDPI, paper: paper)
        else { return nil }
        let scale = min(1, maximumSide / max(size.width, size.height))
        if scale < 1 {
            size.width *= scale
            size.height *= scale
            size.imageWidth *= scale
            size.imageHeight *= scale
        }
        return size
    }

    private static func unlimited(
        pixelWidth: Int, pixelHeight: Int, givenDPI: Double?,
        pageDPI: (x: Double, y: Double)?, paper: PaperSize?
    ) -> PDFPageSize? {
        guard pixelWidth > 0, pixelHeight > 0 else { return nil }
        let w = Double(pixelWidth), h = Double(pixelHeight)
        if let dpi = givenDPI, dpi.isFinite, dpi > 0 {
            return PDFPageSize(width: w / dpi * pointsPerInch, height: h / dpi * pointsPerInch, rule: .givenDPI)
        }
        if let dpi = pageDPI, isMeaningful(dpi) {
            return PDFPageSize(width: w / dpi.x * pointsPerInch, height: h / dpi.y * pointsPerInch, rule: .pageDPI)
        }
        let sheet = (paper ?? .a4).points
        let portrait = h >= w
        let aspect = portrait ? h / w : w / h  // long / short, >= 1
        if let paper {
            let paperAspect = paper.millimetres.long / paper.millimetres.short
            if abs(aspect - paperAspect) / paperAspect <= paperSnap {
                return portrait
                    ? PDFPageSize(width: sheet.short, height: sheet.long, rule: .paper)
                    : PDFPageSize(width: sheet.long, height: sheet.short, rule: .paper)
            }
        }
        let long = sheet.short * aspect
        return portrait
            ? PDFPageSize(width: sheet.short, height: long, rule: .paperWidth)
            : PDFPageSize(width: long, height: sheet.short, rule: .paperWidth)
    }
}
