import Foundation
import VipsBridge

/// Where one page's three renditions (and, with `--ocr`, its text) go.
public struct PageOutputPaths: Sendable, Hashable, Codable {
    public var page: String
    public var preview: String
    public var thumbnail: String
    /// The page's hOCR and plain text (`--ocr`); nil when its text is not read.
    public var hocr: String?
    public var txt: String?
    /// The capture: the whole oriented source, small (`PagePipeline.writeCapture`), for the
    /// review; nil to write none. A split source's parts share the first part's.
    public var capture: String?

    /// The output paths of one page; `hocr` and `txt` only when its text is read, `capture`
    /// only when one is written.
    public init(
        page: String, preview: String, thumbnail: String, hocr: String? = nil, txt: String? = nil,
        capture: String? = nil
    ) {
        self.capture = capture
        self.page = page
        self.preview = preview
        self.thumbnail = thumbnail
        self.hocr = hocr
        self.txt = txt
    }

    /// The paths of page `part` (1, 2) of a source split into pages: part 1 writes to these
    /// paths, part 2 to the same names with `-2` before the extension.
    public func part(_ part: Int) -> PageOutputPaths {
        guard part > 1 else { return self }
        func named(_ path: String) -> String {
            let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
            guard let dot = path[slash...].lastIndex(of: ".") else { return path + "-\(part)" }
            return String(path[..<dot]) + "-\(part)" + String(path[dot...])
        }
        return PageOutputPaths(
            page: named(page), preview: named(preview), thumbnail: named(thumbnail),
            hocr: hocr.map(named), txt: txt.map(named), capture: nil)
    }
}

/// What processing one page produced: the facts its layout.json record is made of.
public struct PageResult: Sendable, Hashable, Codable {
    public var source: PageSource
    public var format: SourceFormat
    /// The EXIF orientation (1-8) that was applied.
    public var orientation: Int
    /// Pixel size of the written page.
    public var width: Int
    public var height: Int
    public var correction: CorrectionRecord
    public var files: PageOutputPaths
    /// Pixel size of the oriented source before correction: the frame `correction.quad` lives
    /// in (and the size of a `--masks` mask).
    public var sourceSize: PixelSize?
    /// The written page's resolution (`PageDPI`), also written into its files; nil when unknown.
    public var dpi: Resolution?
    /// Pixel sizes of the written preview and thumbnail (nil in records of older runs).
    public var previewSize: PixelSize?
    public var thumbnailSize: PixelSize?
    /// Which page of an open book this is, when its source was split (`--split auto`); nil for
    /// a page written whole.
    public var split: PageSplit?
    /// What `--ocr` read on the page (its files are `files.hocr` and `files.txt`); nil when its
    /// text was not read.
    public var text: PageTextRecord?
    /// Pixel size of the capture written for the review (`PageOutputPaths.capture`; both parts
    /// of a split source share the first part's file); nil when none was written.
    public var captureSize: PixelSize?
    /// The source pixels (display frame, from the top-left) the capture covers: quad
    /// coordinates map to capture pixels by `captureSize / captureCovers`.
    public var captureCovers: PixelSize?
    /// The corrections file's entry applied to this page; nil when none was.
    public var corrected: CorrectionEntry?
}

/// The one-page flow of docs/architecture.md, in one place and one order:
/// file -> decoded oriented image -> correction -> split (open books) -> encoded
/// page/preview/thumbnail -> page result(s).
///
/// A pipeline is a plain value: safe to share between the threads of a batch (each call works
/// on its own images), and it holds no pixels between calls.
public struct PagePipeline: Sendable {
    public var renditions: RenditionOptions
    public var correction: CorrectionOptions
    /// Scanner edges, paper tone and colour mode, after correction.
    public var clean: CleanOptions
    /// Pages larger than this (width x height, after `--dpi` for PDF) are refused from the header.
    public var maxPixels: Int
    /// Shared by the pages of a batch: how many bytes of whole decoded frames may be held at
    /// once (nil: no bound, e.g. one page at a time).
    public var frameGate: FrameGate?
    /// Open books: written as two pages, or kept whole.
    public var split: SplitOptions
    /// `--ocr`: the text of each written page is read and written where `PageOutputPaths.hocr`
    /// and `txt` say; nil to read none.
    public var ocr: OCROptions?

