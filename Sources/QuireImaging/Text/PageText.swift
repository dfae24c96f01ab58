import Foundation
import TesseractBridge
import VipsBridge

/// `--ocr`: which languages a page's text is read in.
public struct OCROptions: Sendable, Hashable, Codable {
    /// Tesseract language names (`eng`, `deu`, ...), in the order given; the first is tried first.
    public var languages: [String]

    /// Text read in `languages` (English by default, as the `tesseract` command).
    public init(languages: [String] = ["eng"]) {
        self.languages = languages
    }

    /// The languages as Tesseract takes them and layout.json records them: `eng+deu`.
    public var language: String { languages.joined(separator: "+") }

    /// Why `languages` cannot be read with the models installed (one line listing those that
    /// are), nil when they can.
    public static func problem(with languages: [String], installed: [String]) -> String? {
        guard !languages.isEmpty else { return "no language given" }
        if let bad = languages.first(where: {
            !$0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } || $0.isEmpty
        }) {
            return "'\(bad)' is not a language name (e.g. eng, deu, eng+deu)"
        }
        let missing = languages.filter { !installed.contains($0) || $0 == "osd" }
        guard !missing.isEmpty else { return nil }
        let have =
            installed.isEmpty
            ? "none (install Debian's tesseract-ocr-eng, tesseract-ocr-deu, ...)" : installed.joined(separator: ", ")
        return
            "language\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) not installed; installed: \(have)"
    }
}

/// What `--ocr` read on one page (layout.json's `text` besides the file names).
public struct PageTextRecord: Sendable, Hashable, Codable {
    /// The languages it was read in, as Tesseract names them (`eng+deu`).
    public var language: String
    /// The mean of the words' confidences (0-100), nil when no word was found.
    public var meanConfidence: Double?
    /// How many words were found.
    public var words: Int

    /// The record of a page read in `language`.
    public init(language: String, meanConfidence: Double?, words: Int) {
        self.language = language
        self.meanConfidence = meanConfidence
        self.words = words
    }
}

/// Reads the text of a written page with Tesseract (in this process, engines reused across
/// pages) and writes it as hOCR and plain text.
///
/// The page is read back from its written file, so the words and boxes are those of the page
/// a viewer, the PDF and IIIF show, in its own pixels at full resolution, and equal what the
/// `tesseract` command reads from that file.
public struct PageTextReader: Sendable {
    public var options: OCROptions

    /// A reader of text in `options.languages`.
    public init(options: OCROptions) {
        self.options = options
    }

    /// Reads the page in `pageFile` and writes its hOCR to `hocrPath` and its text to `txtPath`
    /// (each atomically).
    /// - Parameter dpi: the resolution Tesseract is told, nil to let it estimate one from the
    ///   text height: the one the `tesseract` command reads from the same file (see
    ///   `PagePipeline`), not libvips's reading of the header, which says 72 dpi for a JPEG that
    ///   states none (galfar's F1550.jpg: 73 words read at 72 dpi, 165 with the estimate).
    /// - Returns: the record, or nil without Tesseract (no files are written then).
    /// - Throws: `ImagingError` naming the page when it cannot be read or the files written.
    public func read(pageFile: String, dpi: Double?, hocrPath: String, txtPath: String) throws -> PageTextRecord? {
        guard let engines = TesseractEngines.reader(languages: options.language) else { return nil }
        let reading: TextReading
        do {
            let page = try VIPSImage.load(file: pageFile)
            // A colour page whose pixels are all grey is read as its grey band: the same words,
            // for less of Tesseract's work (`greyWhenNeutral`).
            guard let image = try TextImage.pixels(of: page, dpi: dpi)?.greyWhenNeutral() else {
                throw ImagingError(
                    .tooLarge, path: pageFile,
                    reason: "is too large for text recognition (over \(TextImage.maximumSide) px on a side)")
            }
            reading = try engines.withEngine { try $0.read(image) }
        } catch let error as ImagingError {
            throw error
        } catch {
            throw ImagingError(.decodeFailed, path: pageFile, reason: "text cannot be read (\(error))")
        }
        for (path, text) in [(hocrPath, reading.hocrDocument), (txtPath, reading.text)] {
            do {
                try AtomicFile.write(Data(text.utf8), to: path)
            } catch {
                throw ImagingError(.writeFailed, path: path, reason: "cannot be written (\(error))")
            }
        }
        return PageTextRecord(
            language: options.language, meanConfidence: reading.meanConfidence,
            words: reading.wordConfidences.count)
    }
}
