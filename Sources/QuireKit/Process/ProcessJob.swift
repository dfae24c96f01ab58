import Foundation
import QuireImaging

/// Everything `quire process` does, as one plain value: the inputs, where the results go and
/// how pages are rendered, corrected and laid out. Executed by `Processor.run`.
public struct ProcessJob: Sendable, Equatable, Codable {
    /// Files and folders, in the order given.
    public var inputs: [String]
    /// The output folder (created when missing).
    public var outputDirectory: String
    public var renditions: RenditionOptions
    public var correction: CorrectionOptions
    /// Scanner edges, paper tone and colour mode after correction (`--edges`, `--background`, `--mode`).
    public var clean: CleanOptions = CleanOptions()
    /// Open books: written as two pages or kept whole, and in which order (`--split`, `--split-order`).
    public var split: SplitOptions = SplitOptions()
    /// PDF render resolution.
    public var dpi: Double
    /// Pages over this many pixels are refused from their header.
    public var maxPixels: Int
    /// Pages processed at once; nil = the number of cores.
    public var jobs: Int?
    /// The reference viewport layout.json's geometry is computed for.
    public var viewport: LayoutReport.Viewport
    /// User-corrected page corners (`--corners FILE.json`), used instead of detection.
    public var corners: CornersFile?
    /// The review's corrections (`--corrections FILE`): corners, turns, splits and exclusions
    /// per page; an entry wins over `corners` for the page it names.
    public var corrections: CorrectionsFile? = nil
    /// Where `corrections` was read from (layout.json names it when it lives in OUT).
    public var correctionsPath: String? = nil
    /// Write `captures/NNNN.jpg`, each page's source as it came, for the review (on by default;
    /// never in a thumbnails-only run).
    public var captures: Bool = true
    /// Also write `masks/NNNN.png`: the page region (255 inside the quad) in the source image.
    public var masks: Bool = false
    /// Redo every page, ignoring the resume manifest (`--force`).
    public var force: Bool = false
    /// Seconds one page (or one file's header) may take before it is given up on; nil = no limit.
    public var pageTimeout: Double? = ProcessJob.defaultPageTimeout
    /// Take SVG and ImageMagick-decoded files (off by default: formats a scanner never makes).
    public var allowUntrustedFormats: Bool = false
    /// Process only this share of the inputs (`--shard K/N`); nil = all of them.
    public var shard: ShardSelector? = nil
    /// Write only thumbnails (`--thumbnails-only`), from shrink-on-load, uncorrected.
    public var thumbnailsOnly: Bool = false
    /// `--ocr`: read each page's text into `text/NNNN.hocr` and `text/NNNN.txt`; nil = no OCR.
    public var ocr: OCROptions? = nil

    public static let defaultMaxPixels = 250_000_000
    public static let defaultPageTimeout: Double = 60

    /// A job with Quire's defaults for everything not given (the options of `quire process`).
    public init(
        inputs: [String], outputDirectory: String, renditions: RenditionOptions = RenditionOptions(),
        correction: CorrectionOptions = CorrectionOptions(), dpi: Double = 200,
        maxPixels: Int = ProcessJob.defaultMaxPixels, jobs: Int? = nil,
        viewport: LayoutReport.Viewport = LayoutReport.Viewport(), force: Bool = false,
        pageTimeout: Double? = ProcessJob.defaultPageTimeout, allowUntrustedFormats: Bool = false,
        corners: CornersFile? = nil, masks: Bool = false
    ) {
        self.inputs = inputs
        self.outputDirectory = outputDirectory
        self.renditions = renditions
        self.correction = correction
        self.dpi = dpi
        self.maxPixels = maxPixels
        self.jobs = jobs
        self.viewport = viewport
        self.corners = corners
        self.masks = masks
        self.force = force
        self.pageTimeout = pageTimeout
        self.allowUntrustedFormats = allowUntrustedFormats
    }
}

extension ProcessJob {
    /// The OCR the batch does: `ocr`, unless there are no pages to read (thumbnails only) or
    /// Tesseract cannot read text here (then pages are written without it, as the CLI says once).
    var effectiveOCR: OCROptions? {
        guard let ocr, !thumbnailsOnly, TesseractEngines.readsText else { return nil }
        return ocr
    }

    /// What the corrections (or corners) file says of `page`, nil when nothing.
    func correction(for page: PageSource) -> CorrectionEntry? {
        corrections?.entry(for: page) ?? corners?.quad(for: page).map { CorrectionEntry(corners: $0) }
    }

    /// layout.json's `corrections`: the file's name relative to OUT when it lives in OUT.
    var recordedCorrections: String? {
        guard let path = correctionsPath else { return nil }
        let file = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        let out = URL(fileURLWithPath: outputDirectory).standardizedFileURL.resolvingSymlinksInPath()
        guard file.deletingLastPathComponent().path == out.path else { return nil }
        return file.lastPathComponent
    }

    /// The options layout.json records (`LayoutReport.BatchOptions`).
    var recordedOptions: LayoutReport.BatchOptions {
        LayoutReport.BatchOptions(
            format: renditions.format.rawValue, quality: renditions.quality,
            previewSize: renditions.previewSize, thumbnailSize: renditions.thumbnailSize,
            correct: correction.mode.rawValue, paper: correction.paper.rawValue,
            pdfDPI: dpi, thumbnailsOnly: thumbnailsOnly,
            edges: clean.edges.rawValue, background: clean.background.rawValue, mode: clean.mode.rawValue,
            rotate: correction.rotate.rawValue,
            split: split.mode.rawValue, splitOrder: split.order.rawValue)
    }
}
