import Foundation
import Testing
@testable import TesseractBridge

/// Tesseract's OpenMP runs on one thread per worker: set per thread at run time, so `quire`
/// needs no second start to put `OMP_THREAD_LIMIT` in its environment.
@Suite struct OpenMPThreadsTests {
    /// `body`'s result on a new thread of its own.
    static func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = LockedBox<T?>(nil)
        Thread {
            result.set(body())
            done.signal()
        }.start()
        done.wait()
        return result.get()!
    }

    @Test func aThreadLimitedRunsItsRegionsAloneAndOthersAreUntouched() throws {
        let limited = Self.onNewThread { () -> Int? in
            TextEngine.oneOpenMPThread()
            return TextEngine.openMPMaxActiveLevels
        }
        let other = Self.onNewThread { TextEngine.openMPMaxActiveLevels }
        #expect(limited == 0)
        // OpenMP's default on a thread that never set it: nested regions allowed.
        #expect(try #require(other, "libgomp is loaded with libtesseract") > 0)
    }
}

/// A value handed between threads.
final class LockedBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T
    init(_ value: T) { self.value = value }
    func set(_ new: T) { lock.withLock { value = new } }
    func get() -> T { lock.withLock { value } }
}
