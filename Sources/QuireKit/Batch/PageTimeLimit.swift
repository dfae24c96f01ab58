import Foundation
import Synchronization

/// Runs one page's work with a time limit (`--page-timeout`).
///
/// libvips cannot always be interrupted (a loader stuck inside a third-party library ignores
/// every kill flag), so the work runs on a thread of its own and the caller waits at most
/// `seconds` for it. A page that overruns is reported as timed out and given up on: its thread is
/// left to finish or spin on its own (it only ever writes inside its own staging folder, which is
/// never committed), and the batch goes on.
enum PageTimeLimit {
    /// The outcome of `run`: the work's value, or nil when it did not finish in time.
    /// - Parameter seconds: the limit; `nil` or not positive = no limit (runs on the caller's thread).
    static func run<T: Sendable>(seconds: Double?, _ body: @escaping @Sendable () -> T) -> T? {
        guard let seconds, seconds > 0, seconds.isFinite else { return body() }
        let box = Box<T>()
        let thread = Thread {
            box.set(body())
        }
        thread.stackSize = 8 << 20
        thread.start()
        return box.wait(seconds: seconds)
    }

    /// The work's value, handed from its thread to the waiting caller.
    private final class Box<T: Sendable>: Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let value = Mutex<T?>(nil)

        func set(_ v: T) {
            value.withLock { $0 = v }
            done.signal()
        }

        func wait(seconds: Double) -> T? {
            guard done.wait(timeout: .now() + seconds) == .success else { return nil }
            return value.withLock { $0 }
        }
    }
}

/// A request to stop a batch early (Ctrl-C): no new page is started once it is set; the pages
/// in flight finish and are recorded.
public final class BatchStop: Sendable {
    private let requested = Mutex(false)

    /// A stop that has not been requested.
    public init() {}

    /// Asks the batch to stop; returns false when it had already been asked.
    @discardableResult
    public func request() -> Bool {
        requested.withLock { requested in
            defer { requested = true }
            return !requested
        }
    }

    public var isRequested: Bool { requested.withLock { $0 } }
}
