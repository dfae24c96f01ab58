import Testing
@testable import QuirePageAnalysis

/// A page running off two opposite edges of the frame (a receipt photographed close up) is the
/// band between its two visible edges; two rules printed on a page are not.
@Suite struct PageDetectorFrameBandTests {
    /// RGB pixels: a textured grey-green carpet and a slanted strip of paper with rows of print,
    /// its left edge from (`topLeft`, `top`) to (`bottomLeft`, frame bottom), `width` wide.
    static func receipt(
        width w: Int, height h: Int, topLeft: Double, bottomLeft: Double, stripWidth: Double,
        top: Int = 0
    ) -> [UInt8] {
        var px = [UInt8](repeating: 0, count: w * h * 3)
        var seed: UInt32 = 12345
        for y in 0..<h {
            let left = topLeft + (bottomLeft - topLeft) * Double(y) / Double(h)
            for x in 0..<w {
                seed = seed &* 1664525 &+ 1013904223
                let grain = Int(seed >> 28)  // 0...15: the carpet's texture
                let o = (y * w + x) * 3
                if y >= top, Double(x) >= left, Double(x) < left + stripWidth {
                    // Words on lines of print, not bars: a bar across the strip is a line too.
                    let word = Int(Double(x) - left) % (37 + (y - top) / 30 % 3 * 11) < 25
                    let ink =
                        (y - top) % 30 >= 15 && (y - top) % 30 < 20 && word
                        && Double(x) > left + 30 && Double(x) < left + stripWidth - 30
                    let v: UInt8 = ink ? 50 : 228
                    (px[o], px[o + 1], px[o + 2]) = (v, v, v &+ (ink ? 0 : 3))
                } else {
                    (px[o], px[o + 1], px[o + 2]) = (UInt8(80 + grain), UInt8(100 + grain), UInt8(95 + grain))
                }
            }
        }
        return px
    }

