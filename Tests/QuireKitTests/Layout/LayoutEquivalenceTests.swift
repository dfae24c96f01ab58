import Foundation
import QuireKit
import Testing

/// `quire layout` answers every request of the corpus exactly as it did before the layout
/// catalogue: Tests/Fixtures/layout-catalogue/requests.jsonl (fuzz fixtures, the docs'
/// examples, each parameter of each layout set, mistyped and out of bounds; built by
/// Scripts/layout_equivalence.py) and replies.jsonl, written once by the `quire layout
/// --lines` of the commit before the catalogue. `{FOLDER}` stands for the fixture folder (a
/// `pagesFrom` path, and the path in its error).
@Suite struct LayoutEquivalenceTests {
    static let folder = TestSupport.repoRoot.appendingPathComponent("Tests/Fixtures/layout-catalogue")

    static func lines(_ name: String) throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test func everyReplyIsTheOneBeforeTheCatalogue() throws {
        let requests = try Self.lines("requests.jsonl")
        let replies = try Self.lines("replies.jsonl")
        #expect(requests.count == replies.count && requests.count > 500)
        let cache = LayoutCache()
        var errors = 0
        for (request, expected) in zip(requests, replies) {
            let folder = Self.folder.path
            let (response, isError) = LayoutService.respond(toJSON: Data(request.replacingOccurrences(of: "{FOLDER}", with: folder).utf8),
                                                            cache: cache)
            if isError { errors += 1 }
            #expect(response.text.replacingOccurrences(of: folder, with: "{FOLDER}") == expected, "request \(request)")
        }
        // The corpus exercises both answers and refusals.
        #expect(errors > 100 && errors < requests.count - 100)
    }
}
