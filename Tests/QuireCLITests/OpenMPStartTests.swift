import Foundation
import QuireTestSupport
import Testing

/// `quire` starts once: Tesseract's one OpenMP thread is set per worker thread, not by a
/// second start of the program with `OMP_THREAD_LIMIT` in its environment.
@Suite struct OpenMPStartTests {
    /// libgomp prints its settings each time it starts (`OMP_DISPLAY_ENV`).
    @Test(.enabled(if: CLIEndToEndTests.binary != nil, "quire binary not found next to the tests"))
    func quireStartsOnce() async throws {
        let binary = try #require(CLIEndToEndTests.binary)
        var environment = ProcessInfo.processInfo.environment
        environment["OMP_THREAD_LIMIT"] = nil
        environment["OMP_DISPLAY_ENV"] = "TRUE"
        for arguments in [["--version"], ["process", "--help"]] {
            let done = try await Subprocess.run(binary, arguments, environment: environment)
            let starts = done.err.components(separatedBy: "\n").filter { $0.contains("OMP_THREAD_LIMIT =") }
            #expect(starts.count == 1, "\(arguments): \(starts)")
        }
    }
}