    @Test func aReceiptRunningOffTopAndBottomIsTheBandBetweenItsEdges() throws {
        let (w, h) = (800, 600)
        let px = Self.receipt(width: w, height: h, topLeft: 280, bottomLeft: 220, stripWidth: 300)
        let found = PageDetector().detect(pixels: px, width: w, height: h, bands: 3)
        let quad = try #require(found.quad)
        let truth = try #require(
            Quad(corners: [
                Point(x: 280, y: 0), Point(x: 580, y: 0), Point(x: 520, y: 600),
                Point(x: 220, y: 600)
            ]))
        #expect(quad.intersectionOverUnion(with: truth) >= 0.97, "found \(quad)")
        // Two edges seen, two inferred: found, but never as sure as a page seen whole (the rules'
        // own line score; the reported confidence is the verifier's probability).
        let rules = PageDetector().pageCandidates(pixels: px, width: w, height: h, bands: 3).rules
        #expect(rules.confidence >= PageDetector().minConfidence && rules.confidence <= 0.85)
    }

    @Test func aReceiptWithItsTopInTheFrameIsClosedThere() throws {
        let (w, h) = (800, 600)
        let px = Self.receipt(width: w, height: h, topLeft: 280, bottomLeft: 220, stripWidth: 300, top: 90)
        let found = PageDetector().detect(pixels: px, width: w, height: h, bands: 3)
        let quad = try #require(found.quad)
        let truth = try #require(
            Quad(corners: [
                Point(x: 271, y: 90), Point(x: 571, y: 90), Point(x: 520, y: 600),
                Point(x: 220, y: 600)
            ]))
        #expect(quad.intersectionOverUnion(with: truth) >= 0.97, "found \(quad)")
    }

    @Test func twoRulesPrintedOnAPageAreNotAPage() {
        // A page filling the frame with a table's two vertical rules and print between and around
        // them: paper on both sides of each rule.
        let (w, h) = (800, 600)
        var px = [UInt8](repeating: 235, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let o = (y * w + x) * 3
                let rule = (250..<254).contains(x) || (560..<564).contains(x)
                let ink = y % 24 < 4 && x % 200 > 30 && x % 200 < 170
                if rule || ink { (px[o], px[o + 1], px[o + 2]) = (40, 40, 40) }
            }
        }
        let found = PageDetector().detect(pixels: px, width: w, height: h, bands: 3)
        #expect(found.quad == nil, "found \(String(describing: found.quad))")
    }

    /// RGB pixels of a bound page running off the bottom of the frame, with a ruled, tinted
    /// table and lines of print around it: dark surroundings above and to the right, and the lighter sheets beneath
    /// it showing to its left (a page stack), only 16 levels darker than the page.
    static func pageWithTable(width w: Int, height h: Int, left: Int, top: Int, right: Int) -> [UInt8] {
        var px = [UInt8](repeating: 0, count: w * h * 3)
        var seed: UInt32 = 777
        for y in 0..<h {
            for x in 0..<w {
                seed = seed &* 1664525 &+ 1013904223
                let grain = Int(seed >> 29)  // 0...7
                let o = (y * w + x) * 3
                let v: (Int, Int, Int)
                if x < left {
                    v = (196 + grain, 196 + grain, 200 + grain)  // the sheets beneath
                } else if y < top || x >= right {
                    v = (60 + grain, 58 + grain, 50 + grain)  // the desk
                } else {
                    let inTable = (200...620).contains(x) && (120...520).contains(y)
                    let rule =
                        inTable
                        && ([200, 201, 340, 341, 480, 481, 619, 620].contains(x)
                            || [120, 121, 220, 221, 320, 321, 420, 421, 519, 520].contains(y))
                    // Words in the table's cells, and lines of print around it.
                    let ink =
                        inTable
                        ? y % 100 > 40 && y % 100 < 48 && x % 140 > 80 && x % 140 < 130
                        : x > left + 30 && x < right - 30 && y > top + 30 && y % 26 < 6 && x % 57 < 40
                    // The table's cells are tinted grey: four sides as clear as a page's.
                    let paper = inTable ? 186 : 212
                    v = rule || ink ? (40, 40, 60) : (paper + grain, paper + 2 + grain, paper + 14 + grain)
                }
                (px[o], px[o + 1], px[o + 2]) = (UInt8(v.0), UInt8(v.1), UInt8(v.2))
            }
        }
        return px
    }

    @Test func aPageWithATableRunningOffTheFrameIsThePageNotTheTable() throws {
        let (w, h) = (800, 600)
        let px = Self.pageWithTable(width: w, height: h, left: 60, top: 50, right: 720)
        let found = PageDetector().detect(pixels: px, width: w, height: h, bands: 3)
        let quad = try #require(found.quad)
        let page = try #require(
            Quad(corners: [
                Point(x: 60, y: 50), Point(x: 720, y: 50), Point(x: 720, y: 600),
                Point(x: 60, y: 600)
            ]))
        #expect(quad.intersectionOverUnion(with: page) >= 0.97, "found \(quad)")
        // The rules' own line score (the reported confidence is the verifier's probability).
        let rules = PageDetector().pageCandidates(pixels: px, width: w, height: h, bands: 3).rules
        #expect(rules.confidence >= PageDetector().minConfidence && rules.confidence <= 0.85)
    }

    @Test func aBandHoldsWhatLiesWithinIt() throws {
        func candidate(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> QuadCandidate {
            let lines = [
                PageDetector.Line(nx: 1, ny: 0, c: x0), PageDetector.Line(nx: 0, ny: 1, c: y0),
                PageDetector.Line(nx: 1, ny: 0, c: x1), PageDetector.Line(nx: 0, ny: 1, c: y1)
            ]
            return QuadCandidate(lines: lines, confidence: 1, insideBrighter: true, score: 1)
        }
        let band = candidate(10, 0, 300, 400)
        #expect(PageDetector.holds(band, candidate(50, 50, 250, 350)))
        // Poking out by a few pixels along one side (a slanted edge line) still counts.
        #expect(PageDetector.holds(band, candidate(50, -5, 250, 350)))
        // Half outside does not.
        #expect(!PageDetector.holds(band, candidate(200, 50, 400, 350)))
    }

    @Test func aSideOnTheFrameIsRecognised() {
        #expect(PageDetector.isOnFrame(Point(x: -0.5, y: 3), Point(x: -0.5, y: 500), width: 800, height: 600))
        #expect(PageDetector.isOnFrame(Point(x: 10, y: 599.5), Point(x: 700, y: 599.4), width: 800, height: 600))
        #expect(!PageDetector.isOnFrame(Point(x: 10, y: 590), Point(x: 700, y: 599.5), width: 800, height: 600))
        #expect(!PageDetector.isOnFrame(Point(x: 3, y: 3), Point(x: 40, y: 500), width: 800, height: 600))
    }
}
