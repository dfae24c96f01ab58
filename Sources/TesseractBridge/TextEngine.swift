internal import CTesseract
internal import CTesseractShim
import Foundation
import QuireSync

/// One Tesseract engine with its model loaded: reads the words of a page (OCR) or which way up
/// its text is (orientation and script detection), from pixels in memory.
///
/// Loading a model takes tens to hundreds of milliseconds and tens of megabytes, so an engine
/// is made once and reused for page after page (`TextEnginePool`). An engine is not
/// thread-safe: one thread uses it at a time; separate engines run in parallel.
public final class TextEngine: @unchecked Sendable {
    private let api: OpaquePointer
    /// The languages the engine reads, as Tesseract names them (`eng+deu`, or `osd`).
    public let languages: String

    /// An engine reading `languages` with the models in `models`.
    /// - Throws: `TextEngineError` when Tesseract cannot load them (a missing or corrupt
    ///   `.traineddata` file).
    public init(models: TextModels, languages: String) throws {
        Self.leptonicaQuiet
        guard let api = TessBaseAPICreate() else {
            throw TextEngineError(languages: languages, reason: "Tesseract could not start")
        }
        // Tesseract's progress and warnings ("Estimating resolution as ...") would interleave
        // with the batch's own one-line reports.
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        let loaded = Self.initLock.withLock { _ in TessBaseAPIInit3(api, models.folder, languages) }
        guard loaded == 0 else {
            TessBaseAPIDelete(api)
            throw TextEngineError(languages: languages, reason: "cannot load its models from \(models.folder)")
        }
        self.api = api
        self.languages = languages
    }

    deinit {
        TessBaseAPIEnd(api)
        TessBaseAPIDelete(api)
    }

    /// Engines are loaded one at a time: models are read from disk and parsed into globals
    /// shared by Tesseract's dictionaries, which its documentation does not promise to be safe
    /// to build concurrently.
    private static let initLock = LockedValue(())

    /// Leptonica (Tesseract's image library) prints its own errors to stderr ("Error in
    /// boxClipToRectangle: box outside rectangle") on pages it handles fine; a batch reports
    /// failures itself, one line each.
    private static let leptonicaQuiet: Void = { _ = setMsgSeverity(Int32(L_SEVERITY_NONE)) }()

    /// The Tesseract library's version, e.g. `5.3.0`.
    public static var version: String { String(cString: TessVersion()) }

    /// Whether the user set `OMP_THREAD_LIMIT`: then OpenMP runs as they asked.
    static let userSetOpenMPLimit = getenv("OMP_THREAD_LIMIT") != nil

    /// One OpenMP thread for this thread's Tesseract calls (pages already run in parallel, so
    /// Tesseract's OpenMP threads within a page would only oversubscribe the cores and spin;
    /// OCRmyPDF runs Tesseract the same way), unless the user set `OMP_THREAD_LIMIT`. Set on the
    /// calling thread before each image, not once for the process: OpenMP keeps it per thread,
    /// and its process-wide limit is read only as the program loads.
    static func oneOpenMPThreadHere() {
        if !userSetOpenMPLimit { oneOpenMPThread() }
    }

    /// One OpenMP thread for the calling thread's parallel regions, whatever the environment.
    static func oneOpenMPThread() { ctess_openmp_one_thread() }

    /// The calling thread's OpenMP nesting limit (0: its parallel regions run on it alone); nil
    /// when OpenMP is not loaded.
    static var openMPMaxActiveLevels: Int? {
        let levels = ctess_openmp_max_active_levels()
        return levels < 0 ? nil : Int(levels)
    }

