import Foundation
import QuireImaging

/// The inputs and options of the batch in an output folder, recorded at every complete run in
/// `OUT/.quire/job.json` (hidden: never served), so `quire view OUT --serve` can run the same
/// batch again with the review's corrections.
///
/// The working directory is kept beside the job: inputs are recorded as given (layout.json's
/// `source`, the resume keys and the corrections keys are spelled from them), so a rerun must
/// read them from the same place to name and reuse the same pages.
public struct RecordedBatch: Codable, Sendable, Equatable {
    /// The file's name under `OUT/.quire/`.
    public static let fileName = "job.json"
    /// The largest job record read back: inputs are paths, a few MB even for a huge batch
    /// given file by file; anything larger is not a record Quire wrote.
    public static let maxBytes = 64 << 20

    /// The directory the batch was run from.
    public var workingDirectory: String
    /// The job, without its corrections (the review supplies them) and without `--force`.
    public var job: ProcessJob

    /// The record of `job` run from `workingDirectory`.
    public init(job: ProcessJob, workingDirectory: String = FileManager.default.currentDirectoryPath) {
        var job = job
        job.corrections = nil
        job.correctionsPath = nil
        job.force = false
        self.job = job
        self.workingDirectory = workingDirectory
    }

    /// Writes the record into `out`'s `.quire/` folder, atomically.
    func write(to out: String) throws {
        try AtomicFile.write(try JSONOutput.encode(self, .document), to: out + "/.quire/" + Self.fileName)
    }

    /// The record in `out`.
    /// - Throws: `ProcessError` naming the file when it is missing (a batch run before records
    ///   were kept: run `quire process` once more), too large or not a record (naming the JSON
    ///   path), or holds an option outside what `quire process` accepts (`ProcessJob.Limits`).
    public static func read(from out: String) throws -> RecordedBatch {
        let path = out + "/.quire/" + fileName
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? Int, size <= maxBytes,
            let data = FileManager.default.contents(atPath: path)
        else {
            throw ProcessError(path: path, reason: "no recorded batch (run quire process into this folder again)")
        }
        let record: RecordedBatch
        do {
            record = try JSONDecoder().decode(RecordedBatch.self, from: data)
        } catch {
            throw ProcessError(
                path: path,
                reason: "is not a recorded batch (\(JSONTreeDecoder.reason(data, RecordedBatch.self, error)))")
        }
        if let problem = record.job.rangeProblem { throw ProcessError(path: path, reason: problem) }
        return record
    }
}
