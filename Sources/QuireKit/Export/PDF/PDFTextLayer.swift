import QuireGeometry

/// The invisible text over a page image: the content-stream operators that put each recognised
/// word, in rendering mode 3 (neither filled nor stroked), exactly over the word on the image.
///
/// Each word gets its own text matrix: its origin where the word's left end meets its line's
/// baseline, and a horizontal scaling that makes the word's characters (each
/// `GlyphlessFont.characterWidth` wide) span the word box's width exactly. All words of a line
/// share the line's baseline and one font size (the line's height above its baseline): PDF
/// readers put words into lines by baseline and font size, so this keeps each line one line in
/// text extraction and selection, as Tesseract read it. A reader's box for a word is then the
/// word's own left and right edges over its line's band from the top of the line to the
/// baseline. Words are written in reading order with a space after each word but a line's last;
/// a right-to-left word's characters go in visual order (reversed), as typesetters write Arabic
/// and Hebrew, which PDF readers turn back into logical order.
enum PDFTextLayer {
    /// The font's resource name in a page's resources.
    static let fontName = "Fq"

    /// Operators for `page`'s words on a page whose image is `pixelWidth` x `pixelHeight`
    /// pixels, placed by `placement`; empty when the page has no words.
    /// - Complexity: O(characters).
    static func operators(for page: OCRPage, pixelWidth: Int, pixelHeight: Int, placement: PDFPagePlacement) -> String {
        guard page.width > 0, page.height > 0, pixelWidth > 0, pixelHeight > 0 else { return "" }
        // hOCR pixels -> image pixels (the same unless the hOCR was made at another size) -> points.
        let sx = Double(pixelWidth) / Double(page.width) * placement.width / Double(pixelWidth)
        let sy = Double(pixelHeight) / Double(page.height) * placement.height / Double(pixelHeight)
        func x(_ px: Double) -> Double { placement.x + px * sx }
        func y(_ py: Double) -> Double { placement.pageHeight - (placement.y + py * sy) }

        var out = "BT\n3 Tr\n"
        var any = false
        let em = Double(GlyphlessFont.characterWidth) / 1000
        for line in page.lines {
            // One size for the line: from its top to its baseline (at least a pixel).
            let lineTop = line.box.minY
            for (i, word) in line.words.enumerated() {
                // A space after every word but the last of its line, so copied text has its
                // spaces in every reader; lines are told apart by their positions.
                let text = word.text + (i + 1 < line.words.count ? " " : "")
                let wordUnits = word.text.utf16.count
                let start = word.box.minX
                let base = min(line.box.maxY, max(lineTop + 1, line.baselineY(at: start)))
                let size = (base - lineTop) * sy
                let width = (word.box.maxX - word.box.minX) * sx
                guard wordUnits > 0, width > 0, size > 0, size.isFinite, width.isFinite else { continue }
                let scale = 100 * width / (Double(wordUnits) * em * size)
                // Right-to-left words go in visual order, as typesetters write them: their
                // characters reversed, left to right; readers put them back in logical order. The
                // space before the next word then comes first, so it starts one character
                // (width / characters) left of the box, in the gap towards the next word, and the
                // word's own characters span its box as a left-to-right word's do.
                let spaced = word.rightToLeft && i + 1 < line.words.count
                let shown = word.rightToLeft ? (spaced ? " " : "") + String(word.text.reversed()) : text
                let left = x(start) - (spaced ? width / Double(wordUnits) : 0)
                let origin = "\(PDFSyntax.number(left)) \(PDFSyntax.number(y(base)))"
                out +=
                    "/\(fontName) \(PDFSyntax.number(size)) Tf \(PDFSyntax.number(scale, decimals: 2)) Tz 1 0 0 1 \(origin) Tm <\(PDFSyntax.utf16Hex(shown))> Tj\n"
                any = true
            }
        }
        return any ? out + "ET\n" : ""
    }
}

/// Where a page's image sits: the page size and the image's rect on it, in PDF points (1/72
/// inch), y down from the page's top-left corner.
public struct PDFPagePlacement: Sendable, Equatable {
    public var pageWidth: Double, pageHeight: Double
    public var x: Double, y: Double, width: Double, height: Double

    /// An image rect `(x, y, width, height)` on a `pageWidth` x `pageHeight` page, in points.
    public init(pageWidth: Double, pageHeight: Double, x: Double = 0, y: Double = 0, width: Double, height: Double) {
        self.pageWidth = pageWidth
        self.pageHeight = pageHeight
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
