import Foundation
import Testing
import VipsBridge
@testable import QuireKit

/// Inputs at the edges of what a file system holds (issue 34): FIFOs, sockets, dangling links,
/// unreadable folders and names that are not UTF-8 are each processed or reported with a code,
/// at once, never waited on and never skipped silently.
@Suite struct InputEdgeTests {
    /// Makes a FIFO at `path`.
    static func fifo(_ path: String) throws {
        try #require(mkfifo(path, 0o644) == 0, "mkfifo \(path)")
    }

    /// Binds a Unix socket at `path` (left bound until the process ends: the test only needs
    /// the file-system entry).
    static func socket(_ path: String) throws {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (i, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        close(fd)
        try #require(bound == 0, "bind \(path)")
    }

    /// Creates a file whose name holds the raw bytes `name` (not a Swift string) in `dir`.
    static func rawNamedCopy(of source: String, in dir: String, name: [UInt8]) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let path = Array(dir.utf8) + [UInt8(ascii: "/")] + name + [0]
        let fd = path.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        try #require(fd >= 0)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    @Test func specialFilesAndDanglingLinksAreReportedAtOnce() throws {
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        try TestSupport.writeImage("\(dir)/a.jpg", width: 80, height: 60)
        try Self.fifo("\(dir)/b.jpg")
        try Self.fifo("\(dir)/pipe")
        try Self.socket("\(dir)/c.sock")
        try FileManager.default.createSymbolicLink(atPath: "\(dir)/d.jpg", withDestinationPath: "gone.jpg")
        let named = try TestSupport.temporaryFolder("named")
        defer { try? FileManager.default.removeItem(atPath: named) }
        try Self.fifo("\(named)/given.jpg")

        // A hang guard only: before the fix a FIFO waited this long (the default is 60 s).
        var job = ProcessJob(inputs: [dir, "\(named)/given.jpg"], outputDirectory: out)
        job.pageTimeout = 20
        let summary = try Processor.run(job)
        #expect(summary.report.pages.map(\.source) == ["a.jpg"])
        let codes = Dictionary(uniqueKeysWithValues: summary.report.errors.map { ($0.source, $0.code) })
        #expect(
            codes == [
                "b.jpg": "not-a-file", "pipe": "not-a-file", "c.sock": "not-a-file",
                "d.jpg": "dangling-link", "\(named)/given.jpg": "not-a-file"
            ], "\(summary.report.errors)")
        let messages = summary.report.errors.map(\.message)
        #expect(messages.contains("is a FIFO (named pipe), not a regular file"))
        #expect(messages.contains("is a socket, not a regular file"))
        #expect(messages.contains("symbolic link to a file that does not exist"))
    }

    @Test func namesThatAreNotUTF8AreProcessedAndShownEscaped() throws {
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        try TestSupport.writeImage("\(dir)/a.jpg", width: 80, height: 60, level: 20)
        try TestSupport.writeImage("\(dir)/model.jpg", width: 70, height: 90, level: 200)
        try Self.rawNamedCopy(
            of: "\(dir)/model.jpg", in: dir, name: Array("b".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8))
        try FileManager.default.removeItem(atPath: "\(dir)/model.jpg")

        let found = InputDiscovery.discover([dir])
        #expect(found.map(\.source) == ["a.jpg", "b\\xFF\\xFE.jpg"])
        let summary = try Processor.run(ProcessJob(inputs: [dir], outputDirectory: out))
        #expect(summary.report.errors.isEmpty, "\(summary.report.errors)")
        #expect(summary.report.pages.map(\.source) == ["a.jpg", "b\\xFF\\xFE.jpg"])
        #expect(summary.report.pages.last.map { ($0.width, $0.height) } ?? (0, 0) == (70, 90))
    }

    @Test func escapingShowsEveryByteThatIsNotPrintableASCII() {
        #expect(InputDiscovery.escaped(Array("a b".utf8) + [0x00, 0x5C, 0xC3, 0x7F]) == "a b\\x00\\x5C\\xC3\\x7F")
    }

    /// Through the binary, since a name that is not UTF-8 cannot be passed as a Swift string:
    /// given directly it is processed too (it used to be "no such file").
    @Test func aNameThatIsNotUTF8GivenDirectlyIsProcessed() async throws {
        let binary = try #require(ProcessorResumeTests.binary, "quire binary not built")
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        try TestSupport.writeImage("\(dir)/model.jpg", width: 70, height: 90)
        try Self.rawNamedCopy(of: "\(dir)/model.jpg", in: dir, name: Array("c".utf8) + [0xE9] + Array(".jpg".utf8))
        let run = try await ProcessorResumeTests.quire(
            [
                "-c", #"exec "$0" process "$(printf '%s/c\351.jpg' "$1")" -o "$2" --progress none"#,
                binary, dir, out
            ], executable: "/bin/sh")
        #expect(run.status == 0, "\(run.stderr)")
        let report = try LayoutReport.read(from: URL(fileURLWithPath: out + "/layout.json"))
        #expect(report.pages.map(\.source) == ["\(dir)/c\\xE9.jpg"])
    }

    /// A sub-folder that cannot be read is an error of its own. Root reads every folder, so
    /// the binary runs as `nobody` then (through setpriv).
    @Test func anUnreadableSubfolderIsReported() async throws {
        let binary = try #require(ProcessorResumeTests.binary, "quire binary not built")
        let asRoot = getuid() == 0
        let setpriv = "/usr/bin/setpriv"
        try #require(
            !asRoot || FileManager.default.isExecutableFile(atPath: setpriv), "running as root without setpriv")
        let root = try TestSupport.temporaryFolder()
        defer {
            chmod(root + "/in/locked", 0o755)
            try? FileManager.default.removeItem(atPath: root)
        }
        try FileManager.default.createDirectory(atPath: root + "/in/locked", withIntermediateDirectories: true)
        try TestSupport.writeImage(root + "/in/a.jpg", width: 80, height: 60)
        try TestSupport.writeImage(root + "/in/locked/hidden.jpg", width: 80, height: 60)
        chmod(root, 0o777)
        chmod(root + "/in", 0o755)
        chmod(root + "/in/a.jpg", 0o644)
        chmod(root + "/in/locked", 0o000)
        let arguments = ["process", root + "/in", "-o", root + "/out", "--progress", "none"]
        let run =
            asRoot
            ? try await ProcessorResumeTests.quire(
                ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments,
                executable: setpriv)
            : try await ProcessorResumeTests.quire(arguments)
        #expect(run.status == 1, "\(run.stderr)")
        let report = try LayoutReport.read(from: URL(fileURLWithPath: root + "/out/layout.json"))
        #expect(report.pages.map(\.source) == ["a.jpg"])
        #expect(report.errors.map(\.source) == ["locked"])
        #expect(report.errors.map(\.code) == ["unreadable"])
        #expect(run.stderr.contains("quire: locked: folder cannot be read (permission denied)"), "\(run.stderr)")

        // Named directly, it is reported the same way (not "no images found").
        let direct = ["process", root + "/in/locked", "-o", root + "/out2", "--progress", "none"]
        let again =
            asRoot
            ? try await ProcessorResumeTests.quire(
                ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + direct, executable: setpriv)
            : try await ProcessorResumeTests.quire(direct)
        #expect(again.status == 1, "\(again.stderr)")
        let second = try LayoutReport.read(from: URL(fileURLWithPath: root + "/out2/layout.json"))
        #expect(second.errors.map(\.source) == [root + "/in/locked"])
        #expect(second.errors.map(\.code) == ["unreadable"])
    }
}