    /// A pipeline writing `renditions` after `correction` (and `split`), refusing pages over
    /// `maxPixels`, admitting whole frames through `frameGate` when given.
    public init(
        renditions: RenditionOptions = RenditionOptions(), correction: CorrectionOptions = CorrectionOptions(),
        clean: CleanOptions = CleanOptions(), split: SplitOptions = SplitOptions(), maxPixels: Int = 250_000_000,
        frameGate: FrameGate? = nil, ocr: OCROptions? = nil
    ) {
        self.ocr = ocr
        self.renditions = renditions
        self.correction = correction
        self.clean = clean
        self.split = split
        self.maxPixels = maxPixels
        self.frameGate = frameGate
    }

    /// Processes one source page and writes its page, preview and thumbnail (each atomically):
    /// one page, or two when it shows an open book and `split` is `auto` (the second to
    /// `outputs.part(2)`). On failure no output file of it is left behind.
    /// - Parameter userQuad: page corners the user supplied, in display pixels of the oriented source.
    /// - Returns: the written pages, in reading order.
    /// - Throws: `ImagingError` naming the file and the reason.
    /// - Parameter entry: what the corrections file says of this page (its corners win over
    ///   `userQuad`; its `rotate` replaces the orientation decision, its `split` the split's).
    public func process(
        _ source: PageSource, to outputs: PageOutputPaths, userQuad: Quad? = nil,
        entry: CorrectionEntry? = nil
    ) throws -> [PageResult] {
        try ImagingError.retryingLostReason {
            try processOnce(source, to: outputs, userQuad: entry?.corners ?? userQuad, entry: entry)
        }
    }

    private func processOnce(
        _ source: PageSource, to outputs: PageOutputPaths, userQuad: Quad?,
        entry: CorrectionEntry?
    ) throws -> [PageResult] {
        // 1. file -> one full-size decode (size checked from the header first), once the batch
        //    has room for the whole frame.
        var pass: FrameGate.Pass?
        defer { pass?.leave() }
        // The detection copy is averaged inside the decode when something will read it: the
        // review's capture, or the correction's analysis (not with corners given, nor mode none).
        let averaging = outputs.capture != nil || (correction.mode != .none && userQuad == nil)
        let decoded = try StageProfile.measure("1 decode") {
            try PageDecoder(maxPixels: maxPixels).decodeFrame(
                source, planar: true, averaging: averaging,
                admit: { bytes in pass = frameGate?.enter(bytes: bytes) })
        }
        let (format, orientation) = (decoded.format, decoded.exifOrientation)
        let sourceSize = PixelSize(width: decoded.displayWidth, height: decoded.displayHeight)
        if let userQuad {
            try UserCorners.check(
                userQuad, imageWidth: sourceSize.width, imageHeight: sourceSize.height, path: source.path)
        }
        do {
            // 1b. the review's capture of the whole source, as it comes (before correction): the
            //     detection copy, made here once instead of inside the correction.
            let copy =
                outputs.capture == nil ? nil : StageProfile.measure("2a detection copy") { decoded.detectionCopy() }
            let capture = try copy.flatMap { copy in
                try outputs.capture.map { path in
                    try StageProfile.measure("9 capture") { try writeCapture(copy, to: path) }
                }
            }
            // 2. correction (perspective for photos, deskew and trim for scans, or nothing); the
            //    frame is released when this returns, unless the page is a view of it. A turn the
            //    corrections file gives replaces the orientation detector.
            var options = correction
            if entry?.rotate != nil { options.rotate = .none }
            var corrector = PageCorrector(options: options)
            corrector.maxPixels = maxPixels
            let corrected = try StageProfile.measure("2 correct (all of 2x)") {
                try corrector.correct(
                    consume decoded, userQuad: userQuad, copy: copy, frameShrunk: { pass?.leave() },
                    frameGrows: { bytes in if let pass { frameGate?.grow(pass, by: bytes) } })
            }
            var (page, record) = corrected
            if let turn = entry?.rotate { (page, record) = try Self.turned(page, record: record, by: turn) }
            page = try page.inMemory()  // a lazy view would be re-run by every rendition
            var preview = try StageProfile.measure("4 preview resize") {
                try shrink(page, inside: renditions.previewSize)
            }
            // A photo straightened on its side is turned upright (looked at on the preview);
            // corners the user gave say which way up the page is themselves.
            if userQuad == nil, entry?.rotate == nil {
                (page, preview, record) = try corrector.turnedUpright(page, preview: preview, record: record)
            }
            // 3. an open book becomes its two pages; the gutter is looked for on the preview when
            //    it is detailed enough (shrinking a lazily deskewed page again is costly), and a
            //    page written whole keeps that preview.
            let detailed =
                max(preview.width, preview.height) >= min(ScanDeskew.analysisLongSide, max(page.width, page.height))
            let parts = try PageSplitter(options: split, choice: entry?.split).split(
                page, record: record, preview: detailed ? preview : nil)
            return try parts.enumerated().map { index, part in
                var result = try finish(
                    part.image, record: part.record, source: source, format: format, orientation: orientation,
                    preview: parts.count == 1 ? preview : nil, to: outputs.part(index + 1))
                result.sourceSize = sourceSize
                result.split = part.split
                result.captureSize = capture?.size  // the parts share the first part's capture
                result.captureCovers = capture?.covers
                result.corrected = entry
                return result
            }
        } catch {
            for paths in [outputs, outputs.part(2)] {
                for path in [paths.page, paths.preview, paths.thumbnail]
                    + [paths.hocr, paths.txt, paths.capture].compactMap({ $0 })
                {
                    unlink(path)
                }
            }
            if let error = error as? ImagingError { throw error }
            if let error = error as? OutputTooLarge {
                throw ImagingError(
                    .tooLarge, path: source.path,
                    reason:
                        "the corrected page would be \(error.width)x\(error.height), \(PageDecoder.megapixels(error.width * error.height)) MP, over --max-pixels \(PageDecoder.megapixels(error.maxPixels)) MP"
                )
            }
            throw ImagingError.decoding(error, path: source.path)
        }
    }

