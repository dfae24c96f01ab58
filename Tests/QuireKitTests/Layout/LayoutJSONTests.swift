import Foundation
import Testing
@testable import QuireKit

/// layout.json validates against the shipped schema, is byte-identical across runs, and the
/// schema validator itself rejects broken documents (so the first check can fail).
@Suite struct LayoutSchemaTests {
    func validator() throws -> JSONSchemaValidator {
        try JSONSchemaValidator(schema: Data(contentsOf: TestSupport.schemaURL))
    }

    /// A folder with a few pages of different shapes, a two-page TIFF and a bad file.
    func makeInputs() throws -> String {
        let input = try TestSupport.temporaryFolder()
        try TestSupport.writeImage("\(input)/page10.jpg", width: 300, height: 200)
        try TestSupport.writeImage("\(input)/page2.jpg", width: 200, height: 300, level: 40)
        try TestSupport.writeImage("\(input)/page3.png", width: 120, height: 120, level: 200, format: .png)
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: "\(input)/broken.jpg"))
        return input
    }

    @Test func realRunValidatesAgainstTheSchema() throws {
        let input = try makeInputs(), out = try TestSupport.temporaryFolder()
        defer { for p in [input, out] { try? FileManager.default.removeItem(atPath: p) } }
        let summary = try Processor.run(ProcessJob(inputs: [input], outputDirectory: out, jobs: 2))
        #expect(summary.pageCount == 3)
        #expect(summary.failureCount == 1)
        let problems = try validator().validate(Data(contentsOf: URL(fileURLWithPath: summary.layoutPath)))
        #expect(problems.isEmpty, "\(problems)")
        // Every field the issue lists is there.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary.layoutPath))) as? [String: Any])
        let page = try #require((json["pages"] as? [[String: Any]])?.first)
        for key in ["index", "source", "sourcePage", "orientation", "width", "height", "aspectRatio", "files", "pager", "strip"] {
            #expect(page[key] != nil, "missing \(key)")
        }
    }

    @Test func validatorRejectsBrokenDocuments() throws {
        let v = try validator()
        #expect(try !v.validate(Data(#"{"schema":"quire.layout/1"}"#.utf8)).isEmpty)
        #expect(try !v.validate(Data(#"{"schema":"quire.layout/2","viewport":{"width":1,"height":1,"stripHeight":1},"pages":[],"errors":[]}"#.utf8)).isEmpty)
        #expect(try v.validate(Data(#"{"schema":"quire.layout/1","viewport":{"width":1,"height":1,"stripHeight":1},"pages":[],"errors":[]}"#.utf8)).isEmpty)
        let badError = #"{"schema":"quire.layout/1","viewport":{"width":1,"height":1,"stripHeight":1},"pages":[],"errors":[{"source":"x","message":""}]}"#
        #expect(try !v.validate(Data(badError.utf8)).isEmpty)
        let extraKey = #"{"schema":"quire.layout/1","viewport":{"width":1,"height":1,"stripHeight":1},"pages":[],"errors":[],"when":"now"}"#
        #expect(try !v.validate(Data(extraKey.utf8)).isEmpty)
        let wrongType = #"{"schema":"quire.layout/1","viewport":{"width":"1","height":1,"stripHeight":1},"pages":[],"errors":[]}"#
        #expect(try !v.validate(Data(wrongType.utf8)).isEmpty)
    }

    @Test func twoRunsGiveByteIdenticalLayoutJSON() throws {
        let input = try makeInputs(), a = try TestSupport.temporaryFolder(), b = try TestSupport.temporaryFolder()
        defer { for p in [input, a, b] { try? FileManager.default.removeItem(atPath: p) } }
        let first = try Processor.run(ProcessJob(inputs: [input], outputDirectory: a, jobs: 1))
        let second = try Processor.run(ProcessJob(inputs: [input], outputDirectory: b, jobs: 3))
        let again = try Data(contentsOf: URL(fileURLWithPath: first.layoutPath))
        _ = try Processor.run(ProcessJob(inputs: [input], outputDirectory: a, jobs: 2))
        let bytesA = try Data(contentsOf: URL(fileURLWithPath: first.layoutPath))
        let bytesB = try Data(contentsOf: URL(fileURLWithPath: second.layoutPath))
        #expect(bytesA == bytesB)
        #expect(bytesA == again)
        #expect(!String(decoding: bytesA, as: UTF8.self).contains(NSTemporaryDirectory()), "paths must be relative")
    }
}