    /// The words of `image`, laid out as Tesseract's automatic page segmentation finds them
    /// (`--psm 3`, the `tesseract` command's default).
    /// - Parameters:
    ///   - name: the image name Tesseract writes in the hOCR page's `title`.
    ///   - writer: what writes the hOCR and the text (the same bytes either way).
    ///   - lineImages: how Tesseract keeps each line's image before reading it (the same words
    ///     either way).
    /// - Throws: `TextEngineError` when recognition fails.
    public func read(
        _ image: TextImage, name: String? = nil, writer: TextWriter = .onePass, lineImages: LineImages = .raw
    ) throws -> TextReading {
        try readings(image, name: name, writers: [writer], lineImages: lineImages)[0]
    }

    /// `image` recognised once, then written by each of `writers` in turn: `read`'s body, and
    /// (internal, for `@testable` tests) how OnePassWriterTests compares the two writers on one
    /// recognition instead of recognising the page once per writer.
    func readings(
        _ image: TextImage, name: String?, writers: [TextWriter], lineImages: LineImages = .raw,
        regions: OpenMPRegions = .inlineWhenSingleThreaded
    ) throws -> [TextReading] {
        defer { TessBaseAPIClear(api) }
        TessBaseAPISetPageSegMode(api, PSM_AUTO)
        set(image)
        if let name { TessBaseAPISetInputName(api, name) }
        ctess_raw_line_images(lineImages == .raw ? 1 : 0)
        let recognised = regions.during { TessBaseAPIRecognize(api, nil) }
        ctess_raw_line_images(0)
        guard recognised == 0 else {
            throw TextEngineError(languages: languages, reason: "recognition failed")
        }
        return writers.map { writer in
            let written =
                (writer == .onePass ? onePass(width: image.width, height: image.height) : nil) ?? tesseractsOwn()
            var reading = TextReading(
                hocrPage: written.hocr, text: written.text,
                wordConfidences: TextReading.wordConfidences(inHOCR: written.hocr))
            reading.writer = written.writer
            return reading
        }
    }

    /// The hOCR and text of the recognised page from one walk over its words; nil when the page
    /// needs Tesseract's own writers (words read right to left) or the walk failed.
    private func onePass(width: Int, height: Int) -> (hocr: String, text: String, writer: TextWriter)? {
        var hocr: UnsafeMutablePointer<CChar>?
        var text: UnsafeMutablePointer<CChar>?
        guard ctess_page_text(api, Int32(width), Int32(height), &hocr, &text) == CTESS_WRITTEN, let hocr, let text
        else { return nil }
        defer {
            free(hocr)
            free(text)
        }
        return (String(cString: hocr), String(cString: text), .onePass)
    }

    /// The hOCR and text as Tesseract's `GetHOCRText` and `GetUTF8Text` write them.
    private func tesseractsOwn() -> (hocr: String, text: String, writer: TextWriter) {
        (Self.take(TessBaseAPIGetHOCRText(api, 0)), Self.take(TessBaseAPIGetUTF8Text(api)), .tesseract)
    }

    /// Tesseract's own number of characters its orientation detection reads before it may stop
    /// (`min_characters_to_try`).
    public static let defaultOrientationCharacters = 50

    /// Which way up the text of `image` reads, from an engine loaded with `osd`; nil when the
    /// page has too little text to tell (Tesseract's "Too few characters").
    /// - Parameter characters: the characters read before it may stop: each costs milliseconds,
    ///   so fewer bound the call's time.
    public func orientation(of image: TextImage, characters: Int = defaultOrientationCharacters)
        -> ScriptOrientation?
    {
        defer { TessBaseAPIClear(api) }
        TessBaseAPISetPageSegMode(api, PSM_OSD_ONLY)
        _ = TessBaseAPISetVariable(api, "min_characters_to_try", String(max(1, characters)))
        set(image)
        var found = CTessOrientation()
        // Tesseract's TessBaseAPIDetectOrientationScript, keeping the scores it drops.
        let detected = OpenMPRegions.inlineWhenSingleThreaded.during { ctess_detect_orientation(api, &found) }
        guard detected != 0 else { return nil }
        let s = found.scores
        return ScriptOrientation(
            counterClockwise: Int(found.counter_clockwise), confidence: Double(found.confidence),
            scriptConfidence: Double(found.script_confidence),
            scores: [s.0, s.1, s.2, s.3].map(Double.init), characters: Int(found.characters))
    }

