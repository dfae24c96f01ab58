import Testing

@testable import QuirePageAnalysis

/// A page running off the frame on two sides, with a small card lying across its top edge
/// (issue 36: a book scanner's marker card, four-sided and sharp, was taken for the page). The
/// frame's edges stand in for the page's missing sides, so the page is a candidate; the decision
/// must report the page, or the card at a confidence under 0.75.
@Suite struct FrameSidesTests {
    /// A cream page with lines of text on a dark stand, running off the frame's right and bottom
    /// edges from its corner at `page`, and a white card with a dark printed pattern across its
    /// top edge at `card` (x0, y0, x1, y1).
    static func pageWithCard(width w: Int, height h: Int, page: (x: Int, y: Int), card: (Int, Int, Int, Int))
        -> [UInt8]
    {
        SceneCanvas.paint(width: w, height: h, seed: 3636) { x, y, grain in
            var c = (30 + grain, 30 + grain, 34 + grain)
            if x >= page.x, y >= page.y {
                c = (228 + grain / 2, 222 + grain / 2, 200 + grain / 2)
                if x > page.x + 40, y > page.y + 60, (y - page.y) % 30 < 6, (x / 8) % 6 != 0 {
                    c = (60, 56, 50)  // a line of text, with gaps between words
                }
            }
            if x >= card.0, x < card.2, y >= card.1, y < card.3 {
                // A marker: a white card, a black square on it with white blocks inside.
                let (u, v) = (x - card.0, y - card.1)
                let (cw, ch) = (card.2 - card.0, card.3 - card.1)
                let inSquare = u >= cw / 6 && u < cw * 5 / 6 && v >= ch / 6 && v < ch * 5 / 6
                let block = ((u * 6 / cw) + (v * 6 / ch)) % 3 == 0
                c = inSquare && !block ? (20, 20, 22) : (250, 250, 250)
            }
            return c
        }
    }

    @Test func aCardOnAPageRunningOffTheFrameIsNotTheSurePage() throws {
        let (w, h) = (768, 1024)
        let page = (x: 150, y: 260), card = (330, 170, 560, 400)
        let px = Self.pageWithCard(width: w, height: h, page: page, card: card)
        let sheet = Quad(
            rect: Rect(
                x: Double(page.x) - 0.5, y: Double(page.y) - 0.5, width: Double(w - page.x),
                height: Double(h - page.y)))
        let decided = PageDetector().decide(pixels: px, width: w, height: h, bands: 3).detection
        if let quad = decided.quad, quad.intersectionOverUnion(with: sheet) < CandidateTable.pageIoU {
            #expect(
                decided.confidence < PageVerifier.minimumProbability,
                "quad \(quad) (IoU with the page \(quad.intersectionOverUnion(with: sheet))) at \(decided.confidence)")
        }
        // The page is a candidate: its two detected edges closed by the frame's, the sides the
        // frame cuts lying on the frame's edge (a quad inside them stops short of the page).
        let found = PageDetector().pageCandidates(pixels: px, width: w, height: h, bands: 3)
        let onFrame = CandidateFeatures.names.firstIndex(of: "sides_on_frame")!
        let onPage = found.candidates.filter {
            $0.quad.intersectionOverUnion(with: sheet) >= 0.97 && $0.features[onFrame] == 0.5
        }
        #expect(
            !onPage.isEmpty, "\(found.candidates.map { ($0.generator, $0.quad.intersectionOverUnion(with: sheet)) })")
    }

    /// Clipping the frame by a line keeps the side the line's normal points to.
    @Test func clippingKeepsOneSideOfALine() {
        let square = [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)]
        let right = PageDetector.clip(square, keeping: PageDetector.Line(nx: 1, ny: 0, c: 4))
        #expect(right.count == 4)
        #expect(right.allSatisfy { $0.x >= 4 - 1e-9 })
        let corner = PageDetector.clip(right, keeping: PageDetector.Line(nx: 0, ny: 1, c: 6))
        #expect(corner.count == 4)
        #expect(abs((Quad(corners: corner)?.area ?? 0) - 24) < 1e-9)
    }
}
