import Foundation
import Testing
import QuireKit

/// The `quire layout` examples of docs/layouts.md must stay the command's real output.
@Suite struct LayoutDocsTests {
    @Test func docsExamplesAreRealOutput() throws {
        let root = TestSupport.repoRoot
        let readme = try String(contentsOf: root.appendingPathComponent("docs/layouts.md"), encoding: .utf8)
        let marker = try #require(readme.range(of: "Examples — real output of `quire layout --lines`"))
        var blocks: [String] = []
        var inBlock = false
        for line in readme[marker.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { break }
            if line.hasPrefix("```json") { inBlock = true; continue }
            if line.hasPrefix("```") { inBlock = false; continue }
            if inBlock { blocks.append(String(line)) }
        }
        #expect(blocks.count >= 12 && blocks.count % 2 == 0)
        var layouts: Set<String> = []
        for pair in stride(from: 0, to: blocks.count - 1, by: 2) {
            let response = LayoutService.respond(toJSON: Data(blocks[pair].utf8)).response
            #expect(response.text == blocks[pair + 1], "docs/layouts.md example \(pair / 2 + 1) is stale")
            if let request = try? LayoutRequest.parse(Data(blocks[pair].utf8)) {
                layouts.insert(request.layout.rawValue)
            }
        }
        #expect(layouts == Set(LayoutRequest.Kind.allCases.map(\.rawValue)))
    }
}
