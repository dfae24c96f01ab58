import Testing
import TesseractBridge
import VipsBridge

/// Leptonica's up-or-down reading: rendered lines of text read positive upright and negative
/// upside down, as is and (lines running down) read turned a quarter clockwise; a blank page
/// and mismatched sizes give no reading.
@Suite struct TextUpDownTests {
    /// A white grey page of ten lines of rendered serif text at 150 dpi (the size of the
    /// orientation's grey copy of a 300 dpi page), turned `turns` quarter turns clockwise.
    static func page(turns: Int) throws -> (gray: [UInt8], width: Int, height: Int) {
        let lines = [
            "The quick brown fox jumps over the lazy dog, and keeps going.",
            "Pack my box with five dozen liquor jugs before the night falls."
        ]
        var layers: [(image: VIPSImage, x: Int, y: Int)] = []
        for i in 0..<10 {
            layers.append((try VIPSImage.text(lines[i % 2], font: "serif 11", dpi: 150), 60, 60 + i * 50))
        }
        let page = try VIPSImage.solid(width: 1300, height: 620, color: [255, 255, 255]).rgba()
            .compositing(layers).flattened(onto: [255, 255, 255]).extractBands(1)
            .rotated(quarterTurns: turns).materialized()
        return (try page.pixelBytes(), page.width, page.height)
    }

    @Test(arguments: [(0, false, 1.0), (2, false, -1.0), (3, true, 1.0), (1, true, -1.0)])
    func readsTheWayUpOfRenderedLines(turns: Int, sideways: Bool, sign: Double) throws {
        let page = try Self.page(turns: turns)
        let conf = try #require(
            TextUpDown.confidence(
                gray: page.gray, width: page.width, height: page.height, below: 128, turnedClockwise: sideways))
        // Clearly on its side of 0: leptonica's own decision bar is 8 on a page of this much text.
        #expect(conf * sign > 8, "turned \(turns * 90): \(conf)")
    }

    @Test func aBlankPageOrMismatchedSizesGiveNoAnswer() {
        let blank = [UInt8](repeating: 255, count: 400 * 300)
        #expect(TextUpDown.confidence(gray: blank, width: 400, height: 300, below: 128) == 0)
        #expect(TextUpDown.confidence(gray: blank, width: 401, height: 300, below: 128) == nil)
        #expect(TextUpDown.confidence(gray: [], width: 0, height: 0, below: 128) == nil)
    }
}
