import Foundation
import Testing
@testable import QuireKit
@testable import QuireImaging
import QuireTestSupport
import VipsBridge

@Suite struct ContentHashTests {
    /// Reference values of XXH64 with seed 0 (from the xxHash specification's test vectors).
    @Test func matchesReferenceVectors() {
        #expect(ContentHash.of("") == "ef46db3751d8e999")
        #expect(ContentHash.of("a") == "d24ec4f1a98c6e5b")
        #expect(ContentHash.of("abc") == "44bc2cf5ad770999")
        #expect(ContentHash.of("Nobody inspects the spammish repetition") == "fbcea83c8a378bf1")
    }

    @Test func streamingEqualsOneShotAcrossChunkBoundaries() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var oneShot = ContentHash()
        oneShot.update(bytes)
        for split in [1, 7, 31, 32, 33, 500, 999] {
            var streamed = ContentHash()
            streamed.update(Array(bytes[..<split]))
            streamed.update(Array(bytes[split...]))
            #expect(streamed.hexDigest() == oneShot.hexDigest())
        }
    }

    @Test func hashesFiles() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-hash-\(UUID().uuidString)")
        try Data("abc".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try ContentHash.ofFile(atPath: url.path) == "44bc2cf5ad770999")
        #expect(throws: (any Error).self) { try ContentHash.ofFile(atPath: url.path + "-missing") }
    }

    /// The resume hash reads every input once per run: its buffer must be reused from the heap,
    /// not mapped and faulted in per file as a 1 MiB one was under the batch's mmap threshold.
    @Test func hashingAFileReusesItsReadBuffer() throws {
        #expect(ContentHash.readChunkBytes < VIPSRuntime.defaultMmapThreshold)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-hash-\(UUID().uuidString)")
        try Data(repeating: 7, count: 3 << 20).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        ImagingRuntime.limitAllocatorGrowth()  // as `quire` does at start-up
        func faults() -> Int {
            var usage = rusage()
            getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD: this test's thread only
            return usage.ru_minflt
        }
        let first = try ContentHash.ofFile(atPath: url.path)
        let before = faults()
        for _ in 0..<6 { #expect(try ContentHash.ofFile(atPath: url.path) == first) }
        let perFile = (faults() - before) / 6
        #expect(perFile < 64, "\(perFile) page faults a file (a mapped 1 MiB buffer costs 256)")
    }
}

@Suite struct ShardSelectorTests {
    @Test func parsesAndRejects() throws {
        let s = try ShardSelector(parsing: "2/8")
        #expect(s.index == 2 && s.count == 8)
        for bad in ["", "2", "0/3", "4/3", "a/b", "1/0", "-1/2", "1/2/3", "1/1000001"] {
            #expect(throws: ShardSelector.ParseError.self) { try ShardSelector(parsing: bad) }
        }
    }

    @Test func everySourceLandsInExactlyOneShardAndSharesAreBalanced() throws {
        let sources = (0..<2000).map { "scans/box \($0 / 100)/page\($0).jpg" }
        let shards = (1...4).map { ShardSelector(index: $0, count: 4) }
        var counts = [0, 0, 0, 0]
        for source in sources {
            let owners = shards.filter { $0.contains(source: source) }
            #expect(owners.count == 1)
            counts[owners[0].index - 1] += 1
        }
        #expect(counts.allSatisfy { $0 > 400 && $0 < 600 })
    }

    @Test func hashIsStable() {
        // FNV-1a 64 reference: "a" -> af63dc4c8601ec8c.
        #expect(ShardSelector.stableHash("a") == 0xAF63_DC4C_8601_EC8C)
    }
}

@Suite struct ResumeManifestTests {
    func result(_ file: String) -> PageResult {
        PageResult(
            source: PageSource(path: file), format: .jpeg, orientation: 1, width: 10, height: 20,
            correction: CorrectionRecord(kind: .none),
            files: PageOutputPaths(page: "p", preview: "v", thumbnail: "t"))
    }

