import Foundation
import QuireSync
import TesseractBridge
import VipsBridge

/// Tesseract in this process: its models, found once, and the engines the pages of a batch
/// share (one per page in flight, each loaded once; see `TextEnginePool`).
public enum TesseractEngines {
    /// Set to `1` to run as on a machine without Tesseract's models (tests of that path).
    public static let disableVariable = "QUIRE_NO_TESSERACT"

    /// The installed models, nil when there are none or `QUIRE_NO_TESSERACT=1`.
    static let models: TextModels? = {
        if ProcessInfo.processInfo.environment[disableVariable] == "1" { return nil }
        return TextModels.locate()
    }()

    /// The languages installed for `--ocr --lang` (all models but `osd`), sorted; empty
    /// without Tesseract.
    public static var readableLanguages: [String] { models?.readable ?? [] }
    /// Whether text can be read (`--ocr`): a model other than `osd` is installed.
    public static var readsText: Bool { !readableLanguages.isEmpty }
    /// Whether page orientation can be detected: the `osd` model is installed.
    public static var detectsOrientation: Bool { models?.detectsOrientation ?? false }
    /// The folder the models were found in, for messages; nil without Tesseract.
    public static var modelFolder: String? { models?.folder }
    /// The Tesseract library's version, e.g. `5.3.0`.
    public static var version: String { TextEngine.version }

    /// The orientation engines (`osd`), nil without the model.
    static let orientation: TextEnginePool? = models.flatMap {
        $0.detectsOrientation ? TextEnginePool(models: $0, languages: "osd") : nil
    }

    /// The reading engines made so far, by language set.
    private static let readers = LockedValue<[String: TextEnginePool]>([:])

    /// The engines reading `languages` (`eng+deu`), made on first use; nil without Tesseract.
    static func reader(languages: String) -> TextEnginePool? {
        guard let models else { return nil }
        return readers.withLock { readers in
            if let pool = readers[languages] { return pool }
            let pool = TextEnginePool(models: models, languages: languages)
            readers[languages] = pool
            return pool
        }
    }

    /// How many engines have been loaded in this process (orientation and OCR): a model is
    /// loaded once per concurrent reader, never per page.
    public static var enginesLoaded: Int {
        (orientation?.created ?? 0) + readers.withLock { $0.values.reduce(0) { $0 + $1.created } }
    }
}

extension TextImage {
    /// The 8-bit pixels of `image` as Tesseract is given them: a grey image as grey, a colour
    /// one as RGB (alpha dropped), as the `tesseract` command reads the same file. Colour is not
    /// made grey first: Tesseract binarises each channel and keeps the clearest, and a grey copy
    /// loses text printed on tinted paper (docs/processing.md has the figures; test_ocr.py reads
    /// such a scan against the `tesseract` command). nil when the image is too large for Tesseract.
    /// The page is decoded straight into the array Tesseract is handed (`pixelBytesDirect`), not
    /// into a libvips buffer first and then copied.
    static func pixels(of image: VIPSImage, dpi: Double? = nil) throws -> TextImage? {
        var source = image
        if source.format != .uchar { source = try source.castToUChar() }
        switch source.bands {
        case 1, 3: break
        case 2: source = try source.extractBands(0)
        default: source = try source.extractBands(0, count: 3)
        }
        return TextImage(
            pixels: try source.pixelBytesDirect(), width: source.width, height: source.height,
            bands: source.bands, dpi: dpi)
    }
}
