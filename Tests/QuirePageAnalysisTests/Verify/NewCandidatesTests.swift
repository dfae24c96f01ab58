import Testing

@testable import QuirePageAnalysis

/// The candidates that are not the rules' own (issue 36, section 2): the bright paper region's
/// quad, and a side running off the frame moved onto a fold or glass edge inside it.
@Suite struct NewCandidatesTests {
    /// RGB pixels: `ground` with a little grain, and inside `quad` (convex, clockwise) `paper`.
    static func picture(
        width w: Int, height h: Int, ground: (Int, Int, Int), paper: (Int, Int, Int), quad: [Point]
    ) -> [UInt8] {
        SceneCanvas.paint(width: w, height: h, seed: 36, grainBits: 3) { x, y, grain in
            let p = Point(x: Double(x), y: Double(y))
            let inside = (0..<4).allSatisfy { i in
                let a = quad[i], b = quad[(i + 1) % 4]
                return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) >= 0
            }
            let c = inside ? paper : ground
            return (c.0 + grain, c.1 + grain, c.2 + grain)
        }
    }

    static let tilted = [Point(x: 150, y: 90), Point(x: 610, y: 130), Point(x: 570, y: 540), Point(x: 110, y: 500)]

    @Test func aWhiteSheetOnADarkDeskIsItsPaperRegion() throws {
        let (w, h) = (800, 600)
        let px = Self.picture(width: w, height: h, ground: (70, 50, 35), paper: (225, 222, 215), quad: Self.tilted)
        let found = try #require(
            px.withUnsafeBufferPointer { PaperRegion.quad(pixels: $0, width: w, height: h, bands: 3) })
        let truth = try #require(Quad(corners: Self.tilted))
        #expect(found.intersectionOverUnion(with: truth) >= 0.95, "\(found)")
    }

    @Test func aColouredSheetOrAnEmptyFrameHasNoPaperRegion() {
        let (w, h) = (800, 600)
        let red = Self.picture(width: w, height: h, ground: (40, 40, 40), paper: (200, 40, 40), quad: Self.tilted)
        #expect(red.withUnsafeBufferPointer { PaperRegion.quad(pixels: $0, width: w, height: h, bands: 3) } == nil)
        let flat = Self.picture(width: w, height: h, ground: (128, 128, 128), paper: (128, 128, 128), quad: Self.tilted)
        #expect(flat.withUnsafeBufferPointer { PaperRegion.quad(pixels: $0, width: w, height: h, bands: 3) } == nil)
    }

    /// A page on a book scanner: the page ends at the platen's apex (y = 430), where the facing
    /// page's reflection, nearly as bright, runs on to the frame's bottom. A quad running on to
    /// the frame is moved onto the apex, and the apex's support is reported.
    @Test func aSideRunningOverTheGlassIsMovedOntoTheApex() throws {
        let (w, h) = (800, 600)
        var px = Self.picture(
            width: w, height: h, ground: (30, 30, 30), paper: (225, 220, 205),
            quad: [Point(x: 100, y: 80), Point(x: 700, y: 80), Point(x: 700, y: 430), Point(x: 100, y: 430)])
        for y in 430..<h {
            for x in 100..<700 {
                let o = (y * w + x) * 3
                (px[o], px[o + 1], px[o + 2]) = (150, 146, 138)
            }
        }
        let runsOn = try #require(
            Quad(corners: [Point(x: 100, y: 80), Point(x: 700, y: 80), Point(x: 700, y: 599.5), Point(x: 100, y: 599.5)]
            ))
        var work = WorkImage(pixels: px, width: w, height: h, bands: 3, factor: 2)
        work.blur()
        work.computeGradient()
        let apex = PageDetector.Line(nx: 0, ny: 1, c: 430)
        let across = PageDetector.Line(nx: 1, ny: 0, c: 400)
        let found = try #require(
            PageDetector.glassEdge(of: runsOn, lines: [across, apex], work: work, scale: 2, width: w, height: h))
        let page = try #require(Quad(rect: Rect(x: 100, y: 80, width: 600, height: 350)) as Quad?)
        #expect(found.quad.intersectionOverUnion(with: page) >= 0.98, "\(found.quad)")
        #expect(found.support >= PageDetector.glassSupport, "\(found.support)")
        // The page itself has no side on the frame: nothing to move.
        #expect(PageDetector.glassEdge(of: page, lines: [apex], work: work, scale: 2, width: w, height: h) == nil)
    }

    /// `glass_side` counts a glass edge only when moving the side onto it changes the quad: a
    /// sheet's own edge a hair inside a side run onto the frame (depth 0.04 of the quad) leaves
    /// the candidate the page either way, while an apex well inside (0.33) makes it the wrong quad;
    /// when the quad's sides on the frame are mostly paper even the edge a hair inside counts.
    @Test func aGlassEdgeAHairInsideTheSideDoesNotCount() throws {
        let (w, h) = (800, 600)
        let runsOn = try #require(
            Quad(corners: [Point(x: 100, y: 80), Point(x: 700, y: 80), Point(x: 700, y: 599.5), Point(x: 100, y: 599.5)]
            ))
        for (edge, counts) in [(579, false), (430, true)] {
            var px = Self.picture(
                width: w, height: h, ground: (30, 30, 30), paper: (225, 220, 205),
                quad: [Point(x: 100, y: 80), Point(x: 700, y: 80), Point(x: 700, y: 599.5), Point(x: 100, y: 599.5)])
            for y in edge..<h {
                for x in 100..<700 {
                    let o = (y * w + x) * 3
                    (px[o], px[o + 1], px[o + 2]) = (150, 146, 138)
                }
            }
            var work = WorkImage(pixels: px, width: w, height: h, bands: 3, factor: 2)
            work.blur()
            work.computeGradient()
            let line = [PageDetector.Line(nx: 0, ny: 1, c: Double(edge))]
            let found = try #require(
                PageDetector.glassEdge(of: runsOn, lines: line, work: work, scale: 2, width: w, height: h))
            #expect(found.support >= PageDetector.glassSupport, "\(edge): \(found.support)")
            let side = PageDetector.glassSide(of: runsOn, lines: line, work: work, scale: 2, width: w, height: h)
            #expect(counts ? side == found.support : side == 0, "\(edge): \(side)")
            // With paper along its sides on the frame the page runs off the frame there, so even
            // an edge a hair inside counts against the quad.
            let onPaper = PageDetector.glassSide(
                of: runsOn, lines: line, work: work, scale: 2, width: w, height: h, framePaper: 0.75)
            #expect(onPaper == found.support, "\(edge) with paper on the frame: \(onPaper)")
        }
    }
}
