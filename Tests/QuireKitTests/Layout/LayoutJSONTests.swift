import Foundation
import Testing
import QuireImaging
@testable import QuireKit

/// layout.json has every field viewers rely on and is byte-identical across runs. Its schema
/// (Schemas/quire.layout-1.schema.json) is checked on real outputs by a complete JSON Schema
/// validator in Tests/python/test_schemas.py.
@Suite struct LayoutJSONTests {
    /// A folder with a few pages of different shapes, a two-page TIFF and a bad file.
    func makeInputs() throws -> String {
        let input = try TestSupport.temporaryFolder()
        try TestSupport.writeImage("\(input)/page10.jpg", width: 300, height: 200)
        try TestSupport.writeImage("\(input)/page2.jpg", width: 200, height: 300, level: 40)
        try TestSupport.writeImage("\(input)/page3.png", width: 120, height: 120, level: 200, format: .png)
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: "\(input)/broken.jpg"))
        return input
    }

    @Test func aRealRunRecordsWhatViewersNeed() throws {
        let input = try makeInputs(), out = try TestSupport.temporaryFolder()
        defer { for p in [input, out] { try? FileManager.default.removeItem(atPath: p) } }
        let summary = try Processor.run(
            ProcessJob(inputs: [input], outputDirectory: out, renditions: RenditionOptions(previewSize: 150), jobs: 2))
        #expect(summary.pageCount == 3)
        #expect(summary.failureCount == 1)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: summary.layoutPath)))
                as? [String: Any])
        let options = try #require(json["options"] as? [String: Any])
        #expect(options["previewSize"] as? Int == 150 && options["format"] as? String == "jpeg")
        let pages = try #require(json["pages"] as? [[String: Any]])
        for page in pages {
            for key in [
                "index", "source", "sourcePage", "orientation", "width", "height", "aspectRatio", "files", "pager",
                "strip",
                "dpi", "previewSize", "thumbnailSize"
            ] {
                #expect(page[key] != nil, "missing \(key)")
            }
        }
        // page10.jpg is 300 x 200: its preview fits 150 px.
        let wide = try #require(pages.first { ($0["source"] as? String) == "page10.jpg" })
        #expect((wide["previewSize"] as? [String: Int]) == ["width": 150, "height": 100])
        // Written files state no density, so none is claimed.
        #expect(wide["dpi"] is NSNull)
        let error = try #require((json["errors"] as? [[String: Any]])?.first)
        #expect(error["code"] as? String == "truncated" || error["code"] as? String == "not-an-image")
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