    /// Steps 3-5 for one corrected page: clean-up, the three renditions, and the page's record.
    /// - Parameter preview: the page's preview when already made.
    private func finish(
        _ image: VIPSImage, record corrected: CorrectionRecord, source: PageSource, format: SourceFormat,
        orientation: Int, preview made: VIPSImage?, to outputs: PageOutputPaths
    ) throws -> PageResult {
        var page = try image.inMemory()  // a split half: a crop, or deskewed again
        // Rendered once into memory (a few MB): written, then shrunk again for the thumbnail.
        var preview =
            try made?.inMemory()
            ?? StageProfile.measure("4 preview resize") {
                try shrink(page, inside: renditions.previewSize)
            }
        // Clean-up: scanner edges (looked for on the preview) and tones; the preview is made
        // again from the cleaned page only when something changed.
        let cleaner = PageCleaner(options: clean)
        let edges =
            corrected.kind == .perspective
            ? nil
            : try StageProfile.measure("3a edges") { try cleaner.edges(in: preview) }
        if edges != nil || clean.changesTones {
            // Edges alone change only the rows they fill: the preview (made by `Resampler` from
            // the 8-bit page in memory) is made again only where its filter reaches them.
            let changed = cleaner.changedRows(of: page, edges: edges)
            page = try StageProfile.measure("3b clean") { try cleaner.apply(page, edges: edges) }
            // Counted in its stage too: it was the costly one while a cleaned page was lazy.
            preview = try StageProfile.measure("4 preview resize") {
                try changed.flatMap { try page.resampled(toFit: renditions.previewSize, from: preview, changed: $0) }
                    ?? shrink(page, inside: renditions.previewSize)
            }
        }
        let dpi = PageDPI.of(
            page: page.width, page.height, correction: corrected.kind, paper: correction.paper,
            sourceDPI: sourceDPI(source, format: format), orientation: orientation)
        // Encode page, preview and thumbnail.
        try StageProfile.measure("3 encode page") {
            try write(page, to: outputs.page, dpi: dpi, oneBit: clean.mode == .bw)
        }
        try StageProfile.measure("5 encode preview") {
            try write(preview, to: outputs.preview, dpi: dpi, pageWidth: page.width)
        }
        let small = try StageProfile.measure("6 thumbnail resize") {
            try shrink(
                renditions.thumbnailSize <= renditions.previewSize ? preview : page, inside: renditions.thumbnailSize)
        }
        try StageProfile.measure("7 encode thumbnail") {
            try write(small, to: outputs.thumbnail, dpi: dpi, pageWidth: page.width)
        }
        // 8. The text, read from the written page file (what viewers, the PDF and the tesseract
        //    command see). Tesseract is told the resolution it would read from that file itself
        //    (leptonica's reading): a PNG's pHYs, a JPEG's JFIF density, but not EXIF or WebP
        //    resolutions, where it estimates one from the text height, so the words are the
        //    command's (Tests/python/test_ocr.py).
        var text: PageTextRecord?
        if let ocr, let hocr = outputs.hocr, let txt = outputs.txt {
            let stated =
                renditions.format == .png
                ? dpi?.y : renditions.format == .jpeg ? JFIFDensity.read(path: outputs.page) : nil
            text = try StageProfile.measure("8 ocr") {
                try PageTextReader(options: ocr).read(pageFile: outputs.page, dpi: stated, hocrPath: hocr, txtPath: txt)
            }
        }
        // The page's record.
        var record = corrected
        record.edgeFill = edges?.share
        var result = PageResult(
            source: source, format: format, orientation: orientation,
            width: page.width, height: page.height, correction: record, files: outputs,
            dpi: dpi,
            previewSize: PixelSize(width: preview.width, height: preview.height),
            thumbnailSize: PixelSize(width: small.width, height: small.height))
        result.text = text
        return result
    }

