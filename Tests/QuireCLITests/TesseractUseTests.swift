import Foundation
import QuireTestSupport
import Testing
@testable import quire

/// Only a run that may call Tesseract starts twice to limit OpenMP's threads.
@Suite struct TesseractUseTests {
    @Test func runsThatCannotCallTesseractSkipTheSecondStart() {
        for arguments in [
            [], ["--version"], ["--help"], ["layout", "out"], ["pdf", "out"],
            ["iiif", "out", "--base-url", "https://x"],
            ["process", "in", "-o", "out", "--thumbnails-only"], ["process", "in", "-o", "out", "--rotate", "none"],
            ["process", "in", "-o", "out", "--rotate=none"], ["process", "--correct", "none", "in", "-o", "out"]
        ] {
            #expect(!TesseractUse.possible(arguments: arguments), "\(arguments)")
        }
    }

    @Test func runsThatMayCallTesseractKeepIt() {
        for arguments in [
            ["process", "in", "-o", "out"], ["process", "in", "-o", "out", "--rotate", "auto"],
            ["process", "in", "-o", "out", "--rotate", "none", "--ocr"],
            ["process", "in", "-o", "out", "--rotate", "none", "--rotate", "auto"],
            // After `--` every word is an input, not an option.
            ["process", "-o", "out", "--", "--thumbnails-only"], ["detect", "in"], ["something-new", "in"]
        ] {
            #expect(TesseractUse.possible(arguments: arguments), "\(arguments)")
        }
    }

    /// libgomp prints its settings each time it starts (`OMP_DISPLAY_ENV`): once per start of
    /// the program, with the limit the run's Tesseract calls get.
    @Test(.enabled(if: CLIEndToEndTests.binary != nil, "quire binary not found next to the tests"))
    func openMPStartsOnceWithoutTesseractAndLimitedWithIt() async throws {
        let binary = try #require(CLIEndToEndTests.binary)
        var environment = ProcessInfo.processInfo.environment
        environment["OMP_THREAD_LIMIT"] = nil
        environment["OMP_DISPLAY_ENV"] = "TRUE"
        func starts(_ arguments: [String]) async throws -> [String] {
            let done = try await Subprocess.run(binary, arguments, environment: environment)
            return done.err.components(separatedBy: "\n").filter { $0.contains("OMP_THREAD_LIMIT =") }
        }
        #expect(try await starts(["--version"]).count == 1)
        let process = try await starts(["process", "--help"])
        #expect(process.count == 2)
        #expect(process.last?.contains("'1'") == true, "\(process)")
    }
}
