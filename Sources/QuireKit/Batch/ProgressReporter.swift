import Foundation
import Synchronization

/// Reports a batch's progress as pages finish: a redrawn bar on a terminal, one JSON line per
/// page for programs (`--progress json`), or nothing. Safe to call from concurrent pages.
public final class ProgressReporter: Sendable {
    /// How progress is shown.
    public enum Style: String, Sendable, CaseIterable, Codable {
        /// A bar on a terminal; nothing when stdout is not a terminal.
        case auto
        /// One JSON object per finished page on stdout.
        case json
        /// Nothing.
        case none
    }

    /// How a page finished.
    public enum PageStatus: String, Sendable, Codable, CaseIterable {
        /// Written this run.
        case ok
        /// Reused from the resume manifest (nothing recomputed).
        case skipped
        /// Not written; the event carries the error's code and message.
        case failed
    }

    /// What one finished page reports.
    public struct Event: Sendable, Codable, Equatable {
        public var done: Int
        public var total: Int
        public var source: String
        public var sourcePage: Int
        /// `ok`, `skipped` (reused from the manifest) or `failed`.
        public var status: PageStatus
        /// With `failed`: the error's stable code (as in layout.json's `errors`).
        public var code: String?
        public var message: String?
        public var pagesPerSecond: Double
        public var secondsLeft: Double?
    }

    private let style: Style
    private let total: Int
    private let start = ContinuousClock.now
    /// What changes as pages finish, behind one lock (pages finish on several threads).
    private struct Counts {
        var done = 0
        var written = 0
        var lastDraw = ContinuousClock.now - .seconds(1)
    }
    private let counts = Mutex(Counts())
    private let drawsBar: Bool
    private let write: @Sendable (String) -> Void

    /// - Parameters:
    ///   - style: the bar, JSON lines, or nothing (`--progress`).
    ///   - total: pages the batch will finish.
    ///   - isTerminal: whether stdout is a terminal (injected for tests).
    ///   - write: where text goes (stdout by default; the bar is drawn there with `\r`).
    public init(
        style: Style, total: Int, isTerminal: Bool = isatty(STDOUT_FILENO) != 0,
        write: @escaping @Sendable (String) -> Void = { text in
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    ) {
        self.style = style
        self.total = total
        self.drawsBar = style == .auto && isTerminal
        self.write = write
    }

    /// Records one finished page (`status` ok, skipped or failed).
    public func pageFinished(
        source: String, sourcePage: Int, status: PageStatus, code: String? = nil,
        message: String? = nil
    ) {
        counts.withLock { counts in
            report(&counts, source: source, sourcePage: sourcePage, status: status, code: code, message: message)
        }
    }

    private func report(
        _ counts: inout Counts, source: String, sourcePage: Int, status: PageStatus, code: String?,
        message: String?
    ) {
        counts.done += 1
        if status == .ok { counts.written += 1 }
        let done = counts.done, written = counts.written
        // The rate of pages written: failures and reused pages take no time and would make
        // the estimate of what is left far too short.
        let elapsed = seconds(since: start)
        let rate = elapsed > 0 ? Double(written) / elapsed : 0
        let left: Double? = rate > 0 ? Double(total - done) / rate : nil
        switch style {
        case .json:
            let event = Event(
                done: done, total: total, source: source, sourcePage: sourcePage, status: status,
                code: code, message: message, pagesPerSecond: (rate * 100).rounded() / 100,
                secondsLeft: left.map { ($0 * 10).rounded() / 10 })
            if let data = try? JSONOutput.encode(event, .line), let text = String(data: data, encoding: .utf8) {
                write(text + "\n")
            }
        case .auto where drawsBar:
            // Redraw at most ten times a second, and always for the last page.
            if done == total || seconds(since: counts.lastDraw) >= 0.1 {
                counts.lastDraw = .now
                write("\r" + Self.bar(done: done, total: total, rate: rate, secondsLeft: left) + "\u{1B}[K")
            }
        default:
            break
        }
    }

    /// Clears the bar's line (before a message is printed under it; the next page redraws it).
    public func clearLine() {
        counts.withLock { counts in
            if drawsBar && counts.done > 0 { write("\r\u{1B}[K") }
        }
    }

    /// Clears the bar line so the summary starts on a clean line.
    public func finish() {
        counts.withLock { counts in
            if drawsBar && counts.done > 0 { write("\n") }
        }
    }

    /// `[#########-----------]  45/100  12.3 pages/s  ETA 0:04`
    static func bar(done: Int, total: Int, rate: Double, secondsLeft: Double?, width: Int = 30) -> String {
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let filled = min(width, max(0, Int((fraction * Double(width)).rounded(.down))))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let eta = secondsLeft.map { " ETA \(clock(seconds: $0))" } ?? ""
        return "[\(bar)] \(done)/\(total)  \(String(format: "%.1f", rate)) pages/s\(eta)"
    }

    /// `m:ss` or `h:mm:ss`.
    static func clock(seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded()))
        let (h, m, r) = (s / 3600, (s % 3600) / 60, s % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, r) : String(format: "%d:%02d", m, r)
    }

    private func seconds(since instant: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - instant
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