    /// The thumbnail of an uncorrected page straight from the file, with libvips's
    /// shrink-on-load where the format has one (JPEG DCT scaling, PDF rendered small, WebP
    /// scaled, HEIF): far cheaper than decoding the full-size pixels (`--thumbnails-only`).
    /// PNGs and TIFFs are shrunk as they stream from the loader a full run uses.
    func thumbnail(of page: VIPSImage, source: PageSource, format: SourceFormat, corrected: Bool) throws -> VIPSImage {
        let size = renditions.thumbnailSize
        if corrected { return try fit(page, inside: size) }
        // PNGs and TIFFs are opened as a full run opens them (failing on truncation, watched
        // for failed reads; a TIFF page at its own directory) and shrunk as they stream: refused
        // where a full run refuses them, which vips_thumbnail's own loader is not. A PNG has no
        // shrink-on-load, so this costs what vips_thumbnail would. A TIFF's only one is a
        // pyramid, and vips_thumbnail takes any TIFF whose pages halve in size for one: it
        // shrank another page than the one asked for, and never read the page's own pixels
        // (PagePipelineThumbnailOnlyTests). The box is square, so turning the small copy
        // upright fits it as well.
        if format == .png || format == .tiff {
            let (opened, _) = try TIFFDirectories.load(
                source, format: format,
                options: .init(page: format == .tiff ? source.page : nil, sequential: true, failOn: .truncated))
            let small = try opened.thumbnail(width: size, height: size).autorotated()
            return try small.displayReady(keepGray: page.isGray, background: 255)
        }
        // The rest through vips_thumbnail, whose loader fails on truncation and is watched for
        // failed reads (cvips_thumbnail); JPEGs are checked by JPEGDraft before they get here.
        var options: [String] = []
        if format.isMultiPage { options.append("page=\(source.page)") }
        if format == .pdf { options.append("dpi=\(source.dpi)") }
        let small = try VIPSImage.thumbnail(
            file: source.path, width: size, height: size,
            loaderOptions: options.isEmpty ? nil : options.joined(separator: ","))
        return try small.displayReady(keepGray: page.isGray, background: 255)
    }

