import Testing
@testable import QuirePageAnalysis

/// Scanner edges are found where a scanner leaves them, and nothing of the page is taken for one.
@Suite struct ScannerEdgesTests {
    /// A 400 x 560 white page (grey 240) with what `draw` paints dark.
    func page(_ draw: (Int, Int) -> Bool) -> [UInt8] {
        var g = [UInt8](repeating: 240, count: 400 * 560)
        for y in 0..<560 { for x in 0..<400 where draw(x, y) { g[y * 400 + x] = 20 } }
        return g
    }

    /// Text lines: short dark runs in rows inside a 30 px margin.
    func text(_ x: Int, _ y: Int, margin: Int = 30) -> Bool {
        x >= margin && x < 400 - margin && y >= 40 && y < 520 && (y % 20) < 6 && (x / 7) % 4 != 3
    }

    @Test func aSlantedBarAlongTheLeftIsFoundAndTheTextIsNot() throws {
        // The bar of unpaper's imgsrc001 after deskew: slanted, 3 px off the border at the top.
        let g = page { x, y in (y < 300 && x >= 3 + y / 30 && x < 28 + y / 30) || text(x, y) }
        let result = ScannerEdges.find(grey: g, width: 400, height: 560, paper: 240)
        try #require(result != nil)
        let found = result!
        #expect(found.mask[100 * 400 + 15])  // in the bar
        #expect(!found.mask[40 * 400 + 100])  // text stays
        #expect(!found.mask[400 * 400 + 15])  // paper below the bar stays
        #expect(found.area < 300 * 40)
    }

    /// Dark things a page can hold at its edge.
    static func content(_ name: String, _ x: Int, _ y: Int) -> Bool {
        switch name {
        case "text close to the edge": x >= 2 && x < 398 && y >= 40 && y < 520 && (y % 20) < 6 && (x / 7) % 4 != 3
        case "a picture touching the edge and reaching far in": x < 200 && y > 100 && y < 300
        case "a small mark on the edge": x < 10 && y > 100 && y < 130
        case "a chessboard": (x / 50 + y / 70) % 2 == 0
        // A dark strip along its side, as a scanner bar would be, but the rest is no paper.
        case "a photograph with a dark strip along a side":
            x < 20 || (x * 7 + y * 13) % 97 < 45 || (x / 40 + y / 35) % 3 == 0
        default: false
        }
    }

    @Test(arguments: [
        "text close to the edge", "a picture touching the edge and reaching far in",
        "a small mark on the edge", "a blank page", "a chessboard", "a photograph with a dark strip along a side"
    ])
    func pageContentIsNeverTakenForAnEdge(_ name: String) {
        let found = ScannerEdges.find(grey: page { Self.content(name, $0, $1) }, width: 400, height: 560, paper: 240)
        #expect(found == nil, "\(name): \(found?.area ?? 0) pixels taken")
    }

    @Test func barsOnEverySideAndAShadowAreFound() throws {
        // Grey shadow (level 110) along the bottom, black bars top and right.
        var g = page { x, y in y < 12 || x > 385 || text(x, y) }
        for y in 545..<560 { for x in 0..<400 { g[y * 400 + x] = 110 } }
        let result = ScannerEdges.find(grey: g, width: 400, height: 560, paper: 240)
        try #require(result != nil)
        let found = result!
        #expect(found.mask[5 * 400 + 200] && found.mask[300 * 400 + 395] && found.mask[552 * 400 + 200])
        #expect(!found.mask[280 * 400 + 200])
    }

    /// A strip of one text line cut close (Pillow's g4 test files, 590 x 88): its "T" touches
    /// the left edge and spans most of the height, but it is a glyph, not a bar.
    @Test func aCapitalAtTheEdgeOfATextStripStays() {
        let (w, h) = (590, 88)
        var g = [UInt8](repeating: 240, count: w * h)
        for y in 14..<59 { for x in 1..<37 where y < 20 || (x >= 15 && x < 21) { g[y * w + x] = 10 } }
        for y in 30..<59 { for x in 50..<560 where (x / 6) % 4 != 3 && (y < 34 || x % 6 < 2) { g[y * w + x] = 10 } }
        let found = ScannerEdges.find(grey: g, width: w, height: h, paper: 240)
        #expect(found == nil, "\(found?.area ?? 0) pixels taken")
    }
}