    /// `orientation(of:characters:)` as Tesseract's C API gives it (TessBaseAPIDetectOrientationScript),
    /// without the scores: for tests that check the shim's reading is the C API's.
    func orientationByTesseractsAPI(of image: TextImage, characters: Int = defaultOrientationCharacters)
        -> ScriptOrientation?
    {
        defer { TessBaseAPIClear(api) }
        TessBaseAPISetPageSegMode(api, PSM_OSD_ONLY)
        _ = TessBaseAPISetVariable(api, "min_characters_to_try", String(max(1, characters)))
        set(image)
        var degrees: Int32 = 0
        var confidence: Float = 0
        var script: UnsafePointer<CChar>?  // the engine's own: not to be freed
        var scriptConfidence: Float = 0
        let detected = OpenMPRegions.inlineWhenSingleThreaded.during {
            TessBaseAPIDetectOrientationScript(api, &degrees, &confidence, &script, &scriptConfidence)
        }
        guard detected != 0 else { return nil }
        return ScriptOrientation(
            counterClockwise: Int(degrees), confidence: Double(confidence), scriptConfidence: Double(scriptConfidence))
    }

    private func set(_ image: TextImage) {
        Self.oneOpenMPThreadHere()
        image.pixels.withUnsafeBufferPointer { bytes in
            TessBaseAPISetImage(
                api, bytes.baseAddress, Int32(image.width), Int32(image.height),
                Int32(image.bands), Int32(image.width * image.bands))
        }
        if let dpi = image.dpi { TessBaseAPISetSourceResolution(api, Int32(dpi)) }
    }

    /// A Swift copy of a string Tesseract allocated, which is then freed.
    private static func take(_ text: UnsafeMutablePointer<CChar>?) -> String {
        guard let text else { return "" }
        defer { TessDeleteText(text) }
        return String(cString: text)
    }
}

/// What writes a recognised page's hOCR and text. Both give the same bytes on every page;
/// `.tesseract` is kept to check that.
public enum TextWriter: Sendable {
    /// One walk over the page's words (`ctess_page_text`), for pages whose words all read left
    /// to right; others go to Tesseract's writers. Tesseract's writers re-walk the page from its
    /// top for every word: 1.7 s next to 7.6 s of recognition on a page of 1491 words.
    case onePass
    /// Tesseract's `GetHOCRText` and `GetUTF8Text`.
    case tesseract
}

/// How Tesseract keeps the image of each text line between cutting it out of the page and
/// reading it. Both give the LSTM the same pixels, so the same words.
public enum LineImages: Sendable {
    /// Uncompressed (leptonica's own serialisation, `ctess_raw_line_images`): Tesseract's PNG
    /// round trip cost 6.9 % of an OCR run's CPU on deskew-3 (docs/benchmarks.md).
    case raw
    /// PNG, as Tesseract does by itself (kept to check that the words are the same).
    case png

    /// How many line images this process has kept `.raw` (for tests: it stays 0 if the shortcut
    /// is not in the executable's dynamic symbols and Tesseract calls leptonica directly).
    public static var rawCount: Int { ctess_raw_line_image_count() }

    /// `pixels` (32-bit leptonica pixels, `width` x `height`, the alpha byte lowest) as a colour
    /// line image comes back after Tesseract stores it this way; nil when it could not be stored
    /// or read. For tests: `.raw` must give back what `.png` does.
    static func roundTrip(_ pixels: [UInt32], width: Int, height: Int, as kept: LineImages) -> [UInt32]? {
        guard width > 0, height > 0, pixels.count == width * height else { return nil }
        var out = [UInt32](repeating: 0, count: pixels.count)
        let failed = pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                ctess_line_image_round_trip(
                    source.baseAddress, Int32(width), Int32(height), kept == .raw ? 1 : 0, target.baseAddress)
            }
        }
        return failed == 0 ? out : nil
    }
}

