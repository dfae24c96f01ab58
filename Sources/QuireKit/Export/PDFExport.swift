import Foundation
import QuireImaging
import VipsBridge

/// What `quire pdf OUT` (and `quire process ... --pdf`) writes: one PDF of the batch.
public struct PDFExportOptions: Sendable, Equatable, Codable {
    /// The PDF's path; nil = `OUT/pages.pdf`.
    public var output: String?
    /// Document title; nil = the output folder's name.
    public var title: String?
    public var author: String?
    /// `--dpi`: every page at this resolution, whatever the page says.
    public var dpi: Double?
    /// `--paper`: the paper of pages without a resolution (corrected photos); nil = A4 width.
    public var paper: PaperSize?
    /// ISO 8601 creation date (`--creation-date`); nil writes none, so reruns give identical bytes.
    public var creationDate: String?
    /// Rewrite the PDF even when nothing changed.
    public var force: Bool
    /// `--pdfa`: write PDF/A-2b (XMP metadata, an sRGB output intent, fonts embedded).
    public var pdfA: Bool

    /// The options of `quire pdf`; every field defaults to what the command does without options.
    public init(
        output: String? = nil, title: String? = nil, author: String? = nil, dpi: Double? = nil,
        paper: PaperSize? = nil, creationDate: String? = nil, force: Bool = false, pdfA: Bool = false
    ) {
        self.output = output
        self.title = title
        self.author = author
        self.dpi = dpi
        self.paper = paper
        self.creationDate = creationDate
        self.force = force
        self.pdfA = pdfA
    }
}

/// The outcome of a PDF export.
public struct PDFExportResult: Sendable, Equatable {
    /// The PDF written (or kept).
    public var path: String
    /// Pages in the PDF.
    public var pageCount: Int
    /// Pages whose JPEG bytes went in as they are, and pages embedded losslessly from pixels.
    public var passedThrough: Int
    public var lossless: Int
    /// True when the PDF was already up to date and left alone.
    public var reused: Bool
    /// Pages that got an invisible text layer (from their hOCR file).
    public var textPages: Int = 0
    /// One line per page that could not be added (file and reason); those pages are left out.
    public var failures: [String]
}

/// Writes the pages of a finished output folder as one PDF, one page at a time.
///
/// Reads only OUT (layout.json and the page files), so it works on an old OUT and after
/// `quire merge`. Pages come in batch order, each the size `PDFPageSize` gives it; a JPEG page is
/// embedded byte for byte, any other page losslessly; one bookmark opens each source file's first
/// page. The file is written to a temporary name and renamed into place, and a rerun over
/// unchanged pages with the same options keeps the existing file (`ExportStamp`).
///
/// Memory: one page's file (JPEG) or pixels (other formats) at a time, whatever the page count.
public enum PDFExport {
    /// The default file name inside OUT.
    public static let defaultFileName = "pages.pdf"
    /// Bumped whenever the same pages and options would give another file, so a newer Quire
    /// rewrites PDFs an older one made.
    static let formatVersion = 3
    /// Written as the PDF's Creator; the Producer is `PDFDocumentWriter.producer`.
    public static let creator = "Quire"

    /// - Parameters:
    ///   - folder: OUT, as written by `quire process` or `quire merge`.
    ///   - options: the output file, document information and page-size rules.
    ///   - progress: called after each page with (pages done, page count).
    /// - Throws: `OutputFolderError` when OUT has no usable layout.json, `ProcessError` when
    ///   another run holds OUT, `ExportError` when the PDF cannot be written or no page could be
    ///   added (nothing is then left under the PDF's name).
    public static func run(
        folder: String, options: PDFExportOptions,
        progress: (Int, Int) -> Void = { _, _ in }
    ) throws -> PDFExportResult {
        let url = URL(fileURLWithPath: folder)
        let out = try OutputFolder(url: url)
        let lock = try OutputLock(output: folder)
        defer { lock.release() }
        let pages = out.pages
        let output = options.output ?? url.appendingPathComponent(defaultFileName).path
        AtomicFile.removeAbandoned(in: (output as NSString).deletingLastPathComponent)
        let title = options.title ?? Self.folderTitle(url)
        let layoutFile = url.appendingPathComponent(Processor.layoutFileName)

        var fingerprint = ExportStamp.Builder(options: stampText(options, title: title))
        fingerprint.addContents(layoutFile.path)
        for page in pages {
            fingerprint.addFile(out.path(page.files.page))
            if let hocr = textFile(page, in: out) { fingerprint.addFile(hocr) }
        }
        let inputs = fingerprint.finish()
        let stampPath = Self.stampPath(folder: url, output: output)
        if !options.force, ExportStamp.isCurrent(ExportStamp.read(stampPath), inputs: inputs, output: output) {
            return PDFExportResult(
                path: output, pageCount: pages.count, passedThrough: 0, lossless: 0, reused: true, failures: [])
        }

        let recorded = PageDPIRecords.read(layoutFile)
        var result = PDFExportResult(
            path: output, pageCount: 0, passedThrough: 0, lossless: 0, reused: false, failures: [])
        do {
            try AtomicFile.write(to: output) { temporary in
                let writer = try PDFDocumentWriter(
                    path: temporary,
                    info: .init(
                        title: title, author: options.author, creator: creator, creationDate: options.creationDate),
                    conformance: options.pdfA ? .pdfA2b : .plain)
                var finished = false
                defer { if !finished { writer.abandon() } }
                var lastSource: String?
                for (done, page) in pages.enumerated() {
                    defer { progress(done + 1, pages.count) }
                    let path = out.path(page.files.page)
                    do {
                        let added = try add(
                            page: page, path: path, text: textFile(page, in: out), to: writer,
                            options: options, recorded: recorded[page.index])
                        if added.passedThrough { result.passedThrough += 1 } else { result.lossless += 1 }
                        if added.text { result.textPages += 1 }
                    } catch {
                        result.failures.append("\(page.files.page): \(error)")
                        continue
                    }
                    if page.source != lastSource {
                        writer.addBookmark(bookmarkTitle(page), page: writer.pageCount)
                        lastSource = page.source
                    }
                }
                result.pageCount = writer.pageCount
                guard writer.pageCount > 0 else {
                    throw ExportError(path: output, reason: "no page could be added")
                }
                try writer.close()
                finished = true
            }
        } catch let error as ExportError {
            throw error
        } catch {
            throw ExportError(path: output, reason: "\(error)")
        }
        // A IIIF export that publishes the PDF gets the new one at once.
        if options.output == nil,
            FileManager.default.fileExists(
                atPath: url.appendingPathComponent("\(IIIFExport.folderName)/\(defaultFileName)").path)
        {
            IIIFExport.linkPublishedPDF(out: url.path)
        }
        if result.failures.isEmpty {
            try? ExportStamp(inputs: inputs, output: output).write(to: stampPath)
        } else {
            try? FileManager.default.removeItem(atPath: stampPath)
        }
        return result
    }