    @Test func reusesOnlyUnchangedPagesWithStoredFilesPresentAndSurvivesATornLine() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("quire-manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let store = out.appendingPathComponent(".quire/store")
        let names = ["page.jpg", "preview.jpg", "thumb.jpg"]
        try FileManager.default.createDirectory(
            at: store.appendingPathComponent("s1"), withIntermediateDirectories: true)
        for name in names { try Data([1]).write(to: store.appendingPathComponent("s1/" + name)) }
        do {
            let manifest = try ResumeManifest(outputDirectory: out)
            try manifest.record(
                .init(key: "a.jpg#0", inputHash: "h1", optionsHash: "o1", store: "s1", results: [result("a.jpg")]))
            try manifest.record(
                .init(key: "b.jpg#0", inputHash: "h2", optionsHash: "o1", store: "s2", results: [result("b.jpg")]))
        }
        // A kill mid-append leaves a torn last line.
        let handle = try FileHandle(forWritingTo: ResumeManifest.url(in: out))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"key\":\"c.jpg#0\",\"inp".utf8))
        try handle.close()

        let reopened = try ResumeManifest(outputDirectory: out)
        #expect(reopened.count == 2)
        #expect(
            reopened.reusable(
                key: "a.jpg#0", inputHash: "h1", optionsHash: "o1", storeDirectory: store, fileNames: { _ in names })?
                .results == [result("a.jpg")])
        #expect(
            reopened.reusable(
                key: "a.jpg#0", inputHash: "CHANGED", optionsHash: "o1", storeDirectory: store,
                fileNames: { _ in names }) == nil)
        #expect(
            reopened.reusable(
                key: "a.jpg#0", inputHash: "h1", optionsHash: "CHANGED", storeDirectory: store,
                fileNames: { _ in names }) == nil)
        // b's stored files (s2) were never written: not reusable.
        #expect(
            reopened.reusable(
                key: "b.jpg#0", inputHash: "h2", optionsHash: "o1", storeDirectory: store, fileNames: { _ in names })
                == nil)
        // A split source's entry is reusable only while both pages' files are stored.
        try reopened.record(
            .init(
                key: "e.jpg#0", inputHash: "h5", optionsHash: "o1", store: "s1",
                results: [result("e.jpg"), result("e.jpg")]))
        let parts: (Int) -> [String] = { part in
            part == 1 ? names : names.map { $0.replacingOccurrences(of: ".jpg", with: "-\(part).jpg") }
        }
        #expect(
            reopened.reusable(
                key: "e.jpg#0", inputHash: "h5", optionsHash: "o1", storeDirectory: store, fileNames: parts) == nil)
        for name in parts(2) { try Data([1]).write(to: store.appendingPathComponent("s1/" + name)) }
        #expect(
            reopened.reusable(
                key: "e.jpg#0", inputHash: "h5", optionsHash: "o1", storeDirectory: store, fileNames: parts)?.results
                .count == 2)
        // The end-of-run rewrite keeps exactly the entries given, and appends still work after it.
        try reopened.rewrite([reopened.allEntries[0]])
        try reopened.record(
            .init(key: "d.jpg#0", inputHash: "h4", optionsHash: "o1", store: "s4", results: [result("d.jpg")]))
        #expect(try ResumeManifest(outputDirectory: out).allEntries.map(\.key) == ["a.jpg#0", "d.jpg#0"])
        let forced = try ResumeManifest(outputDirectory: out, discardExisting: true)
        #expect(forced.count == 0)
    }
}

@Suite struct ProgressReporterTests {
    final class Sink: @unchecked Sendable {
        var text = ""
        let lock = NSLock()
        func append(_ s: String) { lock.lock(); text += s; lock.unlock() }
    }