/// How Tesseract's OpenMP regions run while an engine reads a page (CTesseractShim/omp_inline.c).
/// Tesseract opens one for every LSTM time step; on a thread limited to one OpenMP thread
/// (`oneOpenMPThreadHere`, or the user's `OMP_THREAD_LIMIT=1`) libgomp starts and ends a team of
/// one for each, with a system call. Every way runs the same iterations in the same order, so reads the same words.
enum OpenMPRegions {
    /// libgomp's teams.
    case libgomp
    /// Plain calls of the region's body when the calling thread's regions are teams of one (the
    /// thread limit is 1 or its max-active-levels-var 0); libgomp's otherwise.
    case inlineWhenSingleThreaded
    /// Plain calls whatever the limit (for tests: the test process runs without a limit).
    case inline

    /// `body`, with the calling thread's regions run this way.
    func during<T>(_ body: () throws -> T) rethrows -> T {
        ctess_inline_openmp(self == .libgomp ? 0 : self == .inline ? 2 : 1)
        defer { ctess_inline_openmp(0) }
        return try body()
    }

    /// How many regions have run as plain calls in this process (for tests: it stays 0 when the
    /// executable's `GOMP_` definitions are not the ones Tesseract calls).
    static var inlineCount: Int { ctess_inline_openmp_count() }

    /// The sections of an inline `sections` region of `count` sections, in the order they ran,
    /// section 1 opening a region of two of its own (101, 102). For tests.
    static func sectionsTrace(count: Int) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: count + 8)
        let written = out.withUnsafeMutableBufferPointer { buffer in
            Int(ctess_inline_sections_trace(UInt32(count), buffer.baseAddress, Int32(buffer.count)))
        }
        return Array(out.prefix(min(written, out.count)))
    }
}

/// 8-bit pixels in memory for Tesseract: grey (1 band) or RGB (3), rows packed.
public struct TextImage: Sendable {
    public var pixels: [UInt8]
    public var width: Int
    public var height: Int
    public var bands: Int
    /// The page's resolution when known; Tesseract estimates it from the text size otherwise.
    public var dpi: Int?

    /// The largest side Tesseract accepts (its `TessBaseAPISetImage` takes 32-bit sizes, and
    /// leptonica refuses images over 2^15 on a side for most operations).
    public static let maximumSide = 32_767
    /// The resolutions Tesseract believes (its kMinCredibleResolution ... kMaxCredibleResolution):
    /// outside them it estimates the resolution from the text size, as it does when told none.
    public static let credibleDPI = 70...2400

    /// `pixels` of a `width` x `height` image of `bands` bands; nil when the sizes do not match
    /// or are out of Tesseract's range. A `dpi` outside `credibleDPI` is dropped.
    public init?(pixels: [UInt8], width: Int, height: Int, bands: Int, dpi: Double? = nil) {
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height),
            bands == 1 || bands == 3, pixels.count == width * height * bands
        else { return nil }
        self.pixels = pixels
        self.width = width
        self.height = height
        self.bands = bands
        if let dpi, dpi.isFinite, dpi.rounded() >= Double(Self.credibleDPI.lowerBound),
            dpi.rounded() <= Double(Self.credibleDPI.upperBound)
        {
            self.dpi = Int(dpi.rounded())
        }
    }
}

