import Foundation
import Testing
import QuireKit
import VipsBridge
import QuireTestSupport

/// Hostile input through the built `quire` binary: the corrupt and malicious files of other
/// projects' suites (../shared/data/real), mutated samples (a fuzz test), and hostile names.
/// Each must end in a page or a one-line error: never a crash, a hang or runaway memory.
@Suite(.serialized) struct HostileInputTests {
    static let realTree = TestSupport.repoRoot.deletingLastPathComponent().appendingPathComponent("shared/data/real")
        .path
    static var hasRealTree: Bool { FileManager.default.fileExists(atPath: realTree + "/SOURCES.md") }

    struct Outcome {
        var status: Int32
        var terminatedBySignal: Bool
        var stderr: String
        var report: LayoutReport?
    }

    /// Runs `quire process` on `inputs`, killing it (and failing) after `limit` seconds.
    /// Awaited, so the child's run does not hold a test worker thread.
    static func process(_ inputs: [String], out: String, extra: [String] = [], limit: Double) async throws -> Outcome {
        let done = try await Subprocess.run(
            try #require(ProcessorResumeTests.binary, "quire binary not built"),
            ["process"] + inputs + ["-o", out, "--jobs", "2", "--progress", "none"] + extra,
            stdout: .discard, limit: limit)
        #expect(!done.timedOut, "quire did not finish within \(limit) s")
        let report = try? LayoutReport.read(from: URL(fileURLWithPath: out + "/layout.json"))
        return Outcome(status: done.status, terminatedBySignal: done.signalled, stderr: done.err, report: report)
    }

