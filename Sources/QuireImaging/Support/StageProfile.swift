import Foundation
import Synchronization

/// Where a page's CPU time goes, stage by stage (`QUIRE_PROFILE=1 quire process --jobs 1 ...`):
/// the table the speed work of the batch is steered by, printed to stderr when the process ends.
///
/// Why CPU time of the whole process: libvips computes on its own worker threads, so a stage's
/// cost is what every thread spent while it ran. That is exact with one page in flight
/// (`--jobs 1`); with more, concurrent stages are counted in each other.
enum StageProfile {
    /// On when the environment has `QUIRE_PROFILE` (read once); the table prints at exit.
    static let enabled: Bool = {
        guard getenv("QUIRE_PROFILE") != nil else { return false }
        atexit { StageProfile.report() }
        return true
    }()

    private static let totals = Mutex<[String: (ms: Double, count: Int)]>([:])

    /// With `QUIRE_PROFILE=calls` every measured call is also printed as it ends ("call STAGE MS"),
    /// in order: with `--jobs 1` the calls of one page follow each other, so a page's stages can
    /// be told apart (which pages a stage's time is spent on).
    static let tracesCalls: Bool = enabled && String(cString: getenv("QUIRE_PROFILE")) == "calls"

    /// Runs `body`, adding its CPU time to `stage` when profiling is on.
    @inline(__always)
    static func measure<T>(_ stage: String, _ body: () throws -> T) rethrows -> T {
        guard enabled else { return try body() }
        let start = cpuMilliseconds()
        defer {
            let spent = cpuMilliseconds() - start
            if tracesCalls { FileHandle.standardError.write(Data("call \(stage) \(spent)\n".utf8)) }
            totals.withLock {
                $0[stage, default: (0, 0)].ms += spent; $0[stage, default: (0, 0)].count += 1
            }
        }
        return try body()
    }

    /// With `QUIRE_PROFILE=calls`, prints "note TEXT" in the call trace (what a reading said, so a
    /// page's decision can be followed); `text` is not built otherwise.
    static func note(_ text: @autoclosure () -> String) {
        guard tracesCalls else { return }
        FileHandle.standardError.write(Data("note \(text())\n".utf8))
    }

    /// User + system CPU time of the process so far.
    static func cpuMilliseconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(0), &usage)  // RUSAGE_SELF
        let user = Double(usage.ru_utime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec) / 1000
        let system = Double(usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_stime.tv_usec) / 1000
        return user + system
    }

    static func report() {
        let rows = totals.withLock { $0 }.sorted { $0.key < $1.key }
        var text = "stage                    calls   CPU ms   ms/call\n"
        for (stage, t) in rows {
            text += String(
                format: "%-24@ %5d %8.1f %9.2f\n", stage as NSString, t.count, t.ms, t.ms / Double(max(1, t.count)))
        }
        FileHandle.standardError.write(Data(text.utf8))
    }
}
