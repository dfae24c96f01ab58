import ArgumentParser
import Foundation
import QuireKit

/// What `quire strip` and `quire render` share: the output folder they draw from, the device
/// scale, and how their option values are parsed and checked (one place, so both commands say
/// the same thing about the same mistake).
struct DrawingOptions: ParsableArguments {
    @Argument(help: "An output folder written by `quire process` (holds layout.json).")
    var out: String

    @Option(help: "Device pixels per point: 1, 2 or 3.")
    var scale: Int = 1

    /// A colour from `--background`, or nil when the option was not given.
    static func background(_ text: String?) throws -> RenderColor? {
        guard let text else { return nil }
        guard let color = RenderColor(parsing: text) else {
            throw ValidationError(
                "--background '\(text)' is not a colour (#rrggbb, #rrggbbaa, white, black, transparent)")
        }
        return color
    }

    /// Runs the library's own check of the options, its complaint shown as a usage error.
    static func validated<T>(_ options: T, by check: (T) throws -> Void) throws -> T {
        do { try check(options) } catch let error as OutputFolderError {
            throw ValidationError(error.description)
        }
        return options
    }

    /// Opens OUT and runs `body` on it; a library error becomes one line and exit status 1.
    func withFolder(_ body: (OutputFolder) throws -> Void) throws {
        do {
            try body(try OutputFolder(url: URL(fileURLWithPath: out)))
        } catch {
            throw CLIFailure(error)
        }
    }
}

/// A library error shown as one clear line (and exit status 1) instead of a dump.
struct CLIFailure: Error, CustomStringConvertible {
    let message: String
    init(_ error: any Error) { message = "\(error)" }
    var description: String { message }
}
