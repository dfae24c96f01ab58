import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// The cheap look before Tesseract: printed glyphs pass, word-shaped dashes, bars and blank
/// paper do not, and Tesseract is not started for a page that fails it.
@Suite struct TextPresenceTests {
    /// A page `width` x `height` of paper (230) with `rows` x `columns` marks of ink (20), each
    /// `size` px high, drawn by `mark(x, y)` inside its cell (x, y from 0 to size - 1).
    static func page(
        width: Int = 800, height: Int = 600, rows: Int = 12, columns: Int = 20, size: Int = 14,
        mark: (Int, Int) -> Bool
    ) -> [UInt8] {
        var gray = [UInt8](repeating: 230, count: width * height)
        for row in 0..<rows {
            for column in 0..<columns {
                let (x0, y0) = (30 + column * (size * 2), 30 + row * (size * 2))
                for y in 0..<size where y0 + y < height {
                    for x in 0..<size where x0 + x < width && mark(x, y) { gray[(y0 + y) * width + x0 + x] = 20 }
                }
            }
        }
        return gray
    }

    /// An "o": a ring two pixels thick (about half its box inked).
    static func ring(_ x: Int, _ y: Int, size: Int = 14) -> Bool {
        let c = Double(size - 1) / 2, r = hypot(Double(x) - c, Double(y) - c)
        return r <= c && r >= c - 2
    }

    @Test func printedGlyphsPass() {
        #expect(TextPresence.hasReadableText(gray: Self.page { Self.ring($0, $1) }, width: 800, height: 600))
        // An "E": stem and three arms.
        let e = Self.page { x, y in x < 3 || y < 2 || y > 11 || (y >= 6 && y < 8) }
        #expect(TextPresence.hasReadableText(gray: e, width: 800, height: 600))
    }

    @Test func dashesBarsAndBlankPaperDoNot() {
        // The bench's generated captures: solid word-shaped dashes, full line height.
        let dashes = Self.page(rows: 12, columns: 20) { _, _ in true }
        #expect(!TextPresence.hasReadableText(gray: dashes, width: 800, height: 600))
        #expect(!TextPresence.hasReadableText(gray: [UInt8](repeating: 230, count: 800 * 600), width: 800, height: 600))
        // Too few glyphs: a handful of letters is not a page of text.
        let few = Self.page(rows: 1, columns: 10) { Self.ring($0, $1) }
        #expect(TextPresence.glyphCount(gray: few, width: 800, height: 600, below: 128, enough: 100) == 10)
        #expect(!TextPresence.hasReadableText(gray: few, width: 800, height: 600))
        // Specks under the glyph height (halftone, noise).
        let specks = Self.page(size: 3) { x, y in (x + y) % 2 == 0 }
        #expect(!TextPresence.hasReadableText(gray: specks, width: 800, height: 600))
        #expect(!TextPresence.hasReadableText(gray: [1, 2, 3], width: 800, height: 600), "wrong size: no")
    }

    /// Tesseract is not started for a page without glyphs: an executable that does not exist
    /// would make the guess fail (nil); the look answers first, "not sure" (confidence 0).
    /// A page without glyphs is answered "not sure" before Tesseract is asked, whether or not
    /// Tesseract is installed.
    @Test func aPageWithoutTextIsAnsweredWithoutTesseract() throws {
        let dashes = Self.page { _, _ in true }
        let image = try VIPSImage.fromPixels(dashes, width: 800, height: 600, bands: 1)
        #expect(try TesseractOSD().guess(image) == OrientationGuess(rotate: 0, confidence: 0))
    }
}
