import Foundation
import Testing
@testable import quire
import QuireTestSupport

/// `quire process` option parsing and validation, without spawning a process.
@Suite struct ProcessCommandTests {
    @Test func optionsMapToTheJob() throws {
        let command = try ProcessCommand.parse([
            "a.jpg", "scans", "-o", "out", "--preview-size", "800", "--thumb-size", "128",
            "--format", "webp", "--quality", "70", "--dpi", "150", "--max-pixels", "40M",
            "--jobs", "3", "--viewport", "428x926", "--strip-height", "50", "--correct", "none"
        ])
        let job = command.job
        #expect(job.inputs == ["a.jpg", "scans"])
        #expect(job.outputDirectory == "out")
        #expect(job.renditions.previewSize == 800 && job.renditions.thumbnailSize == 128)
        #expect(job.renditions.format == .webp && job.renditions.quality == 70)
        #expect(job.dpi == 150 && job.maxPixels == 40_000_000 && job.jobs == 3)
        #expect(job.viewport.width == 428 && job.viewport.height == 926 && job.viewport.stripHeight == 50)
        #expect(job.correction.mode == .none)
    }

    @Test func defaultsFollowTheIssue() throws {
        let job = try ProcessCommand.parse(["x", "-o", "o"]).job
        #expect(job.renditions.previewSize == 1600 && job.renditions.thumbnailSize == 256)
        #expect(job.renditions.format == .jpeg && job.dpi == 200 && job.maxPixels == 250_000_000)
        #expect(job.viewport.width == 390 && job.viewport.height == 844 && job.viewport.stripHeight == 66)
        #expect(job.jobs == nil)
    }

    @Test(arguments: [
        ["-o", "out"], ["x"], ["x", "-o", "o", "--quality", "0"], ["x", "-o", "o", "--format", "gif"],
        ["x", "-o", "o", "--viewport", "390"], ["x", "-o", "o", "--max-pixels", "-5"], ["x", "-o", "o", "--jobs", "0"],
        ["x", "-o", "o", "--dpi", "nan"], ["x", "-o", "o", "--preview-size", "0"],
        ["x", "-o", "o", "--strip-height", "1000001"]
    ])
    func usageErrorsAreRejected(arguments: [String]) {
        #expect(throws: (any Error).self) { try ProcessCommand.parse(arguments) }
    }

    @Test func dependabilityOptionsMapToTheJob() throws {
        let job = try ProcessCommand.parse([
            "x", "-o", "o", "--force", "--page-timeout", "5", "--allow-untrusted-formats"
        ]).job
        #expect(job.force && job.pageTimeout == 5 && job.allowUntrustedFormats)
        let defaults = try ProcessCommand.parse(["x", "-o", "o"])
        #expect(!defaults.job.force && defaults.job.pageTimeout == 60 && !defaults.job.allowUntrustedFormats)
        #expect(defaults.progress == .auto)
        #expect(try ProcessCommand.parse(["x", "-o", "o", "--page-timeout", "0"]).job.pageTimeout == nil)
        #expect(try ProcessCommand.parse(["x", "-o", "o", "--progress", "json"]).progress == .json)
        #expect(throws: (any Error).self) { try ProcessCommand.parse(["x", "-o", "o", "--progress", "bar"]) }
        #expect(throws: (any Error).self) { try ProcessCommand.parse(["x", "-o", "o", "--page-timeout", "-1"]) }
    }
}

/// The built `quire` binary end to end: exit status 0, 1 and 2.
@Suite struct CLIEndToEndTests {
    static var binary: String? { TestSupport.builtProduct("quire") }

    struct Run { var status: Int32; var stdout: String; var stderr: String }

    /// Runs the binary, awaited so its run does not hold a test worker thread.
    func run(_ arguments: [String]) async throws -> Run {
        let done = try await Subprocess.run(
            try #require(Self.binary, "quire binary not found next to the tests"), arguments)
        return Run(status: done.status, stdout: done.out, stderr: done.err)
    }

    func folder() throws -> String {
        let path = NSTemporaryDirectory() + "quire-cli-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A tiny valid PNG (1x1 grey), written as bytes so this target needs no libvips.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, 0x00, 0x3A, 0x7E, 0x9B,
        0x55, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x68, 0x00, 0x00, 0x00,
        0x82, 0x00, 0x81, 0x77, 0xCD, 0x72, 0xB6, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
        0x42, 0x60, 0x82
    ]

    @Test func allPagesWrittenExitsZero() async throws {
        let dir = try folder(), out = try folder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        try Data(Self.png).write(to: URL(fileURLWithPath: "\(dir)/one.png"))
        let result = try await run(["process", dir, "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        // Only the summary line, on stderr (stdout is kept for --progress json).
        #expect(
            result.stderr.hasPrefix("quire: 1 page written to \(out),")
                && result.stderr.split(separator: "\n").count == 1)
        #expect(result.stdout.isEmpty)
        #expect(FileManager.default.fileExists(atPath: "\(out)/layout.json"))
        #expect(FileManager.default.fileExists(atPath: "\(out)/pages/0001.jpg"))
        #expect(FileManager.default.fileExists(atPath: "\(out)/previews/0001.jpg"))
        #expect(FileManager.default.fileExists(atPath: "\(out)/thumbs/0001.jpg"))
    }

    @Test func aFailedInputExitsOneWithOneLinePerFailure() async throws {
        let dir = try folder(), out = try folder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        try Data(Self.png).write(to: URL(fileURLWithPath: "\(dir)/one.png"))
        try Data("text".utf8).write(to: URL(fileURLWithPath: "\(dir)/x.jpg"))
        let result = try await run([
            "process", "\(dir)/one.png", "\(dir)/x.jpg", "\(dir)/gone.png", "-o", out, "--format", "png"
        ])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(
            lines.dropLast() == [
                "quire: \(dir)/x.jpg: not an image (unknown format)", "quire: \(dir)/gone.png: no such file"
            ])
        #expect(lines.last?.hasPrefix("quire: 1 page written to \(out), 2 failed (reasons above)") == true)
        #expect(FileManager.default.fileExists(atPath: "\(out)/pages/0001.png"))
    }

    @Test(arguments: [
        ["process"], ["process", "x.jpg"], ["process", "x.jpg", "-o", "o", "--quality", "101"],
        ["process", "x.jpg", "-o", "o", "--format", "bmp"], ["process", "x.jpg", "-o", "o", "--bogus"], ["nonsense"]
    ])
    func usageErrorsExitTwo(arguments: [String]) async throws {
        let result = try await run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.status) \(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }

    @Test func helpExitsZero() async throws {
        let result = try await run(["process", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("--max-pixels"))
    }
}
