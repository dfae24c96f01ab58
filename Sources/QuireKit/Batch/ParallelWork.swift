import Foundation
import Synchronization

/// Runs `count` work items on `workers` threads, each thread taking the next item when it is
/// done with one, so at most `workers` items are in flight (and in memory) at once.
enum ParallelWork {
    static func forEach(count: Int, workers: Int, _ body: @escaping @Sendable (Int) -> Void) {
        forEach(count: count, workers: workers, state: {}) { _, index in body(index) }
    }

    /// `forEach` with one `State` per worker thread, made on that thread before its first item
    /// and passed to every item it takes: per-item scratch (a read buffer) is allocated
    /// `workers` times, not `count` times, so it cannot fragment the heap item after item.
    static func forEach<State>(
        count: Int, workers: Int, state makeState: @escaping @Sendable () -> State,
        _ body: @escaping @Sendable (State, Int) -> Void
    ) {
        guard count > 0 else { return }
        let next = Counter()
        let threads = max(1, min(workers, count))
        if threads == 1 {
            let state = makeState()
            for index in 0..<count { body(state, index) }
            return
        }
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            let thread = Thread {
                let state = makeState()
                while let index = next.take(below: count) { body(state, index) }
                group.leave()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        group.wait()
    }

    /// `forEach` collecting one result per item, in item order.
    static func map<T: Sendable>(count: Int, workers: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        map(count: count, workers: workers, state: {}) { _, index in body(index) }
    }

    /// `forEach(state:)` collecting one result per item, in item order.
    static func map<State, T: Sendable>(
        count: Int, workers: Int, state makeState: @escaping @Sendable () -> State,
        _ body: @escaping @Sendable (State, Int) -> T
    ) -> [T] {
        let slots = Slots<T>(count: count)
        forEach(count: count, workers: workers, state: makeState) { state, index in
            slots.set(index, body(state, index))
        }
        return slots.values.map { $0! }
    }
}

/// A thread-safe counter handing out indices once each.
final class Counter: Sendable {
    private let value = Mutex(0)

    func take(below limit: Int) -> Int? {
        value.withLock { value in
            guard value < limit else { return nil }
            value += 1
            return value - 1
        }
    }
}

/// Thread-safe result slots, one per work item.
final class Slots<T: Sendable>: Sendable {
    private let storage: Mutex<[T?]>

    init(count: Int) { storage = Mutex(Array(repeating: nil, count: count)) }

    func set(_ index: Int, _ value: T) {
        storage.withLock { $0[index] = value }
    }

    var values: [T?] { storage.withLock { $0 } }
}
