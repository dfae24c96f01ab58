import Foundation
import Testing

@testable import QuireKit

/// `RecordedBatch.read` on a job.json from elsewhere: held to what `quire process` accepts,
/// and a wrong type named by its JSON path.
@Suite struct RecordedBatchReadTests {
    /// Writes a recorded job with the value at `path` (`job/dpi`) replaced by the JSON text
    /// `raw`, and returns the reason `read` refuses it with.
    func readError(_ path: String, _ raw: String) throws -> String {
        let out = try TestSupport.temporaryFolder("recorded")
        defer { try? FileManager.default.removeItem(atPath: out) }
        try FileManager.default.createDirectory(atPath: out + "/.quire", withIntermediateDirectories: true)
        var job = ProcessJob(inputs: ["a.jpg"], outputDirectory: out, jobs: 2)
        job.shard = ShardSelector(index: 1, count: 2)
        try RecordedBatch(job: job, workingDirectory: "/").write(to: out)
        let url = URL(fileURLWithPath: out + "/.quire/" + RecordedBatch.fileName)
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        #expect(try RecordedBatch.read(from: out).job.jobs == 2)
        let keys = path.split(separator: "/").map(String.init)
        root = Self.replacing(root, keys[...]) as! [String: Any]
        let text = String(decoding: try JSONSerialization.data(withJSONObject: root), as: UTF8.self)
        try Data(text.replacingOccurrences(of: "\"@@RAW@@\"", with: raw).utf8).write(to: url)
        do {
            _ = try RecordedBatch.read(from: out)
        } catch let error as ProcessError {
            return error.reason
        }
        Issue.record("\(path) = \(raw) was read")
        return ""
    }

    static func replacing(_ value: Any, _ keys: ArraySlice<String>) -> Any {
        guard let key = keys.first else { return "@@RAW@@" }
        var object = value as! [String: Any]
        object[key] = replacing(object[key]!, keys.dropFirst())
        return object
    }

    @Test func anOptionOutOfRangeIsRefused() throws {
        #expect(
            try readError("job/renditions/quality", "1000")
                == "job.renditions.quality: expected an integer in 1...100, found 1000")
        #expect(try readError("job/jobs", "100000") == "job.jobs: expected an integer in 1...256, found 100000")
        #expect(try readError("job/dpi", "0") == "job.dpi: expected 10...2400, found 0")
        #expect(try readError("job/viewport/width", "-1") == "job.viewport.width: expected >0...1000000, found -1")
        #expect(try readError("job/shard/count", "0") == "job.shard.count: expected an integer in 1...1000000, found 0")
    }

    @Test func aWrongTypeIsNamedByPath() throws {
        #expect(
            try readError("job/renditions/thumbnailSize", "1.5")
                == "is not a recorded batch (job.renditions.thumbnailSize: expected an integer, found 1.5)")
    }
}
