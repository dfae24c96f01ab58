import Foundation
import QuireLayout
import Testing

/// `LayoutJSON.quoted`, Quire's one JSON string escaper (layout replies, the corners and
/// corrections files, the viewer's search index).
@Suite struct LayoutJSONStringTests {
    @Test func escapesQuotesBackslashesAndControlCharacters() {
        #expect(LayoutJSON.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(LayoutJSON.quoted("1\n2\r3\t4") == #""1\n2\r3\t4""#)
        #expect(LayoutJSON.quoted("\u{0}\u{1F}") == #""\u0000\u001f""#)
        #expect(LayoutJSON.quoted("Käse — 東京 🙂") == "\"Käse — 東京 🙂\"")
    }

    @Test func leavesMarkupAloneUnlessAskedForHTMLSafety() {
        let text = "<b>&\u{7F}\u{2028}\u{2029}"
        #expect(LayoutJSON.quoted(text) == "\"\(text)\"")
        // Every one of the six is escaped, not only the last of the case's patterns.
        #expect(LayoutJSON.quoted(text, htmlSafe: true) == #""\u003cb\u003e\u0026\u007f\u2028\u2029""#)
        #expect(!LayoutJSON.quoted("</script>", htmlSafe: true).contains("</"))
    }

    @Test func readsBackAsTheSameString() throws {
        for text in ["", "plain", "a\"\\\n\t\u{1}<>&\u{2028}", "🙂\u{7F}"] {
            for htmlSafe in [false, true] {
                let literal = LayoutJSON.quoted(text, htmlSafe: htmlSafe)
                let value = try JSONDecoder().decode([String].self, from: Data("[\(literal)]".utf8))
                #expect(value == [text], "\(htmlSafe) \(literal)")
            }
        }
    }
}
