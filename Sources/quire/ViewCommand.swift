import ArgumentParser
import Foundation
import QuireKit

/// `quire view OUT`: (re)writes the web viewer into a processed folder and, with `--serve`,
/// serves the folder on 127.0.0.1.
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Write the web viewer (OUT/index.html) for a processed folder; optionally serve it on 127.0.0.1.",
        discussion: """
            Writes OUT/index.html, OUT/quire-viewer/ and OUT/layout.js (layout.json as a script, so the
            page also works from file://). With --serve [PORT] it then serves OUT on 127.0.0.1 (on PORT, or
            a free port when none is given) and prints the address; stop it with Ctrl-C. The served
            viewer can save the review's corrections (POST /api/corrections, with the token the served
            index.html holds): OUT/corrections.json is written and the batch rerun with it.
            """
    )

    @Argument(help: "A folder written by quire process (holds layout.json).")
    var folder: String

    @Flag(help: "After writing, serve the folder on 127.0.0.1 and print the address.")
    var serve = false

    /// `--serve [PORT]`: argument-parser has no option with an optional value, so the port is an
    /// optional positional that only `--serve` accepts (`quire view OUT --serve 8000`).
    @Argument(help: ArgumentHelp("With --serve: the port to listen on (default: any free port).", valueName: "port"))
    var port: UInt16?

    func validate() throws {
        if port != nil && !serve {
            throw ValidationError("a port is only taken with --serve: quire view OUT --serve \(port!)")
        }
    }

    func run() throws {
        let url = URL(fileURLWithPath: folder)
        // Bind first: a busy port must fail before anything in OUT is rewritten.
        var server: StaticServer?
        if serve {
            do {
                // The review's save: POST /api/corrections reruns the batch recorded in OUT.
                let review = CorrectionsEndpoint(output: url.standardizedFileURL.resolvingSymlinksInPath().path)
                server = try StaticServer(folder: url, port: port ?? 0, corrections: review)
            } catch {
                FileHandle.standardError.write(Data("quire view: \(error)\n".utf8))
                throw ExitCode(1)
            }
        }
        do {
            for warning in try ViewerWriter.write(into: url) {
                FileHandle.standardError.write(Data("quire view: \(warning)\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("quire view: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let index = url.appendingPathComponent("index.html").standardizedFileURL.path
        FileHandle.standardOutput.write(Data("quire: viewer written: file://\(index)\n".utf8))
        guard let server else { return }
        FileHandle.standardOutput.write(Data("quire: serving \(folder) at \(server.address) (Ctrl-C stops)\n".utf8))
        server.run()
    }
}
