import Foundation
import QuireGeometry
import QuireLayout
import Testing
@testable import QuireKit

/// The viewer's search index (`OUT/text/search.js`): every word with its page and box, written so
/// that no word can break out of its string or its script.
@Suite struct SearchIndexTests {
    /// The object the script assigns, parsed as JSON (the script must be exactly the prefix, one
    /// JSON value and `;`).
    static func payload(_ script: String) throws -> [String: Any] {
        let marker = "window.QUIRE_SEARCH = "
        let start = try #require(script.range(of: marker))
        #expect(script.hasSuffix(";\n"))
        let json = String(script[start.upperBound...].dropLast(2))
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    static func hocr(_ words: [(String, [Int])], width: Int = 600, height: Int = 400) -> [UInt8] {
        let spans = words.enumerated().map { n, w in
            "<span class='ocrx_word' id='word_1_\(n)' title='bbox \(w.1.map(String.init).joined(separator: " ")); x_wconf 90'>\(w.0)</span>"
        }.joined()
        return Array(
            """
            <html><body><div class='ocr_page' title='bbox 0 0 \(width) \(height)'>
            <span class='ocr_line' title='bbox 0 0 \(width) 50'>\(spans)</span></div></body></html>
            """.utf8)
    }

    @Test func wordsAndFlatBoxesPerPageInReadingOrder() throws {
        let fixture = try Data(
            contentsOf: TestSupport.repoRoot.appendingPathComponent("Tests/Fixtures/hocr/tesseract-page.hocr"))
        let ocr = try HOCRReader.read(Array(fixture))
        let empty = try HOCRReader.read(Self.hocr([], width: 10, height: 20))
        let script = SearchIndex.script([.init(index: 4, ocr: ocr), .init(index: 7, ocr: empty)])
        let object = try Self.payload(script)
        #expect(object["version"] as? Int == SearchIndex.version)
        let pages = try #require(object["pages"] as? [[String: Any]])
        #expect(pages.map { $0["index"] as? Int } == [4, 7])
        #expect(pages[0]["width"] as? Int == 1653 && pages[0]["height"] as? Int == 2336)
        #expect(pages[0]["words"] as? [String] == ocr.words.map(\.text))
        let boxes = try #require(pages[0]["boxes"] as? [Int])
        #expect(boxes.count == 4 * ocr.words.count)
        #expect(Array(boxes.prefix(4)) == [29, 24, 125, 52])  // bbox 29 24 125 52, the first word
        #expect(pages[1]["words"] as? [String] == [] && pages[1]["boxes"] as? [Int] == [])
        // Each word costs its text and four numbers, nothing per word beyond (docs/viewer.md's figure):
        // under 40 bytes for these 1653 x 2336 pixel boxes.
        let bare = SearchIndex.script([
            .init(index: 4, ocr: OCRPage(width: 1653, height: 2336, lines: [])), .init(index: 7, ocr: empty)
        ])
        let perWord = Double(script.utf8.count - bare.utf8.count) / Double(ocr.words.count)
        let textBytes = Double(ocr.words.map(\.text.utf8.count).reduce(0, +)) / Double(ocr.words.count)
        #expect(perWord < 40 && perWord - textBytes < 24, "\(perWord) bytes a word, \(textBytes) of them text")
    }

    @Test func quotesBackslashesAndScriptEndsCannotBreakOut() throws {
        let words = [
            "say\"hi\"", "back\\slash", "</script><script>alert(1)</script>", "a&amp;b", "line\u{2028}sep", "tab\there"
        ]
        let ocr = OCRPage(
            width: 100, height: 100,
            lines: [
                OCRLine(
                    box: Rect(x: 0, y: 0, width: 100, height: 10),
                    words:
                        words.enumerated().map { n, w in
                            OCRWord(text: w, box: Rect(x: Double(n * 10), y: 0, width: 9, height: 10))
                        })
            ])
        let script = SearchIndex.script([.init(index: 0, ocr: ocr)])
        // No `<`, `>` or raw line separator anywhere past the comment: the script is safe even inline.
        let body = try #require(script.split(separator: "\n", maxSplits: 1).last)
        #expect(!body.contains("<") && !body.contains(">") && !body.unicodeScalars.contains("\u{2028}"))
        let pages = try #require(try Self.payload(script)["pages"] as? [[String: Any]])
        #expect(pages[0]["words"] as? [String] == words)
    }

    @Test func rightToLeftAndNonLatinWordsStayText() throws {
        let fixture = try Data(
            contentsOf: TestSupport.repoRoot.appendingPathComponent("Tests/Fixtures/hocr/scripts.hocr"))
        let ocr = try HOCRReader.read(Array(fixture))
        let script = SearchIndex.script([.init(index: 0, ocr: ocr)])
        // UTF-8, not \u escapes
        #expect(script.contains("\"مرحبا\"") && script.contains("\"שלום\"") && script.contains("\"日本語\""))
        let pages = try #require(try Self.payload(script)["pages"] as? [[String: Any]])
        #expect(
            pages[0]["words"] as? [String] == [
                "Fish&Chips", "<café>", "Ελληνικά", "日本語", "مرحبا", "بالعالم", "שלום", "2026"
            ])
        // An RTL word keeps its box as read (the first Arabic word is the rightmost).
        let boxes = try #require(pages[0]["boxes"] as? [Int])
        #expect(Array(boxes[16..<20]) == [700, 204, 890, 236])
    }

