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

    /// A page growing its pass for a second frame waits while another page holds a frame and
    /// the sum is over the budget, goes ahead once that page leaves, and then keeps out a frame
    /// that no longer fits beside its two.
    @Test func aGrowerWaitsForTheOtherFrameAndThenCounts() {
        let gate = FrameGate(budget: 60, patience: .seconds(30))
        let a = gate.enter(bytes: 18), b = gate.enter(bytes: 18)
        let grown = DispatchSemaphore(value: 0)
        Thread {
            gate.grow(a, by: 36)
            grown.signal()
        }.start()
        #expect(grown.wait(timeout: .now() + .milliseconds(50)) == .timedOut, "18 + 18 + 36 is over 60")
        b.leave()
        #expect(grown.wait(timeout: .now() + .seconds(5)) == .success)
        let admitted = DispatchSemaphore(value: 0)
        Thread {
            let c = gate.enter(bytes: 18)
            admitted.signal()
            c.leave()
        }.start()
        #expect(admitted.wait(timeout: .now() + .milliseconds(50)) == .timedOut, "54 + 18 is over 60")
        a.leave()  // gives back all 54
        #expect(admitted.wait(timeout: .now() + .seconds(5)) == .success)
    }

    /// A page alone grows at once, over the budget too; of two pages growing at once, one goes
    /// ahead (the other then waits for it to leave, not for its own patience); one that runs
    /// out of patience goes ahead holding no more than it had.
    @Test func growersNeverHang() {
        let gate = FrameGate(budget: 60, patience: .seconds(30))
        let t0 = ContinuousClock.now
        let alone = gate.enter(bytes: 50)
        gate.grow(alone, by: 50)
        #expect(ContinuousClock.now - t0 < .milliseconds(40))
        alone.leave()
        let a = gate.enter(bytes: 30), b = gate.enter(bytes: 30)
        let done = DispatchGroup()
        for pass in [a, b] {
            done.enter()
            Thread {
                gate.grow(pass, by: 30)
                pass.leave()
                done.leave()
            }.start()
        }
        #expect(done.wait(timeout: .now() + .seconds(5)) == .success, "two growers went ahead")

        let impatient = FrameGate(budget: 60, patience: .milliseconds(50))
        let other = impatient.enter(bytes: 40), page = impatient.enter(bytes: 20)
        let t1 = ContinuousClock.now
        impatient.grow(page, by: 30)
        #expect(ContinuousClock.now - t1 >= .milliseconds(40))
        other.leave()
        // page still holds 20 (not 50): 40 more fit at once.
        let t2 = ContinuousClock.now
        let next = impatient.enter(bytes: 40)
        #expect(ContinuousClock.now - t2 < .milliseconds(40))
        next.leave(); page.leave()
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
