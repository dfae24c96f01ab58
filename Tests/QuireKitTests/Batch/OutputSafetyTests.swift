import Foundation
@testable import QuireImaging
import Testing
import VipsBridge
@testable import QuireKit

/// The three ways a user's own setup could corrupt OUT: writing OUT inside the input folder, a
/// full disk, and two runs on the same OUT.
@Suite struct OutputSafetyTests {
    private func scans(_ folder: String, count: Int) throws -> String {
        let scans = folder + "/scans"
        try FileManager.default.createDirectory(atPath: scans, withIntermediateDirectories: true)
        for i in 0..<count {
            try TestSupport.writeImage(scans + "/page\(i + 1).jpg", width: 120, height: 160, level: UInt8(40 + i * 30))
        }
        return scans
    }

    @Test func outInsideTheInputFolderIsNeverTakenAsInput() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scans = try scans(folder, count: 4)
        let job = ProcessJob(inputs: [scans], outputDirectory: scans + "/out", jobs: 1)
        let first = try Processor.run(job)
        #expect(first.report.pages.count == 4)
        // Second run: scans/out now holds 12 JPEGs (pages, previews, thumbs) that must not count.
        let second = try Processor.run(job)
        #expect(second.report.pages.count == 4)
        #expect(second.report.errors.isEmpty)
        #expect(second.report.pages.allSatisfy { !$0.source.hasPrefix("out/") })
    }

    @Test func discoverySkipsTheExcludedFolderAndStateFolders() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scans = try scans(folder, count: 2)
        for sub in ["out/pages", "elsewhere/.quire/store/x", "nested/.quire"] {
            try FileManager.default.createDirectory(atPath: scans + "/" + sub, withIntermediateDirectories: true)
            try TestSupport.writeImage(scans + "/" + sub + "/0001.jpg", width: 8, height: 8)
        }
        // The excluded folder given through another spelling (a `..` detour) is still excluded.
        let found = InputDiscovery.discover([scans], excluding: [scans + "/../scans/out"]).map(\.source)
        #expect(found == ["page1.jpg", "page2.jpg"])
        #expect(InputDiscovery.discover([scans]).map(\.source).contains("out/pages/0001.jpg"))
    }

    @Test func aSecondRunOnALockedOutIsRefused() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scans = try scans(folder, count: 1)
        let out = folder + "/out"
        let job = ProcessJob(inputs: [scans], outputDirectory: out, jobs: 1)
        do {
            let held = try OutputLock(output: out)
            #expect(throws: ProcessError.self) { try Processor.run(job) }
            do {
                _ = try Processor.run(job)
            } catch let error as ProcessError {
                #expect(error.description.contains("is in use by another quire process (pid \(getpid()))"))
            }
            #expect(!FileManager.default.fileExists(atPath: out + "/layout.json"))
            held.release()
        }
        // Released (as when its process dies): the lock file left behind blocks nothing.
        #expect(FileManager.default.fileExists(atPath: OutputLock.path(in: out)))
        #expect(try Processor.run(job).report.pages.count == 1)
    }

    @Test func diskFullWordingsOfEveryWriterAreRecognised() {
        // libvips's jpegsave (libjpeg's message), Quire's own writer (strerror), quotas, Foundation.
        #expect(DiskFull.matches("cannot decode (jpegsave: Output file write error --- out of disk space?)"))
        #expect(DiskFull.matches("jpegsave: /o/.quire/staging/x/page.jpg: No space left on device"))
        #expect(DiskFull.matches("pngsave: Disk quota exceeded"))
        #expect(DiskFull.matches(CocoaError(.fileWriteOutOfSpace)))
        #expect(DiskFull.matches(NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))))
        #expect(!DiskFull.matches("truncated or corrupt image data (premature end of JPEG file)"))
        #expect(!DiskFull.matches(CocoaError(.fileWriteNoPermission)))
        #expect(ProcessError.noSpace(in: "scans/out").description == "cannot write scans/out: no space left on device")
    }

    /// A real full disk: a 1.2 MB tmpfs (needs root to mount; skipped elsewhere).
    @Test func aFullDiskStopsTheBatchAndKeepsThePreviousRun() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let disk = folder + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        guard geteuid() == 0, mount("tmpfs", disk, "tmpfs", 0, "size=1200k") == 0 else { return }
        defer { umount(disk) }
        let small = folder + "/small", large = folder + "/large"
        for (path, count) in [(small, 2), (large, 12)] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for i in 0..<count {
                // Noise compresses badly: a few pages fill the disk.
                var bytes = [UInt8](repeating: 0, count: 500 * 400 * 3)
                var state: UInt32 = UInt32(i + 1) &* 2_654_435_761
                for j in bytes.indices {
                    state = state &* 1_664_525 &+ 1_013_904_223; bytes[j] = UInt8(truncatingIfNeeded: state >> 24)
                }
                try VIPSImage.fromPixels(bytes, width: 500, height: 400, bands: 3)
                    .save(to: path + "/p\(i + 1).jpg", options: .init(format: .jpeg, quality: 95))
            }
        }
        let out = disk + "/out"
        let first = try Processor.run(ProcessJob(inputs: [small], outputDirectory: out, jobs: 2))
        #expect(first.report.pages.count == 2)
        let layoutBefore = try Data(contentsOf: URL(fileURLWithPath: out + "/layout.json"))
        let pagesBefore = try FileManager.default.contentsOfDirectory(atPath: out + "/pages").sorted()

        let events = EventLog()
        do {
            _ = try Processor.run(ProcessJob(inputs: [large], outputDirectory: out, jobs: 2)) { events.add($0) }
            Issue.record("a full disk must stop the run")
        } catch let error as ProcessError {
            #expect(error.description == "cannot write \(out): no space left on device")
        }
        // Not one "cannot decode" line per page: the full disk is reported once, as the run's error.
        #expect(events.failures.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/layout.json")) == layoutBefore)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out + "/pages").sorted() == pagesBefore)
        #expect(!FileManager.default.fileExists(atPath: out + "/.quire/staging"))
    }
}

