import ArgumentParser
import Foundation
import QuireKit
import Synchronization

/// `quire process INPUT... -o OUT`: pages, previews, thumbnails and layout.json.
struct ProcessCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "process",
        abstract: "Turn image files and folders into pages, previews, thumbnails and layout.json.",
        discussion: """
            Folders are walked recursively in natural order (page2 before page10), skipping hidden \
            files, files without an image or PDF extension, and OUT itself. Every page of a multi-page TIFF or PDF \
            becomes a page. Rerunning the same command resumes: pages whose input and options are \
            unchanged are reused from OUT/.quire/manifest (--force redoes everything). Ctrl-C stops \
            after the pages in flight and keeps them for the rerun. Exit status: 0 when every page was \
            written, 1 when some input failed (each failure is one line on stderr and an entry in \
            layout.json's errors), or when the disk fills up or another run holds OUT (OUT is then \
            left as before), 2 for usage errors, 130 when interrupted.
            """)

    @Argument(help: "Image files (JPEG, PNG, TIFF, WebP, HEIF, GIF, PDF) and folders of them.")
    var inputs: [String] = []

    @Option(name: [.customShort("o"), .customLong("output")], help: "The output folder (created when missing).")
    var output: String

    @Option(help: "Previews fit inside a square of this many pixels.")
    var previewSize: Int = 1600

    @Option(help: "Thumbnails fit inside a square of this many pixels.")
    var thumbSize: Int = 256

    @Option(help: "Output encoding: jpeg, png or webp.")
    var format: OutputFormat = .jpeg

    @Option(help: "JPEG/WebP quality, 1-100.")
    var quality: Int = 85

    @Flag(help: "JPEG: optimised Huffman tables, about 7% smaller files for ~15 ms more CPU per page.")
    var optimizeCoding = false

    @Option(help: "Resolution PDF pages are rendered at.")
    var dpi: Double = 200

    @Option(
        help: ArgumentHelp(
            "Refuse pages with more pixels than this (checked from the header, before decoding); suffixes K, M, G. (default: \(PixelCount(ProcessJob.defaultMaxPixels)))",
            valueName: "pixels"), transform: PixelCount.init(parsing:))
    var maxPixels = PixelCount(ProcessJob.defaultMaxPixels)

    @Option(help: "Pages processed at once (default: the number of cores).")
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            "The reference viewport layout.json's geometry is computed for, in points. (default: 390x844)",
            valueName: "WxH"), transform: ViewportSize.init(parsing:))
    var viewport = ViewportSize(width: 390, height: 844)

    @Option(help: "Height of the thumbnail strip in the viewport, in points (at most 1000000).")
    var stripHeight: Double = 66

    @Option(help: "Page correction: auto (straighten photos, deskew scans) or none.")
    var correct: CorrectionOptions.Mode = .auto

    @Option(help: "Paper size hint for correction: auto, a4, letter or legal.")
    var paper: CorrectionOptions.Paper = .auto

    @Option(
        help:
            "Pages scanned sideways or upside down, photos taken sideways: auto (turn them upright, with Tesseract's orientation detection when it is installed) or none."
    )
    var rotate: CorrectionOptions.Rotate = .auto

    @Option(
        help:
            "Open books (a photo or scan of two facing pages): auto (write each page as its own page, in reading order) or none (keep the spread as one page)."
    )
    var split: SplitOptions.Mode = .auto

    @Option(
        help:
            "Reading order of a split book's pages: ltr (left page first) or rtl (right page first, for right-to-left books)."
    )
    var splitOrder: SplitOptions.Order = .ltr

    @Option(
        help:
            "Scanner edges (dark bars and shadows along a scan's border): auto (fill them with the paper colour) or keep."
    )
    var edges: CleanOptions.Edges = .auto

    @Option(
        help: "Paper tone: keep, or white (normalise the paper to white, evening out light; pictures keep their tones)."
    )
    var background: CleanOptions.Background = .keep

    @Option(help: "Colours written: colour, grey, or bw (black and white: a 1-bit PNG, or a small grey JPEG/WebP).")
    var mode: CleanOptions.Mode = .colour

    @Option(
        help: ArgumentHelp(
            "User-corrected page corners: a JSON object mapping file names (or name#page, 1-based) to [[x,y] x 4] in display pixels, TL, TR, BR, BL; used instead of detection.",
            valueName: "file.json"), transform: CornersFile.init(contentsOf:))
    var corners: CornersFile?

    @Option(
        help: ArgumentHelp(
            "The review's corrections: per page corners, rotate (0/90/180/270), split (true/false/0.2-0.8), exclude; a rerun into the same OUT redoes only the pages whose entry changed (docs/processing.md#corrections).",
            valueName: "file.json"))
    var corrections: String?

    @Flag(
        help: "Also write masks/NNNN.png: an 8-bit mask of the page region in the source image (255 inside the quad).")
    var masks = false

    @Flag(
        help:
            "Read each page's text with Tesseract: OUT/text/NNNN.hocr (words, lines and boxes in the page's pixels) and OUT/text/NNNN.txt."
    )
    var ocr = false

    @Option(
        help: ArgumentHelp(
            "With --ocr: the languages of the text, Tesseract's names joined by + (eng+deu); repeatable. Default: eng.",
            valueName: "languages"))
    var lang: [String] = []

    @Flag(help: "Redo every page, ignoring what a previous run in OUT already finished.")
    var force = false

    @Option(
        help: "Progress: auto (a bar on a terminal, nothing otherwise), json (one line per page on stdout) or none.")
    var progress: ProgressReporter.Style = .auto

    @Option(
        help: ArgumentHelp(
            "Give up on a page (or a file's header) after this many seconds; 0 = no limit.", valueName: "seconds"))
    var pageTimeout: Double = ProcessJob.defaultPageTimeout

    @Flag(help: "Also decode SVG and formats only ImageMagick knows (refused by default: a scanner never makes them).")
    var allowUntrustedFormats = false

    @Flag(
        help: ArgumentHelp(
            "Write only thumbnails (OUT/thumbs) and layout.json, from shrink-on-load, without correction; files.page and files.preview name the thumbnail."
        ))
    var thumbnailsOnly = false

    @Option(
        help: ArgumentHelp(
            "Process only share K of N of the inputs (by a stable hash of each input's name) into this OUT; combine the N outputs with `quire merge`.",
            valueName: "K/N"), transform: ShardSelector.init(parsing:))
    var shard: ShardSelector?

    @Option(help: "Web viewer: web (write OUT/index.html, quire-viewer/ and layout.js) or none.")
    var viewer: ViewerChoice = .web

    @Option(
        name: .customLong("pdf"), defaultAsFlag: "", parsing: .next,
        help: ArgumentHelp(
            "After the batch, also write one PDF of the pages (as `quire pdf OUT`): OUT/pages.pdf, or FILE with --pdf=FILE.",
            valueName: "file"))
    var pdf: String? = nil

    @OptionGroup(title: "PDF (with --pdf; --paper also sizes pages without a resolution)") var pdfOptions: PDFOptions

    @Option(
        name: .customLong("iiif"),
        help: ArgumentHelp(
            "After the batch, also write IIIF tiles and a manifest under OUT/iiif (as `quire iiif OUT --base-url URL`), for OUT/iiif served at this http(s) address.",
            valueName: "base-url"))
    var iiif: String?

    @OptionGroup(title: "IIIF (with --iiif)") var iiifOptions: IIIFOptions

    @Flag(name: .shortAndLong, help: "Print only failures.")
    var quiet = false

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("Give at least one input file or folder.") }
        guard ProcessJob.Limits.renditionSide.contains(previewSize) else {
            throw ValidationError("--preview-size must be 1-65500 pixels, not \(previewSize).")
        }
        guard ProcessJob.Limits.renditionSide.contains(thumbSize) else {
            throw ValidationError("--thumb-size must be 1-65500 pixels, not \(thumbSize).")
        }
        guard ProcessJob.Limits.quality.contains(quality) else {
            throw ValidationError("--quality must be 1-100, not \(quality).")
        }
        guard dpi.isFinite, ProcessJob.Limits.pdfDPI.contains(dpi) else {
            throw ValidationError("--dpi must be 10-2400, not \(dpi).")
        }
        if let jobs, !ProcessJob.Limits.jobs.contains(jobs) {
            throw ValidationError("--jobs must be 1-256, not \(jobs).")
        }
        // Bounded like a --viewport side, so the layout.json written reads back (docs/layout-json.md#ranges).
        guard stripHeight.isFinite, stripHeight > 0, stripHeight <= ViewportSize.maximumSide else {
            throw ValidationError(
                "--strip-height must be positive and at most \(Int(ViewportSize.maximumSide)) points, not \(stripHeight)."
            )
        }
        guard !output.isEmpty else { throw ValidationError("--output must not be empty.") }
        if let corrections {
            do { _ = try CorrectionsFile(contentsOf: corrections) } catch {
                throw ValidationError("--corrections: \(error)")
            }
        }
        guard pageTimeout.isFinite, pageTimeout >= 0 else {
            throw ValidationError("--page-timeout must be 0 or more seconds, not \(pageTimeout).")
        }
        if !lang.isEmpty && !ocr { throw ValidationError("--lang reads text: give it with --ocr.") }
        // Languages are checked only where Tesseract's models are: without them the batch runs
        // without OCR and says so once.
        if ocr, !TesseractEngines.readableLanguages.isEmpty,
            let problem = OCROptions.problem(with: languages, installed: TesseractEngines.readableLanguages)
        {
            throw ValidationError("--lang: \(problem).")
        }
        if let iiif, iiifOptions.options(baseURL: iiif).normalizedBaseURL == nil {
            throw ValidationError("--iiif must be an absolute http:// or https:// address, not '\(iiif)'.")
        }
    }

    /// The PDF export's options: `--title` (else the one input folder's name, else OUT's),
    /// `--paper` for pages without a resolution. `--dpi` is not passed on: here it is the
    /// render resolution of PDF inputs, not a page size.
    var pdfExport: PDFExportOptions? {
        guard let pdf else { return nil }
        var options = (try? pdfOptions.options(output: pdf.isEmpty ? nil : pdf, force: force)) ?? PDFExportOptions()
        options.title = options.title ?? inputFolderTitle
        options.paper = PaperSize(rawValue: paper.rawValue)
        return options
    }

    /// The IIIF export's options; the label defaults to the PDF title's rule.
    var iiifExport: IIIFExportOptions? {
        guard let iiif else { return nil }
        var options = iiifOptions.options(baseURL: iiif, force: force)
        options.label = options.label ?? pdfOptions.title ?? inputFolderTitle
        return options
    }

    /// The name of the input folder when the batch is one folder (`quire process scans/contract`).
    var inputFolderTitle: String? {
        guard inputs.count == 1 else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: inputs[0], isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        let name = URL(fileURLWithPath: inputs[0]).standardizedFileURL.resolvingSymlinksInPath().lastPathComponent
        return name.isEmpty || name == "/" ? nil : name
    }

    /// `--lang`, each value split at `+`, in order and without repeats; `eng` when not given.
    var languages: [String] {
        var seen = Set<String>()
        let given = lang.flatMap { $0.split(separator: "+", omittingEmptySubsequences: false).map(String.init) }
        let unique = given.filter { seen.insert($0).inserted }
        return unique.isEmpty ? ["eng"] : unique
    }

    /// The job these options describe (after `validate()`).
    var job: ProcessJob {
        var job = ProcessJob(
            inputs: inputs, outputDirectory: output,
            renditions: RenditionOptions(
                format: format, quality: quality, previewSize: previewSize, thumbnailSize: thumbSize,
                optimizeCoding: optimizeCoding),
            correction: CorrectionOptions(mode: correct, paper: paper, rotate: rotate),
            dpi: dpi, maxPixels: maxPixels.value, jobs: jobs,
            viewport: LayoutReport.Viewport(width: viewport.width, height: viewport.height, stripHeight: stripHeight),
            force: force, pageTimeout: pageTimeout > 0 ? pageTimeout : nil,
            allowUntrustedFormats: allowUntrustedFormats,
            corners: corners, masks: masks)
        // An entry of --corrections wins over --corners for the page it names.
        job.corrections = corrections.flatMap { try? CorrectionsFile(contentsOf: $0) }
        job.correctionsPath = corrections
        job.clean = CleanOptions(edges: edges, background: background, mode: mode)
        job.thumbnailsOnly = thumbnailsOnly
        job.split = SplitOptions(mode: split, order: splitOrder)
        job.shard = shard
        job.ocr = ocr ? OCROptions(languages: languages) : nil
        return job
    }

    func run() throws {
        let quiet = quiet
        let style = progress
        let summary: ProcessSummary
        // Each failure is reported as one line below; libvips's own warnings would bury them.
        ImagingRuntime.silenceDecoderWarnings()
        if let note = tesseractNote {
            var standardError = StandardError()
            print("quire: note: " + note, to: &standardError)
        }
        if ocr {
            ImagingRuntime.keepOCRBuffersInHeap()
        } else if !thumbnailsOnly {
            ImagingRuntime.keepPageBuffersInHeap()
        }
        let stop = BatchStop()
        let signals = Self.stopOnSignals(stop)
        let bar = ProgressBox()
        do {
            summary = try Processor.run(job, stop: stop) { event in
                switch event {
                case .started(let count):
                    bar.start(style: style, pages: count)
                case .pageWritten(let source, let page, _, _):
                    bar.reporter?.pageFinished(source: source, sourcePage: page, status: .ok)
                case .pageReused(let source, let page, _, _):
                    bar.reporter?.pageFinished(source: source, sourcePage: page, status: .skipped)
                case .failed(let error):
                    bar.failed(error)
                    do {
                        bar.reporter?.clearLine()
                        var standardError = StandardError()
                        print("quire: \(error.line)", to: &standardError)
                    }
                }
            }
        } catch {
            bar.reporter?.finish()
            var standardError = StandardError()
            print("quire: \(error)", to: &standardError)
            throw ExitCode(1)
        }
        withExtendedLifetime(signals) {}
        bar.reporter?.finish()
        var standardError = StandardError()
        if viewer == .web, !summary.interrupted,
            FileManager.default.fileExists(
                atPath: URL(fileURLWithPath: output).appendingPathComponent("layout.json").path)
        {
            do {
                for warning in try ViewerWriter.write(into: URL(fileURLWithPath: output)) {
                    print("quire: \(warning)", to: &standardError)
                }
            } catch {
                print("quire: viewer not written: \(error)", to: &standardError)
            }
        }
        if !quiet || summary.interrupted {
            print("quire: " + Self.summaryLine(summary, output: output), to: &standardError)
        }
        if summary.interrupted { throw ExitCode(130) }
        // Exports read the finished OUT, as `quire pdf` / `quire iiif` would; a failed export
        // makes the exit status 1 but does not stop the other one.
        var exportFailed = false
        let hasLayout = FileManager.default.fileExists(
            atPath: URL(fileURLWithPath: output).appendingPathComponent("layout.json").path)
        if hasLayout, summary.pageCount > 0 {
            if let options = pdfExport {
                do {
                    try PDFCommand.export(folder: output, options: options, quiet: quiet, command: "quire: pdf")
                } catch { exportFailed = true }
            }
            if let options = iiifExport {
                do {
                    try IIIFCommand.export(folder: output, options: options, quiet: quiet, command: "quire: iiif")
                } catch { exportFailed = true }
            }
        }
        if !summary.succeeded || exportFailed { throw ExitCode(1) }
    }

    /// The one line said before a batch that wants Tesseract (`--rotate auto`, `--ocr`) where
    /// its models are missing (or `QUIRE_NO_TESSERACT=1`): what is off and what to install.
    var tesseractNote: String? {
        guard !thumbnailsOnly else { return nil }
        let wantsOrientation = rotate == .auto && correct == .auto
        let orientationOff = wantsOrientation && !TesseractEngines.detectsOrientation
        let ocrOff = ocr && !TesseractEngines.readsText
        guard orientationOff || ocrOff else { return nil }
        let off =
            [ocrOff ? "OCR" : nil, orientationOff ? "page orientation" : nil].compactMap { $0 }.joined(
                separator: " and ")
            + (orientationOff && ocrOff ? " are off" : " is off")
        if ProcessInfo.processInfo.environment[TesseractEngines.disableVariable] == "1" {
            return "Tesseract is disabled (\(TesseractEngines.disableVariable)=1): \(off)"
        }
        let why =
            TesseractEngines.modelFolder.map {
                "Tesseract's models in \($0) lack \(orientationOff ? "osd" : "a language to read")"
            }
            ?? "Tesseract's models are not installed"
        return "\(why): \(off) (install Debian's tesseract-ocr-eng and tesseract-ocr-osd, or set TESSDATA_PREFIX)"
    }

    /// `18 pages written to OUT (5 reused), 2 failed, 3.2 s, 5.6 pages/s`.
    static func summaryLine(_ summary: ProcessSummary, output: String) -> String {
        let n = summary.pageCount
        var line =
            summary.interrupted
            ? "interrupted: \(n) page\(n == 1 ? "" : "s") done, kept for the rerun in \(output)/.quire"
            : "\(n) page\(n == 1 ? "" : "s") written to \(output)"
        if summary.reusedCount > 0 { line += " (\(summary.reusedCount) reused)" }
        if summary.failureCount > 0 { line += ", \(summary.failureCount) failed (reasons above)" }
        let rate = summary.seconds > 0 ? Double(n) / summary.seconds : 0
        line += String(format: ", %.1f s, %.1f pages/s", summary.seconds, rate)
        return line
    }

    /// Ctrl-C and SIGTERM ask the batch to stop after the pages in flight; a second one exits at once.
    static func stopOnSignals(_ stop: BatchStop) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if stop.request() {
                    FileHandle.standardError.write(
                        Data("\nquire: stopping after the pages in flight (again to quit now)\n".utf8))
                } else {
                    _exit(130)
                }
            }
            source.resume()
            return source
        }
    }
}

