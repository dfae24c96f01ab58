import Dispatch

/// Bounds how many pages hold a whole decoded frame at once, so a batch's peak memory does not
/// grow with the number of pages in flight.
///
/// Why: a page's largest moment is right after decoding, when its whole frame is in memory
/// (36 MB for a 12 MP capture) until detection shows which rows the page needs; the rest of
/// the page (warp, encoding) holds far less. Two pages at that moment together are what broke
/// the 150 MB budget at `--jobs 2`. Decoding takes about a third of a page's CPU time, so with
/// one slot per two workers the cores stay busy: one page decodes while the other encodes.
///
/// A page that does not get a slot within `patience` goes ahead anyway (a decoder stuck on a
/// hostile file past its page time limit must not stall the batch): the gate is a memory
/// bound in the normal case, never a lock the batch can hang on.
public final class FrameGate: Sendable {
    private let slots: DispatchSemaphore
    /// How long a page waits for a slot before decoding regardless.
    public let patience: Duration

    /// - Parameter slots: pages that may hold a whole frame at once (at least 1).
    public init(slots: Int, patience: Duration = .seconds(5)) {
        self.slots = DispatchSemaphore(value: max(1, slots))
        self.patience = patience
    }

    /// The gate for a batch of `pagesInFlight` workers: one slot per two of them.
    public static func forBatch(pagesInFlight: Int, patience: Duration = .seconds(5)) -> FrameGate {
        FrameGate(slots: max(1, pagesInFlight / 2), patience: patience)
    }

    /// Waits for a slot (at most `patience`) and returns a pass to give back once the frame
    /// has shrunk; a pass obtained without a slot gives nothing back.
    func enter() -> Pass {
        let (seconds, attoseconds) = patience.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        let got = slots.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
        return Pass(gate: got ? self : nil)
    }

    /// One page's claim on a slot; `leave()` is idempotent, and a pass left unused gives its
    /// slot back when it is destroyed (errors, early returns).
    final class Pass: @unchecked Sendable {
        private var gate: FrameGate?
        init(gate: FrameGate?) { self.gate = gate }
        func leave() {
            if let gate { gate.slots.signal() }
            gate = nil
        }
        deinit { leave() }
    }
}
