import Synchronization

/// A value shared between threads, reached only under its lock.
///
/// Why one type: a class holding a lock beside the state it guards (`NSLock` and a `var`,
/// marked `@unchecked Sendable`) leaves the compiler unable to check that every access takes
/// the lock. Here the state lives inside the `Mutex`, so it cannot be read or written without
/// it, and the box is `Sendable` without `@unchecked` (swift-nio's `NIOLockedValueBox`).
/// A reference type, so one box can be shared by the closures and objects that need it
/// (`Mutex` itself cannot be copied).
public final class LockedValue<Value: ~Copyable>: Sendable {
    private let mutex: Mutex<Value>

    /// A box holding `value`.
    public init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Runs `body` with the value, under the lock, and returns what it returns.
    ///
    /// `body` must not take this box's lock again (the lock is not recursive) and should be
    /// short: other threads wait for it.
    public func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        try mutex.withLock(body)
    }
}

extension LockedValue where Value: Copyable & Sendable {
    /// The value now (a copy, taken under the lock).
    public var current: Value { withLock { $0 } }
}