    @Test func jsonStylePrintsOneParsableLinePerPage() throws {
        let sink = Sink()
        let reporter = ProgressReporter(style: .json, total: 3, isTerminal: false, write: { sink.append($0) })
        reporter.pageFinished(source: "a.jpg", sourcePage: 0, status: .ok)
        reporter.pageFinished(source: "b.jpg", sourcePage: 0, status: .failed, message: "not an image")
        reporter.pageFinished(source: "c.pdf", sourcePage: 1, status: .skipped)
        let lines = sink.text.split(separator: "\n")
        #expect(lines.count == 3)
        let last = try JSONDecoder().decode(ProgressReporter.Event.self, from: Data(lines[2].utf8))
        #expect(last.done == 3 && last.total == 3 && last.sourcePage == 1 && last.status == .skipped)
    }

    @Test func autoStyleDrawsNothingWhenNotATerminalAndABarWhenItIs() {
        let quiet = Sink()
        let off = ProgressReporter(style: .auto, total: 2, isTerminal: false, write: { quiet.append($0) })
        off.pageFinished(source: "a", sourcePage: 0, status: .ok)
        off.finish()
        #expect(quiet.text.isEmpty)
        let tty = Sink()
        let on = ProgressReporter(style: .auto, total: 2, isTerminal: true, write: { tty.append($0) })
        on.pageFinished(source: "a", sourcePage: 0, status: .ok)
        on.pageFinished(source: "b", sourcePage: 0, status: .ok)
        on.finish()
        #expect(tty.text.contains("2/2"))
        #expect(tty.text.contains("pages/s"))
    }

    @Test func barAndClockFormatting() {
        #expect(
            ProgressReporter.bar(done: 5, total: 10, rate: 2.5, secondsLeft: 2, width: 10)
                == "[#####-----] 5/10  2.5 pages/s ETA 0:02")
        #expect(ProgressReporter.clock(seconds: 3725) == "1:02:05")
    }
}

@Suite struct InputMutatorTests {
    @Test func sameSeedSameMutations() {
        let bytes = (0..<500).map { UInt8(truncatingIfNeeded: $0) }
        var a = InputMutator(seed: 42), b = InputMutator(seed: 42)
        for _ in 0..<50 { #expect(a.mutate(bytes).bytes == b.mutate(bytes).bytes) }
    }

    @Test func everyMutationChangesOrShortensTheInput() {
        let bytes = (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
        var m = InputMutator(seed: 7)
        for mutation in InputMutator.Mutation.allCases {
            var changed = false
            for _ in 0..<10 where m.mutate(bytes, with: mutation) != bytes { changed = true }
            #expect(changed, "\(mutation) never changed the input")
        }
    }
}

@Suite struct PageTimeLimitTests {
    @Test func returnsTheValueInTimeAndGivesUpOnOverrunningWork() {
        #expect(PageTimeLimit.run(seconds: 5) { 42 } == 42)
        #expect(PageTimeLimit.run(seconds: nil) { 7 } == 7)
        let gaveUp = PageTimeLimit.run(seconds: 0.05) { () -> Int in
            usleep(2_000_000); return 1
        }
        #expect(gaveUp == nil)
    }

    @Test func aStopRequestedBeforeTheRunProcessesNothingAndLeavesOutUntouched() throws {
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        try TestSupport.writeImage("\(dir)/a.jpg", width: 40, height: 30)
        let stop = BatchStop()
        #expect(stop.request() && !stop.request())
        let summary = try Processor.run(ProcessJob(inputs: [dir], outputDirectory: out), stop: stop)
        #expect(summary.interrupted && summary.pageCount == 0)
        #expect(!FileManager.default.fileExists(atPath: out + "/layout.json"))
        let resumed = try Processor.run(ProcessJob(inputs: [dir], outputDirectory: out))
        #expect(!resumed.interrupted && resumed.pageCount == 1 && resumed.reusedCount == 0)
        let again = try Processor.run(ProcessJob(inputs: [dir], outputDirectory: out))
        #expect(again.pageCount == 1 && again.reusedCount == 1)
    }
}
