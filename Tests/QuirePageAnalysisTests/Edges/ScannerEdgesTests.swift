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

/// A copy whose seed margin holds no pixel darker than `neverDark` has no bar, whatever lies
/// inside it and whatever the paper's level: the clean-up skips the copy on that promise.
@Suite struct ScannerEdgesSeedMarginTests {
    @Test(arguments: [(400, 560), (600, 463), (211, 600)])
    func aLightMarginFindsNothing(width: Int, height: Int) {
        let m = ScannerEdges.seedMargin(width: width, height: height)
        var state: UInt64 = 0x5EED
        for trial in 0..<12 {
            var g = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let margin = x < m.x || x >= width - m.x || y < m.y || y >= height - m.y
                    // Inside: dark bars reaching right up to the margin, blocks, text-like runs.
                    let inner = (x == m.x || y == height - m.y - 1 || (x / 9 + y / 13 + trial) % 5 == 0) ? 0 : 230
                    let low = Int(ScannerEdges.neverDark)
                    g[y * width + x] = margin ? UInt8(low + Int(state >> 58) % (256 - low)) : UInt8(inner)
                }
            }
            #expect(
                !ScannerEdges.maySeed(
                    g.enumerated().filter { i, _ in
                        let x = i % width, y = i / width
                        return x < m.x || x >= width - m.x || y < m.y || y >= height - m.y
                    }.map(\.1)))
            for paper in [101, 180, 240, 255] {
                #expect(ScannerEdges.find(grey: g, width: width, height: height, paper: paper) == nil, "\(paper)")
            }
        }
    }

    /// One pixel under `neverDark` in the margin may seed a bar, and a bar in the margin is found.
    @Test func aDarkBarInTheMarginMaySeed() {
        let (w, h) = (400, 560)
        var g = [UInt8](repeating: 240, count: w * h)
        for y in 0..<300 { for x in 0..<25 { g[y * w + x] = 20 } }
        let m = ScannerEdges.seedMargin(width: w, height: h)
        let left = (0..<h).flatMap { y in (0..<m.x).map { g[y * w + $0] } }
        #expect(ScannerEdges.maySeed(left))
        #expect(ScannerEdges.maySeed([255, ScannerEdges.neverDark - 1]))
        #expect(!ScannerEdges.maySeed([255, ScannerEdges.neverDark]))
        #expect(ScannerEdges.find(grey: g, width: w, height: h, paper: 240) != nil)
    }
}
