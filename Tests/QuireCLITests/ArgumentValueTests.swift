import ArgumentParser
import Foundation
import QuireKit
import Testing
@testable import quire

/// The option values parsed once into library types: good, bad and edge values of each, and
/// the usage error a bad one gives (the option, the text and the reason, on one line).
@Suite struct ArgumentValueTests {
    /// The message `quire` prints for `arguments`, or nil when they parse.
    static func usageError<C: ParsableCommand>(_ command: C.Type, _ arguments: [String]) -> String? {
        do {
            _ = try command.parseAsRoot(arguments)
            return nil
        } catch {
            #expect(command.exitCode(for: error) == .validationFailure, "a bad value is a usage error (exit status 2)")
            return command.message(for: error)
        }
    }

    @Test func layoutNamesParseIntoTheCatalogueType() throws {
        #expect(try RenderCommand.parse(["out", "--layout", "Halves"]).layout == .halves)
        #expect(try RenderCommand.parse(["out"]).layout == .pager)
        let message = try #require(Self.usageError(RenderCommand.self, ["out", "--layout", "grid"]))
        #expect(message.contains("'grid'") && message.contains("--layout"), "\(message)")
        for name in LayoutCatalogue.names { #expect(message.contains(name.rawValue), "\(message) lacks \(name)") }
    }

    @Test(arguments: [
        ("390x844", 390.0, 844.0), ("428X926", 428, 926), ("0.5x1e3", 0.5, 1000), ("1000000x1", 1_000_000, 1)
    ])
    func viewportsParse(text: String, width: Double, height: Double) throws {
        let viewport = try ViewportSize(parsing: text)
        #expect(viewport.width == width && viewport.height == height)
    }

    @Test(arguments: [
        "390", "390x", "x844", "axb", "1x2x3", "0x5", "5x0", "-390x844", "infx844", "nanx844", "1000001x1", ""
    ])
    func badViewportsAreRefused(text: String) {
        #expect(throws: ValueParseError.self) { try ViewportSize(parsing: text) }
    }

    @Test func viewportReadsAsItIsWritten() throws {
        #expect(ViewportSize(width: 390, height: 844).description == "390x844")
        #expect(
            try ViewportSize(parsing: ViewportSize(width: 390.5, height: 66).description)
                == ViewportSize(width: 390.5, height: 66))
    }

    @Test(arguments: [
        ("250M", 250_000_000), ("250MP", 250_000_000), ("1.5G", 1_500_000_000), ("800k", 800_000),
        ("12345", 12345), (" 40M ", 40_000_000), ("0.4", 1), ("999999999999999", 999_999_999_999_999)
    ])
    func pixelCountsAcceptSuffixes(text: String, value: Int) throws {
        #expect(try PixelCount(parsing: text).value == value)
    }

    @Test(arguments: ["0", "-5", "lots", "M", "1e15", "1000000G", "inf", "nan", "", "5X"])
    func badPixelCountsAreRefused(text: String) {
        #expect(throws: ValueParseError.self) { try PixelCount(parsing: text) }
    }

    @Test func pixelCountsReadAsTheyAreWritten() {
        #expect(PixelCount(250_000_000).description == "250M")
        #expect(PixelCount(2_000_000_000).description == "2G")
        #expect(PixelCount(800_000).description == "800K")
        #expect(PixelCount(12345).description == "12345")
    }

    @Test(arguments: [
        ("png", ImageFormat.png), ("JPG", .jpeg), ("jpeg", .jpeg), ("webp", .webp), ("gif", .gif), ("tif", .tiff)
    ])
    func imageFormatsParse(text: String, format: ImageFormat) throws {
        #expect(try ImageFormat(parsing: text, allowed: ImageFormat.allCases, expected: "any") == format)
    }