/// Progress events collected from worker threads.
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [ProcessEvent] = []
    func add(_ event: ProcessEvent) { lock.lock(); list.append(event); lock.unlock() }
    var failures: [LayoutReport.PageError] {
        lock.lock(); defer { lock.unlock() }
        return list.compactMap { if case .failed(let e) = $0 { return e } else { return nil } }
    }
}

/// Temporary files of a run killed mid-write (`.NAME.partial-PID-RANDOM`) are removed by the next
/// command that writes there, unless their writer is still alive.
@Suite struct AbandonedPartialTests {
    /// A PID no process has: above the kernel's `pid_max`.
    static var deadPID: Int32 {
        let max =
            (try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 4_194_304
        return max + 1
    }

    @Test func theNameOfATemporaryFileNamesItsWriter() {
        #expect(AtomicFile.writerPID(ofTemporary: ".pages.pdf.partial-1234-987654") == 1234)
        #expect(AtomicFile.writerPID(ofTemporary: ".layout.json.partial-77-1") == 77)
        #expect(AtomicFile.writerPID(ofTemporary: "pages.pdf") == nil)
        #expect(AtomicFile.writerPID(ofTemporary: ".x.partial-abc-1") == nil)
        #expect(AtomicFile.writerPID(ofTemporary: ".x.partial-12") == nil)
        #expect(AtomicFile.writerPID(ofTemporary: ".x.partial--5-1") == nil)
    }

    /// The viewer's files are written without a sync; still whole, replacing the old file, and
    /// a failed write leaves neither a partial nor the file.
    @Test func anUnsyncedWriteReplacesTheFileWholeOrFails() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/viewer.js"
        try AtomicFile.writeUnsynced(Data("old".utf8), to: path)
        let bytes = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try AtomicFile.writeUnsynced(bytes, to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        try FileManager.default.createDirectory(atPath: folder + "/taken", withIntermediateDirectories: false)
        #expect(throws: AtomicFileError.self) { try AtomicFile.writeUnsynced(bytes, to: folder + "/taken") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["taken", "viewer.js"])
    }

    @Test func aPDFRunRemovesTheDeadRunsPartialsAndKeepsTheLiveOnes() throws {
        let fixture = try OutputFixture.make(aspectRatios: [0.7, 1.3])
        defer { fixture.remove() }
        let dead = fixture.url.appendingPathComponent(".pages.pdf.partial-\(Self.deadPID)-42").path
        let deadLayout = fixture.url.appendingPathComponent(".layout.json.partial-\(Self.deadPID)-7").path
        let live = fixture.url.appendingPathComponent(".pages.pdf.partial-\(getppid())-43").path
        for path in [dead, deadLayout, live] {
            FileManager.default.createFile(atPath: path, contents: Data("half".utf8))
        }
        _ = try PDFExport.run(folder: fixture.url.path, options: PDFExportOptions())
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(!FileManager.default.fileExists(atPath: deadLayout))
        #expect(FileManager.default.fileExists(atPath: live))
    }

    /// A run killed while it wrote the viewer's layout scripts left a partial in
    /// `quire-viewer/layouts/`; the next run's viewer write removes it (a SIGKILL test caught it).
    @Test func theViewerWriteRemovesADeadRunsPartialsInItsFolders() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-partials-\(UUID().uuidString)")
        let layouts = dir.appendingPathComponent("quire-viewer/layouts")
        try FileManager.default.createDirectory(at: layouts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"pages":[]}"#.utf8).write(to: dir.appendingPathComponent("layout.json"))
        let dead = layouts.appendingPathComponent(".strip.js.partial-\(Self.deadPID)-42").path
        let live = layouts.appendingPathComponent(".strip.js.partial-\(getppid())-43").path
        for path in [dead, live] { FileManager.default.createFile(atPath: path, contents: Data("half".utf8)) }
        try ViewerWriter.write(into: dir)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
    }
}
