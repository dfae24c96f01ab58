import Foundation
import VipsBridge

extension PagePipeline {
    /// Writes only the thumbnail of one page (`quire process --thumbnails-only`), straight from
    /// the file at a reduced scale, so the full-size pixels are never decoded: JPEGs through
    /// `JPEGDraft` (libjpeg's DCT scaling), PNGs and TIFFs shrunk as they stream from the
    /// loader a full run uses, everything else (and the JPEGs `JPEGDraft` declines) with
    /// libvips's shrink-on-load (PDF rendered small, WebP scaled).
    ///
    /// The page is not corrected (correction needs the full-size pixels, which is what this
    /// mode exists to avoid): the record says `none`, and its width and height are those of
    /// the upright source, i.e. the page an uncorrected run would write. The header is read
    /// first so `--max-pixels` refuses oversized pages before any pixel is decoded.
    /// - Returns: a result whose `files` name the thumbnail for all three renditions.
    /// - Throws: `ImagingError` naming the file and the reason; no file is left behind.
    public func processThumbnailOnly(_ source: PageSource, to thumbnailPath: String) throws -> PageResult {
        try ImagingError.retryingLostReason { try thumbnailOnce(source, to: thumbnailPath) }
    }

    private func thumbnailOnce(_ source: PageSource, to thumbnailPath: String) throws -> PageResult {
        // Header only: the decoded image is lazy and no pixel of it is read here.
        let header = try StageProfile.measure("t1 header") { try PageDecoder(maxPixels: maxPixels).decode(source) }
        let outputs = PageOutputPaths(page: thumbnailPath, preview: thumbnailPath, thumbnail: thumbnailPath)
        do {
            let small = try StageProfile.measure("t2 thumbnail") {
                try draftThumbnail(of: header, source: source)
                    ?? thumbnail(of: header.image, source: source, format: header.format, corrected: false)
            }
            let dpi = PageDPI.of(
                page: header.image.width, header.image.height, correction: .none, paper: correction.paper,
                sourceDPI: sourceDPI(source, format: header.format), orientation: header.orientation)
            try StageProfile.measure("t3 encode + write") {
                try write(small, to: thumbnailPath, dpi: dpi, pageWidth: header.image.width)
            }
            return PageResult(
                source: source, format: header.format, orientation: header.orientation,
                width: header.image.width, height: header.image.height,
                correction: CorrectionRecord(kind: .none), files: outputs, dpi: dpi,
                previewSize: PixelSize(width: small.width, height: small.height),
                thumbnailSize: PixelSize(width: small.width, height: small.height))
        } catch {
            unlink(thumbnailPath)
            if let error = error as? ImagingError { throw error }
            throw ImagingError.decoding(error, path: source.path)
        }
    }

    /// A JPEG's thumbnail through `JPEGDraft` (libjpeg at 1/8 or 1/4 scale, then `Resampler`);
    /// nil for other formats and for the JPEGs that path leaves to libvips.
    func draftThumbnail(of header: DecodedPage, source: PageSource) throws -> VIPSImage? {
        guard header.format == .jpeg else { return nil }
        let (w, h) = (header.image.width, header.image.height)
        let size = VIPSImage.fittedSize(width: w, height: h, inside: renditions.thumbnailSize)
        let draft = JPEGDraft(width: size.width, height: size.height, orientation: header.orientation)
        return try draft.render(file: source.path, sourceWidth: w, sourceHeight: h)
    }
}
