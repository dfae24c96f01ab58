import Foundation
import QuireImageTestSupport
import QuireTestSupport
import Testing
import VipsBridge

/// The shared helpers: their sequences replay, their limits hold, their waits give the pool back.
@Suite struct TestSupportTests {
    /// SplitMix64's published first outputs for seed 0: every fuzz seed and random layout in the
    /// suite replays only while these stay the same.
    @Test func splitMix64GivesTheReferenceSequence() {
        var random = SplitMix64(seed: 0)
        #expect(
            [random.next(), random.next(), random.next()] == [
                0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F
            ])
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42)
        #expect((0..<100).map { _ in a.next(below: 7) } == (0..<100).map { _ in b.next(below: 7) })
        #expect(a.next(below: 0) == 0 && a.next(below: 1) == 0)
        #expect((0..<1000).allSatisfy { _ in (3...9).contains(a.int(3...9)) })
    }

    /// The fuzz count read from outside is range-checked before it becomes a loop bound.
    @Test func fuzzIterationsAreRangeChecked() {
        #expect(Fuzz.iterations(default: 1000, environment: [:]) == 1000)
        #expect(Fuzz.iterations(default: 1000, environment: ["QUIRE_FUZZ_ITERATIONS": "250"]) == 250)
        #expect(Fuzz.iterations(default: 1000, environment: ["QUIRE_FUZZ_ITERATIONS": "-5"]) == 0)
        #expect(
            Fuzz.iterations(default: 1000, environment: ["QUIRE_FUZZ_ITERATIONS": "999999999999"]) == Fuzz.maxIterations
        )
        #expect(Fuzz.iterations(default: 1000, environment: ["QUIRE_FUZZ_ITERATIONS": "lots"]) == 1000)
        #expect(Fuzz.seed(default: 34, environment: ["QUIRE_FUZZ_SEED": "7"]) == 7)
        #expect(Fuzz.seed(default: 34, environment: ["QUIRE_FUZZ_SEED": "-7"]) == 34)
    }

    /// A mutator replays from its seed and its repeated runs stay under `maxRun`.
    @Test func fuzzMutatorReplaysFromItsSeed() {
        var a = FuzzMutator(seed: 9), b = FuzzMutator(seed: 9)
        let input = Array("GET / HTTP/1.1\r\n\r\n".utf8)
        for _ in 0..<200 {
            let x = a.mutate(input, tokens: ["%", "/"], maxRun: 64), y = b.mutate(input, tokens: ["%", "/"], maxRun: 64)
            #expect(x == y)
            #expect(x.count <= input.count + 8 * 64 + 8 * 64)
        }
        #expect(!FuzzCorpus.load("http").isEmpty, "the HTTP seed corpus is found from the shared root")
    }

    /// More children than the pool has threads, each waiting for a file that only a later task
    /// makes: awaited waits give their threads back so that task runs and all finish. Blocking
    /// waits (`waitUntilExit()`) would hold every thread and never reach it (the limit is only
    /// a hang guard).
    @Test(.timeLimit(.minutes(2)))
    func awaitedChildrenDoNotHoldThePool() async throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let flag = dir + "/go"
        let waiters = ProcessInfo.processInfo.activeProcessorCount + 2
        let results = try await withThrowingTaskGroup(of: Subprocess.Result?.self) { group in
            for _ in 0..<waiters {
                group.addTask {
                    try await Subprocess.run(
                        "/bin/sh", ["-c", "while [ ! -e \"$0\" ]; do sleep 0.01; done; echo done", flag],
                        limit: 60)
                }
            }
            group.addTask {
                _ = FileManager.default.createFile(atPath: flag, contents: Data())
                return nil
            }
            return try await group.reduce(into: [Subprocess.Result]()) { if let r = $1 { $0.append(r) } }
        }
        #expect(results.count == waiters)
        #expect(results.allSatisfy { !$0.timedOut && $0.status == 0 && $0.out == "done\n" })
    }

    /// A child's exit status, its signal, both streams and a killed hang are reported.
    @Test func subprocessReportsStatusSignalsAndOutput() async throws {
        let ok = try await Subprocess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(ok.status == 3 && !ok.signalled && ok.out == "out\n" && ok.err == "err\n")
        let killed = try await Subprocess.run("/bin/sh", ["-c", "kill -9 $$"])
        #expect(killed.signalled && killed.status == SIGKILL)
        let hung = try await Subprocess.run("/bin/sleep", ["600"], limit: 0.2)
        #expect(hung.timedOut && hung.signalled)
        let child = try Subprocess("/bin/sh", ["-c", "echo 1; echo 2; exec sleep 600"])
        #expect(await child.wait(upTo: 30) { $0.stdoutLines >= 2 })
        // SIGKILL: the test runner ignores SIGTERM, and a child inherits an ignored signal.
        child.signal(SIGKILL)
        let stopped = await child.finish(limit: 30)
        #expect(stopped.signalled && !stopped.timedOut && stopped.status == SIGKILL && stopped.out == "1\n2\n")
    }

    /// Pixel differences of 8-bit images, and a clear refusal for images that do not line up.
    @Test func pixelDifferencesCompareEightBitImages() throws {
        let a = try TestSupport.image(width: 4, height: 2, bands: 3) { _, _, _ in 10 }
        let b = try TestSupport.image(width: 4, height: 2, bands: 3) { x, y, band in
            x == 1 && y == 1 && band == 2 ? 40 : 13
        }
        #expect(try a.maxAbsoluteDifference(to: b) == 30)
        #expect(try a.meanAbsoluteDifference(to: b) == Double(23 * 3 + 30) / 24)
        #expect(try a.maxAbsoluteDifference(to: a) == 0)
        let small = try TestSupport.image(width: 2, height: 2, bands: 3) { _, _, _ in 10 }
        #expect(throws: VIPSImage.DifferenceError.self) { try a.maxAbsoluteDifference(to: small) }
    }
}