    /// Adds one page with its text layer (when `text` names a readable hOCR file).
    /// - Returns: whether the JPEG bytes went in as they are, and whether the page got text.
    static func add(
        page: LayoutReport.Page, path: String, text: String?, to writer: PDFDocumentWriter,
        options: PDFExportOptions, recorded: PageResolution.DPI?
    ) throws -> (passedThrough: Bool, text: Bool) {
        func placement(_ width: Int, _ height: Int) throws -> PDFPagePlacement {
            guard
                let size = PDFPageSize.make(
                    pixelWidth: width, pixelHeight: height, givenDPI: options.dpi,
                    pageDPI: recorded ?? PageResolution.read(path: path), paper: options.paper)
            else {
                throw ExportError(path: path, reason: "empty image")
            }
            return PDFPagePlacement(
                pageWidth: size.width, pageHeight: size.height, x: size.imageX, y: size.imageY,
                width: size.imageWidth, height: size.imageHeight)
        }
        // A text file that cannot be read costs the page its text layer, not the page itself.
        let words = text.flatMap { FileManager.default.contents(atPath: $0) }.flatMap {
            try? HOCRReader.read(Array($0))
        }
        if let jpeg = JPEGFrameHeader.read(path: path), jpeg.embeddable {
            try writer.addPage(
                .jpeg(path: path, width: jpeg.width, height: jpeg.height, components: jpeg.components),
                placement: try placement(jpeg.width, jpeg.height), text: words)
            return (true, words != nil)
        }
        let image = try VIPSImage.load(file: path).autorotated().displayReady(keepGray: true)
        try writer.addPage(
            .pixels(try image.pixelBytes(), width: image.width, height: image.height, bands: image.bands),
            placement: try placement(image.width, image.height), text: words)
        return (false, words != nil)
    }

    /// The hOCR file of a page: the one layout.json records (`quire process --ocr`), else
    /// `text/NNNN.hocr` beside `pages/NNNN.jpg` when one was put there; nil when there is none.
    static func textFile(_ page: LayoutReport.Page, in out: OutputFolder) -> String? {
        let stem = ((page.files.page as NSString).lastPathComponent as NSString).deletingPathExtension
        for relative in [page.text?.hocr, "text/\(stem).hocr"].compactMap({ $0 }) {
            // layout.json is read from outside: its path must stay inside OUT.
            guard !relative.hasPrefix("/"), !relative.split(separator: "/").contains("..") else { continue }
            let path = out.path(relative)
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }

    /// A bookmark names the source file, and the page inside it when it has several.
    static func bookmarkTitle(_ page: LayoutReport.Page) -> String {
        page.sourcePage > 0 ? "\(page.source) (page \(page.sourcePage + 1))" : page.source
    }

    /// The folder's own name (`out` for `./out/`), used as the default title.
    static func folderTitle(_ url: URL) -> String {
        let resolved = url.standardizedFileURL.resolvingSymlinksInPath()
        let name = resolved.lastPathComponent
        return name.isEmpty || name == "/" ? "Quire" : name
    }

    /// Where the stamp of the PDF at `output` lives: `OUT/.quire/pdf-<hash of the path>.stamp`.
    static func stampPath(folder: URL, output: String) -> String {
        let absolute = URL(fileURLWithPath: output).standardizedFileURL.path
        return folder.appendingPathComponent(InputDiscovery.stateFolderName)
            .appendingPathComponent("pdf-\(ContentHash.of(absolute)).stamp").path
    }

    private static func stampText(_ options: PDFExportOptions, title: String) -> String {
        var o = options
        o.force = false
        o.title = title
        let json = (try? JSONOutput.encode(o, .hashInput)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return "pdf/\(formatVersion) \(json)"
    }
}

/// An export that cannot be written, with the file and the reason.
public struct ExportError: Error, CustomStringConvertible, Sendable, Equatable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