    @Test func theWriterIndexesPagesWithTextAndNamesABrokenOne() throws {
        let out = try OutputFixture.make(aspectRatios: [0.75, 0.75, 0.75])
        defer { try? FileManager.default.removeItem(at: out.url) }
        let layoutURL = out.url.appendingPathComponent("layout.json")
        // Without --ocr there is no index.
        #expect(try SearchIndexWriter.write(into: out.url).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out.url.appendingPathComponent(SearchIndexWriter.path).path))
        var report = try LayoutReport.read(from: layoutURL)
        for i in 0..<3 {
            report.pages[i].text = .init(
                hocr: "text/000\(i + 1).hocr", txt: "text/000\(i + 1).txt", language: "eng", meanConfidence: 90,
                words: 1)
        }
        report.pages[2].text?.hocr = "../outside.hocr"
        try report.encoded().write(to: layoutURL)
        try FileManager.default.createDirectory(
            at: out.url.appendingPathComponent("text"), withIntermediateDirectories: true)
        try Data(Self.hocr([("Quire", [10, 20, 90, 40])])).write(to: out.url.appendingPathComponent("text/0001.hocr"))
        try Data("not hocr".utf8).write(to: out.url.appendingPathComponent("text/0002.hocr"))
        let warnings = try SearchIndexWriter.write(into: out.url)
        #expect(warnings.count == 2)
        #expect(
            warnings.contains {
                $0.hasSuffix("text/0002.hocr: not searchable (not an hOCR page (no ocr_page with a bbox))")
            })
        #expect(warnings.contains { $0.contains("outside.hocr") && $0.contains("not searchable") })
        let script = try String(contentsOf: out.url.appendingPathComponent(SearchIndexWriter.path), encoding: .utf8)
        let pages = try #require(try Self.payload(script)["pages"] as? [[String: Any]])
        #expect(
            pages.count == 1 && pages[0]["words"] as? [String] == ["Quire"]
                && pages[0]["boxes"] as? [Int] == [10, 20, 90, 40])
        // The viewer writer writes it too, and passes the warnings on.
        try FileManager.default.removeItem(at: out.url.appendingPathComponent(SearchIndexWriter.path))
        #expect(try ViewerWriter.write(into: out.url).count == 2)
        #expect(FileManager.default.fileExists(atPath: out.url.appendingPathComponent(SearchIndexWriter.path).path))
    }
}
