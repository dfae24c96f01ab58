import Foundation
import QuireSync

/// Bounds the bytes of whole decoded frames held at once, so a batch's peak memory does not
/// grow with the number of pages in flight or with their size.
///
/// Why: a page's largest moment is right after decoding, when its whole frame is in memory (3
/// bytes a pixel in RGB, half that for a JPEG held as its 4:2:0 planes) until detection shows
/// which rows the page needs; the rest of the page (warp, encoding) holds far less. Two 12 MP
/// RGB frames at that moment together, on top of the shared libraries and the pages in flight,
/// break the 150 MB budget at `--jobs 2`, while two 10 MP frames fit and let both cores decode
/// (figures in docs/benchmarks.md#figures-behind-design-choices). So the gate counts bytes: a
/// page enters with its frame's size (known from the header) and waits while the frames
/// already inside plus its own exceed the budget. A page alone is always admitted, whatever
/// its size. Phone captures (4:2:0 JPEGs, decoded to planes) of up to 20 MP always fit two
/// at a time.
///
/// A page about to make a second whole frame beside its first (a scan stored sideways, made
/// upright before its deskew) grows its pass first (`grow`): it waits while other pages hold
/// frames and the sum exceeds the budget, so the moment the page holds two frames is not also
/// one where the other worker holds its own. Of two pages growing at once one goes ahead, so
/// they never wait for each other.
///
/// A page that is not admitted within `patience` goes ahead anyway (a decoder stuck on a
/// hostile file past its page time limit must not stall the batch): the gate is a memory
/// bound in the normal case, never a lock the batch can hang on.
///
/// `@unchecked`: a page waits on `NSCondition` until bytes are given back, and
/// `Synchronization.Mutex` (under `LockedValue`) has no wait; `held` is touched only under it.
public final class FrameGate: @unchecked Sendable {
    /// Bytes of whole frames allowed at once (a single page may exceed it alone).
    public let budget: Int
    /// How long a page waits before decoding regardless.
    public let patience: Duration
    private let condition = NSCondition()
    private var held = 0
    /// Bytes held by passes waiting in `grow` (under `condition`).
    private var growing = 0

    /// - Parameter budget: bytes of whole frames held at once.
    public init(budget: Int, patience: Duration = .seconds(5)) {
        self.budget = max(1, budget)
        self.patience = patience
    }

    /// The frame budget one pair of workers shares: two 10 MP RGB frames (20 MP, 60 MB), or two
    /// 20 MP 4:2:0 captures held as planes.
    public static let budgetPerTwoWorkers = 60_000_000

    /// The gate for a batch of `pagesInFlight` workers: `budgetPerTwoWorkers` per two of them.
    public static func forBatch(pagesInFlight: Int, patience: Duration = .seconds(5)) -> FrameGate {
        FrameGate(budget: max(1, pagesInFlight / 2) * budgetPerTwoWorkers, patience: patience)
    }

    /// Waits (at most `patience`) until a frame of `bytes` fits, and returns a pass to give
    /// back once the frame has shrunk; a pass obtained by running out of patience holds nothing.
    func enter(bytes: Int) -> Pass {
        let bytes = max(0, bytes)
        let deadline = Date().addingTimeInterval(
            Double(patience.components.seconds)
                + Double(patience.components.attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        while held > 0 && held + bytes > budget {
            if !condition.wait(until: deadline) { return Pass(gate: nil, bytes: 0) }
        }
        held += bytes
        return Pass(gate: self, bytes: bytes)
    }

    /// Waits (at most `patience`) until `bytes` more fit beside the frames the other pages hold,
    /// then counts them on `pass` (given back with it). Goes ahead at once when no other page
    /// holds frame bytes, or when every page holding them is itself waiting to grow (so of two
    /// growers one goes ahead, and the other waits for it to leave, not for its patience); out
    /// of patience, it goes ahead and the pass grows by nothing.
    func grow(_ pass: Pass, by bytes: Int) {
        guard bytes > 0, let own = pass.heldBytes(of: self) else { return }
        let deadline = Date().addingTimeInterval(
            Double(patience.components.seconds)
                + Double(patience.components.attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        growing += own
        condition.broadcast()  // a grower waiting on this page's bytes may go ahead now
        var patient = true
        while patient, held - own > growing - own, held + bytes > budget {
            patient = condition.wait(until: deadline)
        }
        growing -= own
        guard patient else { return }
        held += bytes
        pass.add(bytes)
    }

    private func release(_ bytes: Int) {
        condition.lock()
        held -= bytes
        condition.broadcast()
        condition.unlock()
    }

    /// One page's claim on the budget; `leave()` is idempotent, and a pass left unused gives its
    /// bytes back when it is destroyed (errors, early returns).
    final class Pass: Sendable {
        /// The gate the bytes go back to (nil once they have) and the bytes.
        private let claim: LockedValue<(gate: FrameGate?, bytes: Int)>
        init(gate: FrameGate?, bytes: Int) {
            claim = LockedValue((gate, bytes))
        }
        func leave() {
            let (owed, bytes) = claim.withLock { claim in
                defer { claim.gate = nil }
                return claim
            }
            owed?.release(bytes)
        }
        /// The bytes this pass holds in `gate`, nil when it holds none there (left, or let in
        /// by patience).
        fileprivate func heldBytes(of gate: FrameGate) -> Int? {
            claim.withLock { $0.gate === gate ? $0.bytes : nil }
        }
        fileprivate func add(_ bytes: Int) { claim.withLock { $0.bytes += bytes } }
        deinit { leave() }
    }
}
