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
        // A page without printed glyphs is not worth a subprocess: Tesseract would answer
        // "Too few characters" (confidence 0), seconds later.
        let look = try StageProfile.measure("2e text check") { try PageCorrector.gray(page, longSide: TextPresence.longSide) }
        guard TextPresence.hasReadableText(gray: look.gray, width: look.width, height: look.height) else {
            return OrientationGuess(rotate: 0, confidence: 0)
        }
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
        guard let (status, text) = try? Self.run(executable, [path, "stdout", "--psm", "0", "-l", "osd"],
                                                 cpuLimit: Self.cpuLimit, wallLimit: Self.wallLimit) else { return nil }
        // Killed at the limit: not sure which way up (the page is kept as it is).
        if status == Self.timedOutStatus { return OrientationGuess(rotate: 0, confidence: 0) }
        return Self.guess(report: text, status: status)
    }

    /// CPU seconds Tesseract may spend on one page before it is killed and the page kept as it
    /// is: a dense printed page at `longestSide` takes it about 2 s here, a page of shapes that
    /// are not letters took 2-3.5 s only to say "Too few characters" (docs/benchmarks.md).
    /// CPU, not wall time, so a machine busy with other work does not cut honest reads short.
    public static let cpuLimit: Double = 4
    /// Wall seconds after which Tesseract is killed whatever its CPU time (a hang guard).
    public static let wallLimit: Double = 60
    /// The status `run` reports for a child it killed at its time limit.
    static let timedOutStatus: Int32 = -9

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
    /// throws when it cannot be started. A child that has used `cpuLimit` seconds of CPU
    /// (read from /proc every `pollInterval`), or is still running after `wallLimit` seconds,
    /// is killed (SIGKILL) and reported with `timedOutStatus`.
    static func run(_ executable: String, _ arguments: [String], cpuLimit: Double? = nil,
                    wallLimit: Double? = nil) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Read on another thread, so a child that fills the pipe and one that hangs both end.
        let output = OutputBox()
        let read = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            output.data = pipe.fileHandleForReading.readDataToEndOfFile()
            read.signal()
        }
        var killed = false
        if cpuLimit == nil && wallLimit == nil {
            exited.wait()
        } else {
            let deadline = DispatchTime.now() + (wallLimit ?? .infinity)
            while exited.wait(timeout: .now() + pollInterval) == .timedOut {
                let overCPU = cpuLimit.map { (cpuSeconds(of: process.processIdentifier) ?? 0) >= $0 } ?? false
                if overCPU || DispatchTime.now() >= deadline {
                    kill(process.processIdentifier, SIGKILL)
                    killed = true
                    exited.wait()
                    break
                }
            }
        }
        read.wait()
        process.waitUntilExit()
        return (killed ? timedOutStatus : process.terminationStatus, String(decoding: output.data, as: UTF8.self))
    }

    /// How often a limited child's CPU time is read.
    static let pollInterval: Double = 0.05

    /// User + system CPU seconds process `pid` has used (fields 14 and 15 of /proc/PID/stat);
    /// nil when it cannot be read (the process has gone, or no /proc).
    static func cpuSeconds(of pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces): state is field 3.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return ticks > 0 ? (user + system) / ticks : nil
    }

    /// The child's output, handed from the reading thread (read only after it signals).
    private final class OutputBox: @unchecked Sendable { var data = Data() }
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
