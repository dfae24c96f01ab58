import Foundation
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

    private static let lock = NSLock()
    nonisolated(unsafe) private static var readers: [String: TextEnginePool] = [:]

    /// The engines reading `languages` (`eng+deu`), made on first use; nil without Tesseract.
    static func reader(languages: String) -> TextEnginePool? {
        guard let models else { return nil }
        return lock.withLock {
            if let pool = readers[languages] { return pool }
            let pool = TextEnginePool(models: models, languages: languages)
            readers[languages] = pool
            return pool
        }
    }

    /// How many engines have been loaded in this process (orientation and OCR): a model is
    /// loaded once per concurrent reader, never per page.
    public static var enginesLoaded: Int {
        (orientation?.created ?? 0) + lock.withLock { readers.values.reduce(0) { $0 + $1.created } }
    }
}

extension TextImage {
    /// The 8-bit pixels of `image` as Tesseract is given them: grey, as leptonica turns colour
    /// grey (0.3 R + 0.5 G + 0.2 B, rounded), which is what the `tesseract` command reads a
    /// colour file as; alpha is dropped. nil when the image is too large for Tesseract.
    static func grey(_ image: VIPSImage, dpi: Double? = nil) throws -> TextImage? {
        var source = image
        if source.format != .uchar { source = try source.castToUChar() }
        let bands = source.bands
        let bytes = try source.pixelBytes()
        let count = source.width * source.height
        guard bytes.count == count * bands else { return nil }
        var grey: [UInt8]
        switch bands {
        case 1:
            grey = bytes
        case 2:
            grey = (0..<count).map { bytes[$0 * 2] }
        default:
            grey = [UInt8](repeating: 0, count: count)
            bytes.withUnsafeBufferPointer { px in
                grey.withUnsafeMutableBufferPointer { out in
                    for i in 0..<count {
                        let o = i * bands
                        let value = 0.3 * Double(px[o]) + 0.5 * Double(px[o + 1]) + 0.2 * Double(px[o + 2]) + 0.5
                        out[i] = UInt8(min(255, value))
                    }
                }
            }
        }
        return TextImage(pixels: grey, width: source.width, height: source.height, bands: 1, dpi: dpi)
    }
}