/// What an engine read on one page.
public struct TextReading: Sendable, Hashable {
    /// Tesseract's hOCR of the page: the `ocr_page` element alone, as `TessBaseAPIGetHOCRText`
    /// gives it (see `TextReading.hocrDocument` for the whole file).
    public var hocrPage: String
    /// The plain text, lines and paragraphs as Tesseract found them.
    public var text: String
    /// Each word's confidence (0-100), in reading order: the `x_wconf` of each `ocrx_word` of
    /// the hOCR. Counted there rather than with `TessBaseAPIAllWordConfidences`, which also
    /// counts words the hOCR leaves out as empty (224 against 165 on galfar's F1550.jpg), so
    /// the count is that of the words a reader of the hOCR finds.
    public var wordConfidences: [Int]
    /// What wrote `hocrPage` and `text`: `.tesseract` for a page with words read right to left,
    /// even when `.onePass` was asked for.
    public var writer: TextWriter = .tesseract

    /// A reading of `hocrPage` and `text` whose words have `wordConfidences`.
    public init(hocrPage: String, text: String, wordConfidences: [Int]) {
        self.hocrPage = hocrPage
        self.text = text
        self.wordConfidences = wordConfidences
    }

    /// The `x_wconf` of each `ocrx_word` element of `hocr`, in order (0 for a word without one).
    public static func wordConfidences(inHOCR hocr: String) -> [Int] {
        hocr.components(separatedBy: "class='ocrx_word'").dropFirst().map { element in
            let title = element.prefix { $0 != ">" }
            guard let range = title.range(of: "x_wconf ") else { return 0 }
            return Int(title[range.upperBound...].prefix { $0.isASCII && $0.isNumber }).map { min(100, max(0, $0)) }
                ?? 0
        }
    }

    /// The mean word confidence, nil when no word was read.
    public var meanConfidence: Double? {
        wordConfidences.isEmpty ? nil : Double(wordConfidences.reduce(0, +)) / Double(wordConfidences.count)
    }

    /// The page in the standard hOCR XHTML document, byte for byte as the `tesseract` command's
    /// hOCR renderer wraps it (the same head, `ocr-system` and `ocr-capabilities`), so tools
    /// that read Tesseract's hOCR files read these.
    public var hocrDocument: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
            "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
        <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" lang="en">
         <head>
          <title></title>
          <meta http-equiv="Content-Type" content="text/html;charset=utf-8"/>
          <meta name='ocr-system' content='tesseract \(TextEngine.version)' />
          <meta name='ocr-capabilities' content='ocr_page ocr_carea ocr_par ocr_line ocrx_word ocrp_wconf'/>
         </head>
         <body>

        """ + hocrPage + " </body>\n</html>\n"
    }
}

/// Tesseract's orientation and script detection of one page.
public struct ScriptOrientation: Sendable, Hashable {
    /// How far the text is turned counter-clockwise (0, 90, 180, 270): Tesseract's
    /// "Orientation in degrees".
    public var counterClockwise: Int
    /// The clockwise turn that makes the page upright (the `tesseract --psm 0` report's `Rotate`).
    public var rotate: Int { (360 - counterClockwise % 360) % 360 }
    /// How sure Tesseract is of the orientation (about 0-2 for a guess, 5 and more when clear).
    public var confidence: Double
    /// How sure it is of the script it read the text in.
    public var scriptConfidence: Double
    /// Each orientation's score, by counter-clockwise quarter (0, 90, 180, 270): the sum over
    /// the characters read of the log of that orientation's share of how well the character
    /// fits (each share 1/4 when a glyph fits all four alike). `confidence` is the best less
    /// the second. Empty when not known.
    public var scores: [Double]
    /// How many characters the scores sum over (0 when not known).
    public var characters: Int

    /// A finding of text turned `counterClockwise` degrees.
    public init(
        counterClockwise: Int, confidence: Double, scriptConfidence: Double, scores: [Double] = [],
        characters: Int = 0
    ) {
        self.counterClockwise = counterClockwise
        self.confidence = confidence
        self.scriptConfidence = scriptConfidence
        self.scores = scores
        self.characters = characters
    }
}

/// An engine that could not be made or failed on a page.
public struct TextEngineError: Error, CustomStringConvertible, Sendable {
    public var languages: String
    public var reason: String
    public var description: String { "Tesseract (\(languages)): \(reason)" }
}
