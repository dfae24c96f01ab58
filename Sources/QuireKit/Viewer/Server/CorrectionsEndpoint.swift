import Foundation
import QuireImaging
import QuireLayout
import Synchronization

/// `POST /api/corrections` of `quire view OUT --serve` (docs/security.md, the review contract):
/// the review saves its corrections file into OUT and the batch is run again with it, redoing
/// only the pages whose entry changed.
///
/// The server checks the request (token, length, type) and reads the body; this takes the body:
/// parses it as a corrections file (400 with a one-line error when it is not one), refuses a
/// second save while one runs (409), writes `OUT/corrections.json` atomically and reruns the
/// batch recorded in OUT (`RecordedBatch`).
public final class CorrectionsEndpoint: Sendable {
    /// The one target POST is answered on.
    public static let target = "/api/corrections"
    /// The largest body taken: a corrections file of 5,000 pages each with corners is about
    /// 500 KB; larger is refused (413) before it is read.
    public static let maxBodyBytes = 1 << 20
    /// The name the corrections are saved under in OUT.
    public static let fileName = "corrections.json"

    /// 128 random bits in hex, new for each server: the page served by this server holds it, a
    /// page of another site cannot read it.
    public let token: String
    /// OUT (its real path).
    let output: String
    /// Reruns the batch with the corrections saved at the path given; returns its summary and
    /// the indices of the pages it wrote anew.
    let rerun: @Sendable (CorrectionsFile, String) throws -> (summary: ProcessSummary, redone: [Int])
    private let running = RunFlag()

    /// The endpoint of the batch in `output`, rerunning it with `rerun` (the recorded batch by
    /// default).
    public init(
        output: String, token: String = CorrectionsEndpoint.newToken(),
        rerun: (@Sendable (CorrectionsFile, String) throws -> (summary: ProcessSummary, redone: [Int]))? = nil
    ) {
        self.output = output
        self.token = token
        self.rerun = rerun ?? { file, path in try Self.rerunRecorded(in: output, corrections: file, path: path) }
    }

    /// A new token: 16 bytes of the system's cryptographic generator, in hex.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// True when `sent` is the token (compared in time independent of where they differ).
    func accepts(_ sent: String?) -> Bool {
        guard let sent else { return false }
        let a = Array(sent.utf8), b = Array(token.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The reply to a body: status and JSON.
    func handle(body: [UInt8]) -> (status: Int, json: String) {
        let file: CorrectionsFile
        do {
            file = try CorrectionsFile(json: body, file: Self.fileName)
        } catch {
            return (400, Self.errorJSON("\(error)"))
        }
        guard running.begin() else { return (409, Self.errorJSON("a reprocess is running; try again when it is done")) }
        defer { running.end() }
        let path = output + "/" + Self.fileName
        do {
            try AtomicFile.write(Data(file.jsonText().utf8), to: path)
            let (summary, redone) = try rerun(file, path)
            let errors = summary.report.errors.map { error -> [String: Any] in
                ["source": error.source, "code": error.code ?? "", "message": error.message]
            }
            let reply: [String: Any] = [
                "redone": redone, "excluded": summary.report.excluded?.count ?? 0,
                "errors": errors, "layout": Processor.layoutFileName
            ]
            let data = try JSONSerialization.data(withJSONObject: reply, options: [.sortedKeys])
            return (200, String(decoding: data, as: UTF8.self))
        } catch {
            return (500, Self.errorJSON("\(error)"))
        }
    }

    /// `{"error": "..."}` with `message` on one line.
    static func errorJSON(_ message: String) -> String {
        let line = message.replacingOccurrences(of: "\n", with: " ")
        let data =
            (try? JSONSerialization.data(withJSONObject: ["error": line], options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs the batch recorded in `out` again with `corrections` (saved at `path`), from the
    /// directory it was run from, so its inputs, sources and resume keys are the same.
    static func rerunRecorded(in out: String, corrections: CorrectionsFile, path: String) throws -> (
        summary: ProcessSummary, redone: [Int]
    ) {
        let record = try RecordedBatch.read(from: out)
        var job = record.job
        job.outputDirectory = out
        job.corrections = corrections
        job.correctionsPath = path
        guard FileManager.default.changeCurrentDirectoryPath(record.workingDirectory) else {
            throw ProcessError(path: record.workingDirectory, reason: "the batch's folder cannot be entered")
        }
        let written = WrittenPages()
        let summary = try Processor.run(job) { event in
            if case .pageWritten(let source, let sourcePage, _, _) = event { written.add(source, sourcePage) }
        }
        let redone = summary.report.pages.filter { written.contains($0.source, $0.sourcePage) }.map(\.index)
        return (summary, redone)
    }
}

/// The sources whose pages a rerun wrote anew, behind one lock.
private final class WrittenPages: Sendable {
    private let pages = Mutex(Set<String>())
    func add(_ source: String, _ page: Int) { pages.withLock { _ = $0.insert("\(page)\u{0}\(source)") } }
    func contains(_ source: String, _ page: Int) -> Bool { pages.withLock { $0.contains("\(page)\u{0}\(source)") } }
}

/// One reprocess at a time.
private final class RunFlag: Sendable {
    private let busy = Mutex(false)
    func begin() -> Bool {
        busy.withLock { busy in
            if busy { return false }
            busy = true
            return true
        }
    }
    func end() { busy.withLock { $0 = false } }
}
