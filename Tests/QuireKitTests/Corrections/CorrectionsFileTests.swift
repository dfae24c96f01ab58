import Foundation
import Testing
import QuireImaging
@testable import QuireKit

/// The corrections file (`--corrections`, `OUT/corrections.json`): each key read, each kind of
/// error refused in one line naming the file and the key, old corners files still read, and the
/// writer's output read back the same.
@Suite struct CorrectionsFileTests {
    static func parse(_ text: String) throws -> CorrectionsFile {
        try CorrectionsFile(json: Array(text.utf8), file: "c.json")
    }

    /// The error `text` is refused with.
    static func refusal(_ text: String) -> CornersFileError? {
        do { _ = try parse(text); return nil } catch let error as CornersFileError { return error } catch { return nil }
    }

    @Test func everyKeyIsRead() throws {
        let file = try Self.parse(
            """
            {"a.jpg": {"corners": [[1, 2], [30, 2], [30, 40], [1, 40]], "rotate": 90, "split": 0.4},
             "b.jpg": {"split": false}, "c.jpg": {"split": true, "rotate": 0}, "d.pdf#2": {"exclude": true},
             "e.jpg": {"exclude": false}, "f.jpg": {}}
            """)
        let a = try #require(file.entries["a.jpg"])
        #expect(
            a.corners == Quad(corners: [Point(x: 1, y: 2), Point(x: 30, y: 2), Point(x: 30, y: 40), Point(x: 1, y: 40)])
        )
        #expect(a.rotate == 90)
        #expect(a.split == .at(0.4))
        #expect(!a.exclude)
        #expect(file.entries["b.jpg"]?.split == .join)
        #expect(file.entries["c.jpg"]?.split == .gutter)
        #expect(file.entries["c.jpg"]?.rotate == 0)
        #expect(file.entries["d.pdf#2"]?.exclude == true)
        // An entry that changes nothing is no entry for the page it names.
        #expect(file.entries["e.jpg"]?.isEmpty == true && file.entries["f.jpg"]?.isEmpty == true)
        #expect(file.entry(for: PageSource(path: "in/f.jpg")) == nil)
        #expect(file.entry(for: PageSource(path: "in/d.pdf", page: 1))?.exclude == true)
        #expect(file.entry(for: PageSource(path: "in/d.pdf", page: 0)) == nil)
    }

    @Test func anOldCornersFileIsReadAsCorners() throws {
        let file = try Self.parse(#"{"a.jpg": [[0, 0], [10, 0], [10, 10], [0, 10]]}"#)
        #expect(file.entries["a.jpg"] == CorrectionEntry(corners: Quad(rect: Rect(x: 0, y: 0, width: 10, height: 10))))
        let seeds = TestSupport.repoRoot.appendingPathComponent("Tests/Fixtures/fuzz/corners").path
        for name in try FileManager.default.contentsOfDirectory(atPath: seeds) where name.hasSuffix(".json") {
            let corners = try CornersFile(contentsOf: seeds + "/" + name)
            #expect(try CorrectionsFile(contentsOf: seeds + "/" + name) == CorrectionsFile(corners), "\(name)")
        }
    }

    @Test(arguments: [
        (#"{"a.jpg": {"rotate": 45}}"#, "a.jpg.rotate", "0, 90, 180 or 270"),
        (#"{"a.jpg": {"rotate": "90"}}"#, "a.jpg.rotate", "0, 90, 180 or 270"),
        (#"{"a.jpg": {"rotate": 90.5}}"#, "a.jpg.rotate", "0, 90, 180 or 270"),
        (#"{"a.jpg": {"rotate": true}}"#, "a.jpg.rotate", "0, 90, 180 or 270"),
        (#"{"a.jpg": {"rotate": 1e300}}"#, "a.jpg.rotate", "0, 90, 180 or 270"),
        (#"{"a.jpg": {"split": 0.1}}"#, "a.jpg.split", "0.2 to 0.8"),
        (#"{"a.jpg": {"split": 0.81}}"#, "a.jpg.split", "0.2 to 0.8"),
        (#"{"a.jpg": {"split": "yes"}}"#, "a.jpg.split", "true, false or a number"),
        (#"{"a.jpg": {"split": null}}"#, "a.jpg.split", "true, false or a number"),
        (#"{"a.jpg": {"exclude": 1}}"#, "a.jpg.exclude", "true or false"),
        (#"{"a.jpg": {"exclude": "true"}}"#, "a.jpg.exclude", "true or false"),
        (#"{"a.jpg": {"corners": [[0, 0], [1, 0]]}}"#, "a.jpg.corners", "four corners"),
        (#"{"a.jpg": {"corners": [[0, 0], [10, 0], [10, 10], [0, -1]]}}"#, "a.jpg.corners", "negative"),
        (#"{"a.jpg": {"corners": [[0, 0], [2e7, 0], [2e7, 10], [0, 10]]}}"#, "a.jpg.corners", "over 10000000"),
        (#"{"a.jpg": {"corners": [[0, 0], [0, 10], [10, 10], [10, 0]]}}"#, "a.jpg.corners", "convex quad in order"),
        (#"{"a.jpg": {"corner": [[0, 0], [10, 0], [10, 10], [0, 10]]}}"#, "a.jpg.corner", "unknown key"),
        (#"{"a.jpg": 5}"#, "a.jpg", "four corners or an object"),
        (#"{"a.jpg": null}"#, "a.jpg", "four corners or an object"),
        (#"{"a.jpg#0": {}}"#, "a.jpg#0", "number from 1"),
        (#"{"": {}}"#, "", "empty file name")
    ])
    func badEntriesAreRefusedNamingTheFileAndTheKey(text: String, key: String, reason: String) throws {
        let error = try #require(Self.refusal(text), "\(text) was read")
        #expect(error.file == "c.json")
        #expect(error.key == key)
        #expect(error.message.contains(reason), "\(error)")
        // One line: `c.json: "a.jpg.rotate": must be ...`.
        #expect(!error.description.contains("\n") && error.description.hasPrefix("c.json: \"\(key)\": "))
    }

    @Test(arguments: [
        "", "[]", "{\"a\": ", "not json", String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
    ])
    func filesThatAreNotAnObjectAreRefusedNamingTheFile(text: String) throws {
        let error = try #require(Self.refusal(text))
        #expect(error.file == "c.json" && error.key == nil)
    }

    @Test func aMissingFileIsNamed() {
        #expect { try CorrectionsFile(contentsOf: "/nonexistent/corrections.json") } throws: { error in
            "\(error)" == "/nonexistent/corrections.json: cannot read the file"
        }
    }

    @Test func theWriterPutsOneEntryPerLineSortedAndReadsBackTheSame() throws {
        let file = CorrectionsFile(entries: [
            "b.jpg": CorrectionEntry(rotate: 270, split: .join),
            "a.jpg": CorrectionEntry(
                corners: Quad(rect: Rect(x: 1.234, y: 2, width: 30, height: 40)), split: .at(0.4567)),
            "c.pdf#3": CorrectionEntry(exclude: true),
            "d.jpg": CorrectionEntry(split: .gutter),
            "e.jpg": CorrectionEntry()
        ])
        let text = file.jsonText()
        #expect(
            text == """
                {
                  "a.jpg": {"corners": [[1.23, 2], [31.23, 2], [31.23, 42], [1.23, 42]], "split": 0.4567},
                  "b.jpg": {"rotate": 270, "split": false},
                  "c.pdf#3": {"exclude": true},
                  "d.jpg": {"split": true},
                  "e.jpg": {}
                }

                """)
        let back = try CorrectionsFile(json: Array(text.utf8))
        #expect(back.jsonText() == text)
        #expect(back.entries["b.jpg"] == file.entries["b.jpg"])
        #expect(back.entries["d.jpg"]?.split == .gutter)
    }
}
