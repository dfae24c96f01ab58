/// What a `Processor.run` did.
public struct ProcessSummary: Sendable, Equatable {
    /// The report that was written to `layoutPath`.
    public var report: LayoutReport
    /// `OUT/layout.json`.
    public var layoutPath: String
    /// Pages taken from the resume manifest instead of being processed again.
    public var reusedCount: Int = 0
    /// True when the run was stopped early (Ctrl-C): `report` holds the pages done so far, and
    /// OUT (files and layout.json) was left as the previous complete run left it.
    public var interrupted: Bool = false
    /// Wall-clock seconds the run took.
    public var seconds: Double = 0
    /// Pages written.
    public var pageCount: Int { report.pages.count }
    /// Inputs (or pages of inputs) that failed.
    public var failureCount: Int { report.errors.count }
    /// True when every page succeeded (the CLI exits 0).
    public var succeeded: Bool { report.errors.isEmpty }
}

/// Progress of a run, reported as it happens (from worker threads, one call at a time).
public enum ProcessEvent: Sendable, Equatable {
    /// The inputs were opened: this many pages will be processed.
    case started(pageCount: Int)
    /// One page was written (`done` of `total` pages finished so far).
    case pageWritten(source: String, sourcePage: Int, done: Int, total: Int)
    /// One page was reused from the resume manifest (unchanged input and options).
    case pageReused(source: String, sourcePage: Int, done: Int, total: Int)
    /// An input or page failed; the batch goes on.
    case failed(LayoutReport.PageError)
}

/// A failure of the whole run (not of one page): the output folder or layout.json could not
/// be written.
public struct ProcessError: Error, Sendable, CustomStringConvertible {
    /// The file or folder the failure concerns.
    public var path: String
    /// Why, for a person: `cannot be written (...)`.
    public var reason: String
    /// What could not be done to `path`, when the message reads better with it first
    /// (`cannot write OUT: no space left on device`).
    public var action: String? = nil
    /// The one stderr line: `PATH: REASON`, or `ACTION PATH: REASON`.
    public var description: String { action.map { "\($0) \(path): \(reason)" } ?? "\(path): \(reason)" }

    /// A failure of `path` for `reason`.
    public init(path: String, reason: String, action: String? = nil) {
        self.path = path
        self.reason = reason
        self.action = action
    }

    /// The disk holding OUT is full (or the user's quota is spent): the run stopped.
    public static func noSpace(in out: String) -> ProcessError {
        ProcessError(path: out, reason: "no space left on device", action: "cannot write")
    }
}

extension LayoutReport.PageError {
    /// The one stderr line for this failure, e.g. `scans/x.jpg: not an image (unknown format)`
    /// or `book.pdf (page 3): ...` (pages counted from 1 for people).
    /// Line breaks and other control characters in file names are escaped (`\n`), so a
    /// failure is always exactly one line.
    public var line: String {
        let name = Self.escaped(source), reason = Self.escaped(message)
        if let page = sourcePage { return "\(name) (page \(page + 1)): \(reason)" }
        return "\(name): \(reason)"
    }

    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.properties.generalCategory == .control {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
