import QuireGeometry
import Testing
@testable import QuireKit

/// The text layer's operators and the PDF spelling of numbers and strings.
@Suite struct PDFTextLayerTests {
    @Test func numbersHaveNoExponentNoNegativeZeroAndNoNaN() {
        #expect(PDFSyntax.number(12) == "12")
        #expect(PDFSyntax.number(-0.00001) == "0")
        #expect(PDFSyntax.number(1.23456789) == "1.2346")
        #expect(PDFSyntax.number(-595.275) == "-595.275")
        #expect(PDFSyntax.number(0.05) == "0.05")
        #expect(PDFSyntax.number(1e-9) == "0")
        #expect(PDFSyntax.number(123456.5) == "123456.5")
        #expect(PDFSyntax.number(.nan) == "0" && PDFSyntax.number(.infinity) == "0")
    }

    @Test func textStringsEscapeOrGoUTF16() {
        #expect(PDFSyntax.textString("in/0.jpg") == "(in/0.jpg)")
        #expect(PDFSyntax.textString("a(b)\\c") == "(a\\(b\\)\\\\c)")
        #expect(
            PDFSyntax.textString("café") == "<FEFF0063006100660065>".replacingOccurrences(of: "0065>", with: "00E9>"))
        #expect(PDFSyntax.utf16Hex("😀") == "D83DDE00")
        #expect(PDFSyntax.date(fromISO: "2026-01-02T03:04:05Z") == "D:20260102030405Z")
        #expect(PDFSyntax.date(fromISO: "yesterday") == nil)
    }

    /// A 1000 x 800 pixel page on a 500 x 400 point page: half a point per pixel.
    private let placement = PDFPagePlacement(pageWidth: 500, pageHeight: 400, width: 500, height: 400)

    @Test func eachWordSpansItsBoxOnItsLinesBaseline() {
        let line = OCRLine(
            box: Rect(x: 100, y: 100, width: 400, height: 40), baseline: (0, -10),
            words: [
                OCRWord(text: "Hello", box: Rect(x: 100, y: 102, width: 200, height: 28)),
                OCRWord(text: "world", box: Rect(x: 320, y: 104, width: 180, height: 36))
            ])
        let ops = PDFTextLayer.operators(
            for: OCRPage(width: 1000, height: 800, lines: [line]), pixelWidth: 1000, pixelHeight: 800,
            placement: placement)
        // Baseline at y = 140 - 10 = 130 px -> 400 - 65 = 335 pt; size = (130 - 100) px = 15 pt.
        // "Hello" is 200 px = 100 pt wide: 5 units of 0.5 em at 15 pt = 37.5 pt -> Tz 266.67.
        #expect(ops.hasPrefix("BT\n3 Tr\n") && ops.hasSuffix("ET\n"))
        #expect(ops.contains("/Fq 15 Tf 266.67 Tz 1 0 0 1 50 335 Tm <00480065006C006C006F0020> Tj"))
        // The line's last word has no trailing space; 180 px = 90 pt over 5 units at 15 pt -> Tz 240.
        #expect(ops.contains("/Fq 15 Tf 240 Tz 1 0 0 1 160 335 Tm <0077006F0072006C0064> Tj"))
    }

    @Test func rightToLeftWordsGoInVisualOrder() {
        let line = OCRLine(
            box: Rect(x: 0, y: 0, width: 1000, height: 40),
            words: [
                OCRWord(text: "שלום", box: Rect(x: 600, y: 0, width: 200, height: 40), rightToLeft: true)
            ])
        let ops = PDFTextLayer.operators(
            for: OCRPage(width: 1000, height: 800, lines: [line]), pixelWidth: 1000, pixelHeight: 800,
            placement: placement)
        // Reversed, from the box's left edge: readers restore the logical order.
        #expect(ops.contains("1 0 0 1 300 380 Tm <05DD05D505DC05E9> Tj"))
    }

    /// A right-to-left word followed by another on its line: the space goes first (visual order), one
    /// character left of the box, so the word's own characters still span its box and the space
    /// falls in the gap towards the next word (before, it pushed the word a character to the right).
    @Test func aRightToLeftWordsSpaceGoesInTheGapOnItsLeft() {
        let line = OCRLine(
            box: Rect(x: 0, y: 0, width: 1000, height: 40),
            words: [
                OCRWord(text: "שלום", box: Rect(x: 600, y: 0, width: 200, height: 40), rightToLeft: true),
                OCRWord(text: "עולם", box: Rect(x: 300, y: 0, width: 240, height: 40), rightToLeft: true)
            ])
        let ops = PDFTextLayer.operators(
            for: OCRPage(width: 1000, height: 800, lines: [line]), pixelWidth: 1000, pixelHeight: 800,
            placement: placement)
        // 200 px = 100 pt over 4 characters: 25 pt a character, so the space starts at 300 - 25 pt.
        #expect(ops.contains("1 0 0 1 275 380 Tm <002005DD05D505DC05E9> Tj"))
        // The line's last word has no space and starts at its box: 300 px = 150 pt.
        #expect(ops.contains("1 0 0 1 150 380 Tm <05DD05DC05D505E2> Tj"))
    }

    @Test func aPageWithoutWordsOrSizeHasNoTextObject() {
        #expect(
            PDFTextLayer.operators(
                for: OCRPage(width: 10, height: 10, lines: []), pixelWidth: 10, pixelHeight: 10,
                placement: placement
            ).isEmpty)
        let degenerate = OCRLine(
            box: Rect(x: 5, y: 5, width: 0, height: 0),
            words: [OCRWord(text: "x", box: Rect(x: 5, y: 5, width: 0, height: 0))])
        #expect(
            PDFTextLayer.operators(
                for: OCRPage(width: 10, height: 10, lines: [degenerate]), pixelWidth: 10, pixelHeight: 10,
                placement: placement
            ).isEmpty)
    }
}
