import VipsBridge

/// Checks a PDF page's size at `--dpi` before the page is loaded at that resolution, so a page
/// too large for libvips is refused rather than decoded as a 1 x 1 image.
///
/// libvips keeps an image's width and height at most `maxSide`; asked to render a larger page
/// (a MediaBox of 10,000,000 pt is 27,777,778 px at 200 dpi), pdfload leaves the size at its
/// default of 1 x 1 after a GLib warning, and the batch would write a 1 x 1 page. So the page's
/// header is first read at 1 dpi (its size in whole inches: no pixel is rendered) and its size
/// at `--dpi` computed from that.
enum PDFPageSize {
    /// The largest side libvips 8.14 gives an image (`VIPS_MAX_COORD`).
    static let maxSide = 10_000_000

    /// The page's size in inches (each side rounded by libvips), read from its header at 1 dpi.
    /// - Throws: `ImagingError` badPageSize when the page at `source.dpi` would be wider or
    ///   higher than `maxSide`; decoding errors as `ImagingError.decoding`.
    static func check(_ source: PageSource) throws -> (width: Int, height: Int) {
        let inches: VIPSImage
        do {
            inches = try VIPSImage.load(file: source.path, options: .init(page: source.page, pageCount: 1, dpi: 1))
        } catch {
            throw ImagingError.decoding(error, path: source.path)
        }
        // Rounding at 1 dpi loses up to half an inch a side: the larger bound is checked.
        let side = (Double(max(inches.width, inches.height)) + 0.5) * source.dpi
        if side > Double(maxSide) {
            throw tooLarge(
                source,
                "it is about \(inches.width) x \(inches.height) in, \(side.rounded().formatted()) px a side at --dpi \(source.dpi.formatted())"
            )
        }
        return (inches.width, inches.height)
    }

    /// Compares the size libvips gave the page at `--dpi` (`header`) with its size in `inches`:
    /// a page larger than libvips can hold even at 1 dpi comes back 1 x 1 both times, and is
    /// refused here.
    /// - Throws: `ImagingError` badPageSize when they disagree by more than an inch and a pixel.
    static func verify(_ header: VIPSImage, inches: (width: Int, height: Int), source: PageSource) throws {
        // Half an inch of rounding at 1 dpi, half a pixel at `dpi`: well within an inch and a pixel.
        let dpi = source.dpi, tolerance = dpi + 1
        if abs(Double(inches.width) * dpi - Double(header.width)) > tolerance
            || abs(Double(inches.height) * dpi - Double(header.height)) > tolerance
        {
            throw tooLarge(source, "its MediaBox is larger than libvips can read (\(maxSide) in a side at 1 dpi)")
        }
    }

    private static func tooLarge(_ source: PageSource, _ size: String) -> ImagingError {
        ImagingError(
            .badPageSize, path: source.path,
            reason:
                "page \(source.page + 1) is too large to render: \(size), over the \(maxSide) px a side libvips allows")
    }
}

private extension Double {
    /// `200` rather than `200.0`.
    func formatted() -> String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
