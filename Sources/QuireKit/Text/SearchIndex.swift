import QuireLayout

/// The viewer's search index: every recognised word of the batch, its page and its box, as a
/// script (`OUT/text/search.js`) that assigns `window.QUIRE_SEARCH`.
///
/// A script rather than JSON because browsers refuse `fetch()` of a sibling file on `file://`
/// but load a classic `<script src>`; the viewer adds that element on the first search only, so
/// a batch opens as fast with text as without. Compact: per page one word list and one flat
/// array of integer boxes (`x0, y0, x1, y1` per word, in the hOCR page's pixels), about 30 bytes
/// a word. Matching (case, accents, punctuation) is the viewer's (`Viewer/search.js`), so the
/// words are kept as read.
public enum SearchIndex {
    /// The format's version, read by the viewer: a later change of shape bumps it.
    public static let version = 1

    /// One page's words: `index` is the page's batch index (layout.json `pages[].index`).
    public struct Page: Sendable {
        public var index: Int
        public var ocr: OCRPage
        public init(index: Int, ocr: OCRPage) {
            self.index = index
            self.ocr = ocr
        }
    }

    /// The script for `pages` (in batch order; pages without words are kept, with empty lists,
    /// so the viewer knows they were read).
    public static func script(_ pages: [Page]) -> String {
        var out =
            "/* Written by quire from OUT/text/*.hocr: the viewer's search index, loaded on the first search. */\n"
        out += "window.QUIRE_SEARCH = {\"version\":\(version),\"pages\":["
        for (n, page) in pages.enumerated() {
            if n > 0 { out += ",\n" }
            let words = page.ocr.words.filter { !$0.text.allSatisfy(\.isWhitespace) }
            out += "{\"index\":\(page.index),\"width\":\(page.ocr.width),\"height\":\(page.ocr.height),\"words\":["
            out += words.map { LayoutJSON.quoted($0.text, htmlSafe: true) }.joined(separator: ",")
            out += "],\"boxes\":["
            out += words.map { w in
                [w.box.minX, w.box.minY, w.box.maxX, w.box.maxY].map { String(coordinate($0)) }.joined(separator: ",")
            }.joined(separator: ",")
            out += "]}"
        }
        out += "]};\n"
        return out
    }

    /// A box edge as a whole pixel, clamped to what the hOCR reader accepts (it already refuses
    /// anything outside, so this only guards the conversion).
    static func coordinate(_ v: Double) -> Int {
        guard v.isFinite else { return 0 }
        return Int(Swift.min(Swift.max(v, 0), HOCRReader.maxCoordinate).rounded())
    }
}
