import ArgumentParser
import Foundation
import QuireKit

/// `quire layout`: answers layout-geometry requests in JSON (one document, or JSON Lines for
/// an interactive client). The format is documented in the README and in
/// `Schemas/quire.layout-request-1.schema.json` / `quire.layout-response-1.schema.json`.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract:
            "Compute viewer layout geometry (\(LayoutCatalogue.names.map(\.rawValue).joined(separator: ", "))) for a JSON request.",
        discussion: """
            Reads one JSON request from stdin (or --request FILE) and prints one JSON response.
            With --lines, reads one request per line and answers each on its own line, flushing
            after each, so a client can drive it interactively; a bad line gets an error line.
            """
    )

    @Option(name: .long, help: "Read the request from FILE instead of stdin.")
    var request: String?

    @Flag(name: .long, help: "JSON Lines: one request per input line, one response per output line.")
    var lines = false

    func run() throws {
        let input: FileHandle
        if let request {
            guard let handle = FileHandle(forReadingAtPath: request) else {
                throw ValidationError("cannot open request file \(request)")
            }
            input = handle
        } else {
            input = FileHandle.standardInput
        }
        if lines {
            try Self.answerLines(from: input) { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
            return
        }
        // One byte past the cap is enough to refuse an over-long request without reading it all.
        let data = input.readData(ofLength: LayoutLimits.maximumRequestBytes + 1)
        let (response, isError) = LayoutService.respond(toJSON: data)
        FileHandle.standardOutput.write(Data((response.text + "\n").utf8))
        if isError {
            if case .object(let o) = response, case .object(let e)? = o["error"],
                case .string(let field)? = e["field"], case .string(let message)? = e["message"]
            {
                FileHandle.standardError.write(
                    Data("quire layout: \(LayoutRequestError(field: field, message: message))\n".utf8))
            }
            throw ExitCode(2)
        }
    }

    /// Answers each non-empty line of `input` through `emit`, in order, as lines arrive
    /// (`LayoutService.answerLines`: linear in the bytes read, lines capped at
    /// `LayoutLimits.maximumRequestBytes`).
    static func answerLines(from input: FileHandle, emit: (String) -> Void) throws {
        LayoutService.answerLines(from: input, emit: emit)
    }
}
