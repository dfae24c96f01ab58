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
            let (response, isError) = LayoutService.respond(
                toJSON: Data(request.replacingOccurrences(of: "{FOLDER}", with: folder).utf8),
                cache: cache)
            if isError { errors += 1 }
            #expect(response.text.replacingOccurrences(of: folder, with: "{FOLDER}") == expected, "request \(request)")
        }
        // The corpus exercises both answers and refusals.
        #expect(errors > 100 && errors < requests.count - 100)
    }

    /// The typed `LayoutRequestDocument` is the same request model: each corpus request that
    /// decodes into one and parses validates to the same `LayoutRequest` through the document.
    @Test func documentsValidateToTheSameRequests() throws {
        let folder = Self.folder.path
        var compared = 0, refused = 0
        for line in try Self.lines("requests.jsonl") {
            let data = Data(line.replacingOccurrences(of: "{FOLDER}", with: folder).utf8)
            guard let document = try? JSONDecoder().decode(LayoutRequestDocument.self, from: data) else { continue }
            do {
                let parsed = try LayoutRequest.parse(data)
                #expect(try LayoutRequest(document) == parsed, "request \(line)")
                compared += 1
            } catch let error as LayoutRequestError {
                // Refused as text: the document is refused alike unless decoding dropped the
                // unknown field at fault.
                guard error.message != "is not a known field" else { continue }
                #expect(throws: error, "request \(line)") { try LayoutRequest(document) }
                refused += 1
            }
        }
        #expect(compared > 500 && refused >= 10, "compared \(compared), refused \(refused)")
    }
}
