import Foundation
import Synchronization
import Testing
@testable import QuireImaging

@Suite struct FrameGateTests {
    /// Whatever the timing, the frames inside never exceed the budget. Eight threads of their
    /// own (not a pool that may run them one by one) enter at once, holding a while.
    @Test func framesInsideStayWithinTheBudget() {
        let gate = FrameGate(budget: 100, patience: .seconds(30))
        let inside = Atomic<Int>(0), most = Atomic<Int>(0)
        let sizes = [60, 60, 60, 40, 40, 40, 30, 30]
        let done = DispatchGroup()
        let threads = sizes.map { size in
            done.enter()
            return Thread {
                let pass = gate.enter(bytes: size)
                let now = inside.add(size, ordering: .relaxed).newValue
                _ = most.max(now, ordering: .relaxed)
                usleep(5_000)
                inside.subtract(size, ordering: .relaxed)
                pass.leave()
                done.leave()
            }
        }
        threads.forEach { $0.start() }
        done.wait()
        #expect(most.load(ordering: .relaxed) <= 100)
        #expect(most.load(ordering: .relaxed) >= 60)
    }

    /// Frames that fit together go in together; one that does not waits for room.
    @Test func fittingFramesShareTheBudgetAndTheRestWait() {
        let gate = FrameGate(budget: 60, patience: .milliseconds(50))
        let t0 = ContinuousClock.now
        let a = gate.enter(bytes: 30), b = gate.enter(bytes: 30)
        #expect(ContinuousClock.now - t0 < .milliseconds(40), "30 + 30 fit a budget of 60")
        let t1 = ContinuousClock.now
        let c = gate.enter(bytes: 1)  // no room: waits out its patience, then goes ahead holding nothing
        #expect(ContinuousClock.now - t1 >= .milliseconds(40))
        a.leave(); b.leave(); c.leave()
        // c held nothing: after a and b left, 60 fit again at once.
        let t2 = ContinuousClock.now
        let d = gate.enter(bytes: 60)
        #expect(ContinuousClock.now - t2 < .milliseconds(40))
        d.leave()
    }

    /// A frame larger than the whole budget is admitted when it is alone, never starved.
    @Test func aFrameOverTheBudgetGoesAlone() {
        let gate = FrameGate(budget: 60, patience: .seconds(30))
        let t0 = ContinuousClock.now
        let big = gate.enter(bytes: 500)
        #expect(ContinuousClock.now - t0 < .milliseconds(40))
        let admitted = DispatchSemaphore(value: 0)
        let waiter = Thread {
            let small = gate.enter(bytes: 10)
            admitted.signal()
            small.leave()
        }
        waiter.start()
        #expect(admitted.wait(timeout: .now() + .milliseconds(30)) == .timedOut, "nothing joins a page over the budget")
        big.leave()
        #expect(admitted.wait(timeout: .now() + .seconds(2)) == .success)
    }

    /// A pass gives its bytes back once, however often it is left, and when it is dropped.
    @Test func passesGiveTheirBytesBackOnce() {
        let gate = FrameGate(budget: 10, patience: .milliseconds(50))
        do {
            let pass = gate.enter(bytes: 10)
            pass.leave()
            pass.leave()
        }
        do { _ = gate.enter(bytes: 10) }  // dropped without leave(): the bytes come back
        let first = gate.enter(bytes: 10)
        let start = ContinuousClock.now
        let second = gate.enter(bytes: 10)  // no room: waits out its patience
        #expect(ContinuousClock.now - start >= .milliseconds(40))
        first.leave()
        second.leave()  // held nothing: must not give back bytes it never took
        let a = gate.enter(bytes: 10)
        let t0 = ContinuousClock.now
        let b = gate.enter(bytes: 10)
        #expect(ContinuousClock.now - t0 >= .milliseconds(40), "a double give-back would have let b in")
        a.leave(); b.leave()
    }

    @Test func batchesGetABudgetPerTwoWorkers() {
        #expect(FrameGate.forBatch(pagesInFlight: 1).budget == FrameGate.budgetPerTwoWorkers)
        #expect(FrameGate.forBatch(pagesInFlight: 2).budget == FrameGate.budgetPerTwoWorkers)
        #expect(FrameGate.forBatch(pagesInFlight: 4).budget == 2 * FrameGate.budgetPerTwoWorkers)
        // Two 10 MP RGB frames fit one pair's budget; two 12 MP frames do not.
        #expect(2 * 10_000_000 * 3 <= FrameGate.budgetPerTwoWorkers)
        #expect(2 * 12_000_000 * 3 > FrameGate.budgetPerTwoWorkers)
    }
}
