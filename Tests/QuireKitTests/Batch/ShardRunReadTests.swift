import Foundation
import Testing

@testable import QuireKit

/// `ShardRun.read` on a shard record from outside: numbers range-checked (a shard count of 0
/// used to trap the merge's check for missing shards), wrong types named by JSON path.
@Suite struct ShardRunReadTests {
    /// Reads a `.quire/shard.json` made of `json` and returns the error's reason.
    func readError(_ json: String) throws -> String {
        let out = try TestSupport.temporaryFolder("shardrun")
        defer { try? FileManager.default.removeItem(atPath: out) }
        try FileManager.default.createDirectory(atPath: out + "/.quire", withIntermediateDirectories: true)
        try Data(json.utf8).write(to: URL(fileURLWithPath: out + "/" + ShardRun.fileName))
        do {
            _ = try ShardRun.read(from: out)
        } catch let error as ProcessError {
            #expect(error.path == out + "/" + ShardRun.fileName)
            return error.reason
        }
        Issue.record("read \(json)")
        return ""
    }

    static func record(count: String = "2", index: String = "1", order: String = "0") -> String {
        #"{"schema":"quire.shard/1","shardIndex":\#(index),"shardCount":\#(count),"inputs":["a"],"pageCount":1,"#
            + #""thumbnailsOnly":false,"pages":[{"order":\#(order),"sourcePage":0}],"errors":[]}"#
    }

    @Test func aValidRecordReads() throws {
        let out = try TestSupport.temporaryFolder("shardrun")
        defer { try? FileManager.default.removeItem(atPath: out) }
        try FileManager.default.createDirectory(atPath: out + "/.quire", withIntermediateDirectories: true)
        try Data(Self.record().utf8).write(to: URL(fileURLWithPath: out + "/" + ShardRun.fileName))
        #expect(try ShardRun.read(from: out).shardCount == 2)
    }

    @Test func outOfRangeNumbersAreNamed() throws {
        #expect(try readError(Self.record(count: "0")) == "shardCount: expected an integer in 1...1000000, found 0")
        #expect(try readError(Self.record(index: "3")) == "shardIndex: expected an integer in 1...2, found 3")
        #expect(
            try readError(Self.record(order: "-1")) == "pages[0].order: expected an integer in 0...2147483647, found -1"
        )
    }

    @Test func aWrongTypeIsNamedByPath() throws {
        #expect(
            try readError(Self.record(order: "1.5"))
                == "cannot be read (pages[0].order: expected an integer, found 1.5)")
    }
}