    @Test func imageFormatsOutsideTheAllowedAreRefused() {
        #expect(throws: ValueParseError("must be jpeg, png or webp")) {
            try ImageFormat(parsing: "gif", allowed: [.jpeg, .png, .webp], expected: "jpeg, png or webp")
        }
        #expect(throws: ValueParseError.self) {
            try ImageFormat(parsing: "bmp", allowed: ImageFormat.allCases, expected: "any")
        }
    }

    @Test func processValuesAreTyped() throws {
        let command = try ProcessCommand.parse([
            "x", "-o", "o", "--viewport", "428x926", "--max-pixels", "2M", "--shard", "2/3"
        ])
        #expect(command.viewport == ViewportSize(width: 428, height: 926))
        #expect(command.maxPixels == PixelCount(2_000_000))
        #expect(
            command.shard == ShardSelector(index: 2, count: 3) && command.job.shard == ShardSelector(index: 2, count: 3)
        )
    }

    @Test func cornersFilesAreReadOnceWhileParsing() throws {
        let dir = NSTemporaryDirectory() + "quire-corners-arg-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/c.json"
        try Data(#"{"a.jpg": [[10, 10], [90, 12], [88, 95], [8, 90]]}"#.utf8).write(to: URL(fileURLWithPath: path))
        let command = try ProcessCommand.parse(["x", "-o", "o", "--corners", path])
        // Removing the file after parsing changes nothing: the job holds what was read.
        try FileManager.default.removeItem(atPath: path)
        #expect(
            command.job.corners?.entries["a.jpg"]
                == Quad(corners: [
                    Point(x: 10, y: 10), Point(x: 90, y: 12),
                    Point(x: 88, y: 95), Point(x: 8, y: 90)
                ]))
        let missing = try #require(Self.usageError(ProcessCommand.self, ["x", "-o", "o", "--corners", path]))
        #expect(missing.contains("--corners") && missing.contains(path) && missing.contains("cannot read the file"))
        try Data("[1, 2]".utf8).write(to: URL(fileURLWithPath: path))
        #expect(Self.usageError(ProcessCommand.self, ["x", "-o", "o", "--corners", path]) != nil)
    }

    /// Each bad value names its option, the text given and the library's reason, on one line.
    @Test(arguments: [
        (["--viewport", "0x5"], "--viewport", "positive"),
        (["--viewport", "390"], "--viewport", "WIDTHxHEIGHT"),
        (["--max-pixels", "lots"], "--max-pixels", "positive number of pixels"),
        (["--shard", "3/2"], "--shard", "K must be between 1 and 2"),
        (["--shard", "2"], "--shard", "expected K/N")
    ])
    func processUsageErrorsSayWhy(extra: [String], option: String, reason: String) throws {
        let message = try #require(Self.usageError(ProcessCommand.self, ["x", "-o", "o"] + extra))
        #expect(message.contains(option) && message.contains("'\(extra[1])'") && message.contains(reason), "\(message)")
        #expect(!message.contains("\n"))
    }

    @Test func renderRefusesAViewportWithoutArea() throws {
        for text in ["0x5", "5x0", "-1x5"] {
            let message = try #require(Self.usageError(RenderCommand.self, ["out", "--viewport=\(text)"]))
            #expect(message.contains("--viewport") && message.contains("positive"), "\(message)")
        }
        #expect(
            try RenderCommand.parse(["out", "--viewport", "390x66"]).makeOptions().viewport
                == Size(width: 390, height: 66))
    }

    @Test func formatsAreCheckedPerCommand() throws {
        #expect(try StripCommand.parse(["out"]).format == .jpeg)
        #expect(try StripCommand.parse(["out", "--format", "PNG"]).format == .png)
        let strip = try #require(Self.usageError(StripCommand.self, ["out", "--format", "gif"]))
        #expect(strip.contains("--format") && strip.contains("must be jpeg, png or webp"), "\(strip)")
        #expect(try RenderCommand.parse(["out", "--format", "gif", "--sweep", "0:10:2"]).format == .gif)
        let render = try #require(Self.usageError(RenderCommand.self, ["out", "--format", "bmp"]))
        #expect(render.contains("--format") && render.contains("must be png, jpeg, webp or gif"), "\(render)")
    }

    @Test func detectSharesTheMaxPixelsMessage() throws {
        let message = try #require(Self.usageError(DetectCommand.self, ["a.jpg", "--max-pixels", "0"]))
        #expect(message.contains("--max-pixels") && message.contains("positive number of pixels"), "\(message)")
    }
}

/// The typed options still show their defaults in `--help`, as they did as strings.
@Suite struct ArgumentDefaultsInHelpTests {
    @Test func defaultsAreShown() throws {
        let process = ProcessCommand.helpMessage(columns: 1000)
        #expect(
            process.contains("suffixes K, M, G. (default: 250M)") && process.contains("in points. (default: 390x844)"))
        #expect(DetectCommand.helpMessage(columns: 1000).contains("(default: 250M)"))
        #expect(StripCommand.helpMessage(columns: 1000).contains("jpeg, png or webp. (default: jpeg)"))
        #expect(try ProcessCommand.parse(["x", "-o", "o"]).viewport == ViewportSize(width: 390, height: 844))
    }
}
