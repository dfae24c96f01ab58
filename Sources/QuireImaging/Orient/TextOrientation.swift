import Foundation
import VipsBridge

/// Which way a page's text reads: the clockwise quarter turn that makes it upright.
public struct OrientationGuess: Sendable, Hashable, Codable {
    /// Degrees to turn the page clockwise: 0, 90, 180 or 270.
    public var rotate: Int
    /// The detector's confidence (Tesseract's orientation confidence: about 0-2 for a guess,
    /// 5 and more for a page of text read clearly).
    public var confidence: Double
    /// How sure the detector is of the script it read the page in (Tesseract's script
    /// confidence); nil when it did not say. Printed text scores 1 and more; handwriting, whose
    /// glyphs match no script, scores under 0.7 and its way up is a guess (see `OrientationPolicy`).
    public var scriptConfidence: Double?

    /// A guess that turning the page `rotate` degrees clockwise makes it upright.
    public init(rotate: Int, confidence: Double, scriptConfidence: Double? = nil) {
        self.rotate = ((rotate % 360) + 360) % 360
        self.confidence = confidence
        self.scriptConfidence = scriptConfidence
    }
}

/// Tells which way up a page is. Behind a protocol so tests and machines without Tesseract
/// can run without it.
public protocol OrientationDetector: Sendable {
    /// The guess for a display-ready page, or nil when the page has too little text to tell.
    func guess(_ page: VIPSImage) throws -> OrientationGuess?
}

/// Tesseract's orientation and script detection (`tesseract IMAGE stdout --psm 0 -l osd`),
/// run as a subprocess on a grey copy of the page at most `longestSide` px long: the standard
/// way to find pages scanned sideways or upside down (OCRmyPDF's `--rotate-pages` does the
/// same). The copy must keep the text large: unpaper's imgsrc001 (an A4 page at 300 dpi) shrunk
/// to 1600 px reads as upside down with confidence 12; at 2400 px and more it reads upright (24).
/// Debian's `tesseract-ocr` with its `osd` data provides it.
public struct TesseractOSD: OrientationDetector {
    /// The `tesseract` executable.
    public let executable: String
    /// The longest side of the copy Tesseract reads.
    public static let longestSide = 3200
    /// Pages whose longest side is under this are enlarged for Tesseract.
    public static let smallSide = 1600

    /// Tesseract on this machine's PATH with its `osd` data, found once; nil when either is
    /// missing (pages then keep their orientation).
    public static let installed: TesseractOSD? = locate()

    static func locate() -> TesseractOSD? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/tesseract"
            guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
            guard let (status, languages) = try? run(candidate, ["--list-langs"]), status == 0,
                  languages.contains("\nosd") else { return nil }
            return TesseractOSD(executable: candidate)
        }
        return nil
    }

    public func guess(_ page: VIPSImage) throws -> OrientationGuess? {
        var grey = try page.fitted(inside: Self.longestSide)
        // Small pages are enlarged (up to 3 times, to about 1600 px): Tesseract cannot tell the
        // way up of text a few pixels high (scikit-image's 384 x 191 page.png turned a quarter:
        // confidence 0.3-0.5 as it is, 5.3-5.8 at 3 times).
        let long = max(grey.width, grey.height)
        if long < Self.smallSide {
            let factor = min(3, Double(Self.smallSide) / Double(long))
            grey = try grey.resized(horizontal: factor, vertical: factor)
        }
        if grey.bands >= 3 { grey = try grey.extractBands(1) }  // green: close to luma, no colour cast
        let path = NSTemporaryDirectory() + "quire-osd-\(getpid())-\(UInt32.random(in: 0 ... .max)).png"
        defer { unlink(path) }
        try grey.save(to: path, options: .init(format: .png, compression: 1))
        guard let (status, text) = try? Self.run(executable, [path, "stdout", "--psm", "0", "-l", "osd"]) else { return nil }
        return Self.guess(report: text, status: status)
    }

    /// What a Tesseract run says: its report when it read one, confidence 0 (keep the page,
    /// reported as not sure) when it found too little text, nil when it failed otherwise.
    static func guess(report text: String, status: Int32) -> OrientationGuess? {
        if status == 0, let guess = parse(text) { return guess }
        if text.contains("Too few characters") { return OrientationGuess(rotate: 0, confidence: 0) }
        return nil
    }

    /// The `Rotate:` and `Orientation confidence:` lines of Tesseract's OSD report.
    static func parse(_ text: String) -> OrientationGuess? {
        var rotate: Int?
        var confidence: Double?
        var script: Double?
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            if parts[0] == "Rotate" { rotate = Int(parts[1]) }
            if parts[0] == "Orientation confidence" { confidence = Double(parts[1]) }
            if parts[0] == "Script confidence" { script = Double(parts[1]).flatMap { $0.isFinite ? $0 : nil } }
        }
        guard let rotate, let confidence, [0, 90, 180, 270].contains(rotate), confidence.isFinite else { return nil }
        return OrientationGuess(rotate: rotate, confidence: confidence, scriptConfidence: script)
    }

    /// Runs `executable` and returns its exit status and what it printed (stdout and stderr);
    /// throws when it cannot be started.
    static func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// When a guess is acted on.
public enum OrientationPolicy {
    /// The confidence a guess needs before a page is turned (calibrated on real scans turned by
    /// 90, 180 and 270 degrees: docs/correction-scans.md).
    public static let minimumConfidence = 2.0
    /// Tesseract's orientation model knows printed glyphs: on handwriting it reads upright
    /// pages as upside down with confidence up to 5.7 (three of handwriting-ocr's photos), and
    /// its script confidence stays under 0.7 there. A guess under `sureConfidence` must also
    /// have read a script with at least `minimumScriptConfidence`; printed scans of the
    /// calibration set score 9 and more, or a script confidence of 1 and more.
    public static let minimumScriptConfidence = 1.0
    public static let sureConfidence = 8.0

    /// Whether `guess` is sure enough to turn a page by: a turn, confident, and either very
    /// confident or on text Tesseract recognised as a script (a guess that does not report its
    /// script is judged on its confidence alone).
    public static func turns(_ guess: OrientationGuess) -> Bool {
        guard guess.rotate != 0, guess.confidence >= minimumConfidence else { return false }
        return guess.confidence >= sureConfidence || (guess.scriptConfidence ?? .infinity) >= minimumScriptConfidence
    }
}
