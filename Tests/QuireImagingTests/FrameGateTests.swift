import Foundation
import Synchronization
import Testing
@testable import QuireImaging

@Suite struct FrameGateTests {
    /// With one slot, two pages never hold a whole frame at the same time.
    @Test func oneSlotAdmitsOnePageAtATime() {
        let gate = FrameGate(slots: 1, patience: .seconds(30))
        let inside = Atomic<Int>(0), most = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let pass = gate.enter()
            let now = inside.add(1, ordering: .relaxed).newValue
            _ = most.max(now, ordering: .relaxed)
            usleep(2_000)
            inside.subtract(1, ordering: .relaxed)
            pass.leave()
        }
        #expect(most.load(ordering: .relaxed) == 1)
    }

    /// A pass gives its slot back once, however often it is left, and when it is dropped.
    @Test func passesGiveTheirSlotBackOnce() {
        let gate = FrameGate(slots: 1, patience: .milliseconds(50))
        do {
            let pass = gate.enter()
            pass.leave()
            pass.leave()
        }
        do { _ = gate.enter() }  // dropped without leave(): the slot comes back
        let first = gate.enter()
        let start = ContinuousClock.now
        let second = gate.enter()  // no slot: waits out its patience, then goes ahead
        #expect(ContinuousClock.now - start >= .milliseconds(40))
        first.leave()
        second.leave()
        // Leaving a pass that never had a slot must not create one: only one slot exists.
        let a = gate.enter()
        let t0 = ContinuousClock.now
        let b = gate.enter()
        #expect(ContinuousClock.now - t0 >= .milliseconds(40))
        a.leave(); b.leave()
    }

    @Test func batchesGetOneSlotPerTwoWorkers() {
        let gate = FrameGate.forBatch(pagesInFlight: 4, patience: .milliseconds(50))
        let t0 = ContinuousClock.now
        let a = gate.enter(), b = gate.enter()
        #expect(ContinuousClock.now - t0 < .milliseconds(40))
        let t1 = ContinuousClock.now
        let c = gate.enter()  // the third waits: two slots for four workers
        #expect(ContinuousClock.now - t1 >= .milliseconds(40))
        a.leave(); b.leave(); c.leave()
    }
}