    /// Every input has an outcome (a page or an error) and nothing else is reported; every
    /// failure is one `quire: ` line on stderr.
    static func checkAccounted(_ outcome: Outcome, inputs: [String]) {
        #expect(!outcome.terminatedBySignal, "quire crashed: \(outcome.stderr.suffix(2000))")
        #expect(outcome.status == 0 || outcome.status == 1, "exit status \(outcome.status)")
        guard let report = outcome.report else {
            Issue.record("no layout.json: \(outcome.stderr.suffix(2000))")
            return
        }
        let reported = Set(report.pages.map(\.source) + report.errors.map(\.source))
        let missing = Set(inputs).subtracting(reported)
        #expect(missing.isEmpty, "inputs with no outcome: \(missing.sorted().prefix(10))")
        #expect(reported.isSubset(of: Set(inputs)))
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("quire: ") }, "\(lines.filter { !$0.hasPrefix("quire: ") }.prefix(5))")
        #expect(lines.count == report.errors.count + 1, "one line per failure plus the summary")
    }

    /// Peak resident memory of the biggest child process so far, in MB.
    static var childPeakMegabytes: Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return usage.ru_maxrss / 1024
    }

    @Test(.enabled(if: hasRealTree, "../shared/data/real is absent"))
    func everyRealWorldFileEndsInAPageOrAOneLineError() async throws {
        let skipped: Set<String> = ["md", "tsv", "txt", "rst"]
        var inputs: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: Self.realTree)
        while let rel = enumerator?.nextObject() as? String {
            let path = Self.realTree + "/" + rel
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                continue
            }
            let name = (rel as NSString).lastPathComponent
            if skipped.contains((name as NSString).pathExtension.lowercased()) || name == "README"
                || name.contains("LICENSE")
            {
                continue
            }
            inputs.append(path)
        }
        inputs.sort()
        #expect(inputs.count > 300)
        let out = try TestSupport.temporaryFolder("hostile-real")
        defer { try? FileManager.default.removeItem(atPath: out) }
        // Small renditions and PDFs at 50 dpi keep the time modest; decoding is what is tested.
        let outcome = try await Self.process(
            inputs, out: out,
            extra: [
                "--correct", "none", "--preview-size", "200", "--thumb-size", "48", "--dpi", "50",
                "--page-timeout", "20"
            ], limit: 900)
        Self.checkAccounted(outcome, inputs: inputs)
        #expect((outcome.report?.pages.count ?? 0) > 200)
        #expect(Self.childPeakMegabytes < 800, "peak RSS \(Self.childPeakMegabytes) MB")
        // The bombs and crashers are refused with a reason, not silently dropped.
        let errors = outcome.report?.errors ?? []
        for name in ["truncated.svgz", "decompression_bomb.ico"] {
            #expect(errors.contains { $0.source.hasSuffix(name) && !$0.message.isEmpty }, "\(name)")
        }
    }

    @Test func mutatedSamplesNeverCrashOrHang() async throws {
        let dir = try TestSupport.temporaryFolder("fuzz-in"), samples = try TestSupport.temporaryFolder("fuzz-samples")
        defer { for p in [dir, samples] { try? FileManager.default.removeItem(atPath: p) } }
        let formats: [(VIPSImage.SaveFormat, String)] = [(.jpeg, "jpg"), (.png, "png"), (.tiff, "tif"), (.webp, "webp")]
        var originals: [(bytes: [UInt8], ext: String)] = []
        for (i, (format, ext)) in formats.enumerated() {
            let path = "\(samples)/s\(i).\(ext)"
            try TestSupport.writeImage(path, width: 96 + 16 * i, height: 72, level: UInt8(40 * i), format: format)
            originals.append(([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), ext))
        }
        var mutator = InputMutator(seed: 20_261_122)
        var inputs: [String] = []
        for n in 0..<320 {
            let original = originals[n % originals.count]
            var (_, bytes) = mutator.mutate(original.bytes)
            if n % 5 == 0 { bytes = mutator.mutate(bytes).bytes }  // some get two kinds of damage
            let path = "\(dir)/m\(n).\(original.ext)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            inputs.append(path)
        }
        // In batches, so a crash would point at a smaller set.
        var pages = 0, failures = 0
        for batch in stride(from: 0, to: inputs.count, by: 160) {
            let slice = Array(inputs[batch..<min(inputs.count, batch + 160)])
            let out = try TestSupport.temporaryFolder("fuzz-out")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let outcome = try await Self.process(
                slice, out: out, extra: ["--preview-size", "64", "--thumb-size", "32", "--page-timeout", "20"],
                limit: 300)
            Self.checkAccounted(outcome, inputs: slice)
            pages += outcome.report?.pages.count ?? 0
            failures += outcome.report?.errors.count ?? 0
        }
        // The mutants exercise both paths: damage the decoders survive, and damage they report.
        #expect(pages > 30 && failures > 30, "\(pages) pages, \(failures) failures")
        #expect(Self.childPeakMegabytes < 1500)
    }

    @Test func hostileNamesNeverWriteOutsideOutAndLoopsEnd() async throws {
        let root = try TestSupport.temporaryFolder("hostile-names")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let input = root + "/in", out = root + "/out"
        try FileManager.default.createDirectory(atPath: input + "/sub dir/ünï", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: input + "/dots..", withIntermediateDirectories: true)
        let names = ["a b.jpg", "ünïcødé-页.jpg", "new\nline.jpg", "dots../x..y...jpg", "sub dir/ünï/deep.jpg", "-o.jpg"]
        for (i, name) in names.enumerated() {
            try TestSupport.writeImage(input + "/" + name, width: 64, height: 48, level: UInt8(30 * i))
        }
        try Data("broken".utf8).write(to: URL(fileURLWithPath: input + "/bad\nname.jpg"))
        // Symlink loops: to an ancestor, to itself, and a pair.
        try FileManager.default.createSymbolicLink(atPath: input + "/sub dir/loop", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: input + "/self.jpg", withDestinationPath: "self.jpg")
        try FileManager.default.createSymbolicLink(atPath: input + "/x", withDestinationPath: "y")
        try FileManager.default.createSymbolicLink(atPath: input + "/y", withDestinationPath: "x")
        let before = try FileManager.default.subpathsOfDirectory(atPath: root)

        let outcome = try await Self.process([input], out: out, limit: 120)
        #expect(outcome.status == 1)
        #expect(!outcome.terminatedBySignal)
        let report = try #require(outcome.report)
        #expect(report.pages.count == names.count)
        // Links that never reach a file are reported, not skipped (issue 34).
        #expect(report.errors.map(\.source) == ["bad\nname.jpg", "self.jpg", "x", "y"])
        #expect(report.errors.map(\.code) == ["not-an-image", "dangling-link", "dangling-link", "dangling-link"])
        // The newline in the name is escaped: the failure is still one line.
        #expect(outcome.stderr.contains("bad\\nname.jpg"))
        #expect(outcome.stderr.split(separator: "\n").count == 5)
        // Everything new is inside OUT, and every output name is a plain number.
        let after = try FileManager.default.subpathsOfDirectory(atPath: root)
        #expect(Set(after).subtracting(before).allSatisfy { $0 == "out" || $0.hasPrefix("out/") })
        for page in report.pages {
            #expect(page.files.page.range(of: #"^pages/\d{4}\.jpg$"#, options: .regularExpression) != nil)
        }
    }

    @Test(.enabled(if: hasRealTree, "../shared/data/real is absent"))
    func aPageThatNeverEndsIsGivenUpOnAndTheBatchFinishes() async throws {
        let dir = try TestSupport.temporaryFolder("hostile-timeout"),
            out = try TestSupport.temporaryFolder("hostile-timeout-out")
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        let spinner = Self.realTree + "/libvips-test-suite/truncated.svgz"
        try TestSupport.writeImage("\(dir)/fine.jpg", width: 80, height: 60)
        // Declined by default, from its bytes, at once.
        let declined = try await Self.process([spinner, "\(dir)/fine.jpg"], out: out, limit: 60)
        Self.checkAccounted(declined, inputs: [spinner, "\(dir)/fine.jpg"])
        #expect(declined.report?.errors.first?.message.contains("--allow-untrusted-formats") == true)
        // Allowed, libvips spins on it forever: the time limit gives up on it and the batch ends.
        let start = Date()
        let limited = try await Self.process(
            [spinner, "\(dir)/fine.jpg"], out: out,
            extra: ["--allow-untrusted-formats", "--page-timeout", "1"], limit: 60)
        Self.checkAccounted(limited, inputs: [spinner, "\(dir)/fine.jpg"])
        #expect(limited.status == 1)
        #expect(limited.report?.pages.map(\.source) == ["\(dir)/fine.jpg"])
        #expect(limited.report?.errors.first?.message.contains("gave up after 1 s") == true, "\(limited.stderr)")
        #expect(Date().timeIntervalSince(start) < 50)
    }
}
