import Testing
import QuireImaging
@testable import QuireKit

@Suite struct CornersFileTests {
    func parse(_ text: String) throws -> CornersFile { try CornersFile(json: Array(text.utf8), file: "c.json") }

    @Test func readsCornersAndMatchesSources() throws {
        let file = try parse(
            """
            {"page1.jpg": [[10, 20], [300, 25], [310, 400], [5, 390]],
             "scans/doc.pdf#2": [[1, 1], [100, 1], [100, 150], [1, 150]],
             "/abs/exact.png": [[0, 0], [50, 0], [50, 50], [0, 50]],
             "exact.png": [[0, 0], [9, 0], [9, 9], [0, 9]]}
            """)
        #expect(file.entries.count == 4)
        let q = try #require(file.quad(for: PageSource(path: "in/page1.jpg")))
        #expect(q.topRight == Point(x: 300, y: 25))
        #expect(file.quad(for: PageSource(path: "x/scans/doc.pdf", page: 1))?.bottomRight == Point(x: 100, y: 150))
        #expect(file.quad(for: PageSource(path: "x/scans/doc.pdf", page: 0)) == nil)
        // A full path beats a bare name.
        #expect(file.quad(for: PageSource(path: "/abs/exact.png"))?.topRight == Point(x: 50, y: 0))
        #expect(file.quad(for: PageSource(path: "other.jpg")) == nil)
    }

    @Test(arguments: [
        ("not json", "not valid JSON"),
        ("[1, 2]", "expected an object"),
        (#"{"a.jpg": [[0, 0], [1, 0], [1, 1]]}"#, "exactly four corners"),
        (#"{"a.jpg": [[0, 0], [1, 0], [1, 1], ["x", 1]]}"#, "corner 4 is not an [x, y] pair"),
        (#"{"a.jpg": [[0, 0], [1, 0], [1, 1], [-3, 1]]}"#, "corner 4 has a negative"),
        (#"{"a.jpg": [[0, 0], [0, 10], [10, 10], [10, 0]]}"#, "convex quad in order"),
        (#"{"a.jpg": [[0, 0], [10, 10], [10, 0], [0, 10]]}"#, "convex quad in order"),
        (#"{"a.pdf#zero": [[0, 0], [1, 0], [1, 1], [0, 1]]}"#, "page after '#'"),
        // Used to parse, then trap converting to Int in the warp (issue 34).
        (#"{"a.jpg": [[0, 0], [1e10, 0], [1e10, 1e10], [0, 1e10]]}"#, "coordinate over 10000000 px"),
        (#"{"a.jpg": [[0, 0], [10000001, 0], [10, 10], [0, 10]]}"#, "corner 2 has a coordinate over"),
        (String(repeating: "[", count: 100_000), "nested deeper than 16 levels")
    ])
    func rejectsBadFiles(_ text: String, _ expected: String) {
        do {
            _ = try parse(text)
            Issue.record("accepted \(text)")
        } catch let error as CornersFileError {
            #expect(error.description.contains(expected), "\(error.description)")
            #expect(error.description.hasPrefix("c.json"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func missingFileIsAClearError() {
        #expect(throws: CornersFileError.self) { _ = try CornersFile(contentsOf: "/nonexistent/corners.json") }
    }

    /// What `quire detect --corners-out` writes reads back as the same corners, for odd names too.
    @Test func writtenFilesReadBack() throws {
        let quad = try #require(
            Quad(corners: [
                Point(x: 10.004, y: 0), Point(x: 90.5, y: 2.25),
                Point(x: 88, y: 120.126), Point(x: 0, y: 118)
            ]))
        let keys = [
            CornersFile.key(source: "dir/a.jpg", page: 0), CornersFile.key(source: "doc.pdf", page: 2),
            CornersFile.key(source: "odd #1 \"quoted\"\tname.jpg", page: 0)
        ]
        #expect(keys[0] == "dir/a.jpg" && keys[1] == "doc.pdf#3" && keys[2].hasSuffix(".jpg#1"))
        let file = CornersFile(entries: Dictionary(uniqueKeysWithValues: keys.map { ($0, quad) }))
        let text = file.jsonText()
        let back = try CornersFile(json: Array(text.utf8))
        #expect(Set(back.entries.keys) == Set(keys))
        let read = try #require(back.entries[keys[1]])
        // Rounded to 0.01 px.
        #expect(read.topLeft == Point(x: 10, y: 0) && read.bottomRight == Point(x: 88, y: 120.13))
        #expect(back.quad(for: PageSource(path: "doc.pdf", page: 2)) == read)
        #expect(back.quad(for: PageSource(path: "odd #1 \"quoted\"\tname.jpg")) == read)
        #expect(CornersFile(entries: [:]).jsonText() == "{}\n")
    }
}