    /// `page` turned `turn` degrees clockwise (0, 90, 180, 270) as a corrections file asks, its
    /// record saying so; a straightened photo's quad is renamed to the turned page's corners, so
    /// a split half still maps back into the source.
    static func turned(_ page: VIPSImage, record: CorrectionRecord, by turn: Int) throws -> (
        VIPSImage, CorrectionRecord
    ) {
        var record = record
        record.rotation = turn
        record.rotationConfidence = nil
        let turns = turn / 90
        guard turns % 4 != 0 else { return (page, record) }
        if record.kind == .perspective, let quad = record.quad {
            record.quad = PageCorrector.quarterTurned(quad, turns: turns)
        }
        return (try page.rotated(quarterTurns: turns), record)
    }

    /// Writes the review's capture to `path` (atomically, JPEG): the detection copy, the whole
    /// source as it comes, EXIF orientation applied, averaged down by a whole factor to at most
    /// `DetectionCopy.longSide` px (enough to place corners to a few source pixels; made from
    /// the decoded frame already in memory, it costs only its encoding).
    /// - Returns: the capture's pixel size, and the source pixels it covers (its size times the
    ///   averaging factor: the few rows and columns a whole factor leaves over are not in it).
    func writeCapture(_ copy: DetectionCopy, to path: String) throws -> (size: PixelSize, covers: PixelSize) {
        let image = try VIPSImage.fromPixels(copy.pixels, width: copy.width, height: copy.height, bands: copy.bands)
        do {
            try AtomicFile.write(to: path) { temporary in
                try image.save(to: temporary, options: .init(format: .jpeg, quality: 80))
            }
        } catch let error as AtomicFileError {
            throw ImagingError(.writeFailed, path: path, reason: "cannot be written (\(error.reason))")
        }
        let covers = PixelSize(
            width: Int((Double(copy.width) * copy.scaleX).rounded()),
            height: Int((Double(copy.height) * copy.scaleY).rounded()))
        return (PixelSize(width: copy.width, height: copy.height), covers)
    }

    /// A rendition of `image` inside a `size` x `size` square (never enlarged), in memory:
    /// with `Resampler` when the pixels are already in memory (a warped page, a preview),
    /// else streamed through libvips (lazy views of a frame: rotated or deskewed pages), so no
    /// full-size copy of the page is made just to shrink it.
    func shrink(_ image: VIPSImage, inside size: Int) throws -> VIPSImage {
        // A page alone in the process has the cores to itself (libvips got them all).
        if let fast = try image.resampled(toFit: size, parallel: ImagingRuntime.pageSplitsAcrossCores) { return fast }
        return try fit(image, inside: size).materialized()
    }

    /// Fits an already-decoded image inside a `size` x `size` square, never enlarging it.
    func fit(_ image: VIPSImage, inside size: Int) throws -> VIPSImage {
        if image.width <= size && image.height <= size { return image }
        return try image.fitted(inside: size).displayReady(keepGray: image.isGray, background: 255)
    }

    /// What `source` states about its resolution (`PageResolution.ofSource`); TIFF, WebP and
    /// HEIF headers are opened again here (lazily: no pixel is decoded).
    func sourceDPI(_ source: PageSource, format: SourceFormat) -> Resolution? {
        PageResolution.ofSource(source, format: format) {
            try? TIFFDirectories.load(
                source, format: format, options: .init(page: format.isMultiPage ? source.page : nil)
            ).0
        }
    }

    /// Writes `image` to `path` atomically. A rendition of a page `pageWidth` pixels wide
    /// carries the page's resolution scaled to its own width, so it describes the same sheet.
    func write(_ image: VIPSImage, to path: String, dpi: Resolution? = nil, pageWidth: Int? = nil, oneBit: Bool = false)
        throws
    {
        var options = renditions.saveOptions
        options.oneBit = oneBit
        if let dpi {
            options.dpi = pageWidth.map { $0 > 0 ? dpi.scaled(by: Double(image.width) / Double($0)) : dpi } ?? dpi
        }
        do {
            try AtomicFile.write(to: path) { temporary in
                try image.save(to: temporary, options: options)
            }
        } catch let error as AtomicFileError {
            throw ImagingError(.writeFailed, path: path, reason: "cannot be written (\(error.reason))")
        }
    }
}
