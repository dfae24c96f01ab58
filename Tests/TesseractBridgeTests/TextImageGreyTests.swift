import Foundation
import Testing
@testable import TesseractBridge

/// A colour image whose pixels are all grey is handed to Tesseract as its one grey band, and
/// Tesseract reads the two to the same hOCR.
@Suite struct TextImageGreyTests {
    static func colour(_ grey: [UInt8]) -> [UInt8] { grey.flatMap { [$0, $0, $0] } }

    @Test func aNeutralColourImageBecomesItsGreyBand() throws {
        let grey: [UInt8] = (0..<(7 * 5)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let image = try #require(TextImage(pixels: Self.colour(grey), width: 7, height: 5, bands: 3, dpi: 300))
        let made = image.greyWhenNeutral()
        #expect(made.bands == 1 && made.width == 7 && made.height == 5 && made.dpi == 300)
        #expect(made.pixels == grey)
    }

    /// One channel of one pixel off by one keeps the colour: a tinted page is read as colour,
    /// since Tesseract keeps the clearest channel of each (a grey copy would lose its text).
    @Test(arguments: [0, 1, 2, 3 * 34 + 1, 3 * 34 + 2])
    func oneTintedValueKeepsTheColour(at index: Int) throws {
        var pixels = Self.colour((0..<35).map { UInt8($0 * 7) })
        pixels[index] = pixels[index] == 255 ? 254 : pixels[index] + 1
        let image = try #require(TextImage(pixels: pixels, width: 7, height: 5, bands: 3))
        let kept = image.greyWhenNeutral()
        #expect(kept.bands == 3 && kept.pixels == pixels)
    }

    @Test func aGreyImageStaysAsItIs() throws {
        let image = try #require(TextImage(pixels: [1, 2, 3, 4, 5, 6], width: 3, height: 2, bands: 1))
        let kept = image.greyWhenNeutral()
        #expect(kept.bands == 1 && kept.pixels == image.pixels)
    }

    /// The reason the shortcut keeps the words: a page of drawn text (anti-aliased, so many
    /// greys, and lines Tesseract scales down for its LSTM) read as three equal channels and as
    /// one band gives the same hOCR, words, boxes and confidences byte for byte.
    @Test func aNeutralColourPageReadsAsItsGreyBand() throws {
        guard let models = TextEngineTests.models, models.installed.contains("eng") else { return }
        let lines = [
            ("Quire reads searchable pages", 150, 120), ("Invoice number 48213, due 2026-11-30", 150, 420),
            ("the quick brown fox jumps over the lazy dog", 300, 700)
        ]
        let (grey, _) = try TextEngineTests.page(width: 2200, height: 1000, lines: lines)
        let colour = try #require(
            TextImage(pixels: Self.colour(grey.pixels), width: grey.width, height: grey.height, bands: 3, dpi: 300))
        let made = colour.greyWhenNeutral()
        #expect(made.bands == 1)
        let engine = try TextEngine(models: models, languages: "eng")
        let asColour = try engine.read(colour)
        let asGrey = try engine.read(made)
        #expect(TextEngineTests.words(inHOCR: asColour.hocrPage).count >= 16, "read: \(asColour.text)")
        #expect(asGrey.hocrPage == asColour.hocrPage)
        #expect(asGrey.text == asColour.text)
    }
}