/// The progress reporter, made once the page count is known. Inputs that fail before that
/// (unreadable files, found while counting pages) are held and reported first, counted in the
/// total, so `--progress json` has a line for every input as layout.json has an entry.
final class ProgressBox: Sendable {
    private struct State {
        var reporter: ProgressReporter?
        var early: [LayoutReport.PageError] = []
    }
    private let state = Mutex(State())

    func start(style: ProgressReporter.Style, pages: Int) {
        let (reporter, held) = state.withLock { state in
            let reporter = ProgressReporter(style: style, total: pages + state.early.count)
            state.reporter = reporter
            defer { state.early = [] }
            return (reporter, state.early)
        }
        for error in held { Self.report(error, to: reporter) }
    }

    func failed(_ error: LayoutReport.PageError) {
        let reporter: ProgressReporter? = state.withLock { state in
            if state.reporter == nil { state.early.append(error) }
            return state.reporter
        }
        if let reporter { Self.report(error, to: reporter) }
    }

    var reporter: ProgressReporter? { state.withLock { $0.reporter } }

    private static func report(_ error: LayoutReport.PageError, to reporter: ProgressReporter) {
        reporter.pageFinished(
            source: error.source, sourcePage: error.sourcePage ?? 0, status: .failed,
            code: error.code, message: error.message)
    }
}
