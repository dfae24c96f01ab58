import ArgumentParser
import Foundation
import QuireKit

extension Quire {
    /// Exit status for usage errors (bad or missing options), as in most Unix tools;
    /// argument-parser's own default is 64 (`EX_USAGE`).
    static let usageExitCode: Int32 = 2

    /// The entry point: argument-parser's, except that usage errors exit with status 2, so the
    /// statuses are 0 = every page written, 1 = some input failed, 2 = usage error.
    static func main() async {
        // Flat RSS however long a batch runs: the allocator limits must be set before any
        // thread (the async runtime's included) first allocates, or glibc has already made
        // one malloc arena per thread (docs/benchmarks.md#figures-behind-design-choices).
        ImagingRuntime.limitAllocatorGrowth()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                var standardError = StandardError()
                print(fullMessage(for: error), to: &standardError)
                Foundation.exit(usageExitCode)
            }
            exit(withError: error)
        }
    }
}

/// stderr as a `TextOutputStream`.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) { FileHandle.standardError.write(Data(string.utf8)) }
}
