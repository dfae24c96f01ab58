import Testing

@testable import QuirePageAnalysis

/// `text_line_side` and `solid_ink` (issue 36, branch t-verify): a quad closed by a line of text,
/// with the page's paper on both sides of that side, and a quad holding a solid dark area (a
/// marker card's code), are print on the page rather than the page.
@Suite struct TextLineFeaturesTests {
    /// A cream page with lines of text (every 30 rows, 8 rows high, gaps between words) on a dark
    /// desk, from (`page`, `page`) to 40 pixels short of the frame's right and bottom edges.
    static func pageOfText(width w: Int, height h: Int, page: Int) -> [UInt8] {
        SceneCanvas.paint(width: w, height: h, seed: 3637) { x, y, grain in
            guard x >= page, y >= page, x < w - 40, y < h - 40 else { return (30 + grain, 30 + grain, 34 + grain) }
            if x > page + 50, x < w - 90, y > page + 60, y < h - 100, (y - page) % 30 < 8, (x / 8) % 6 != 0 {
                return (60, 56, 50)
            }
            return (228 + grain / 2, 222 + grain / 2, 200 + grain / 2)
        }
    }

    static func features(_ quad: Quad, _ px: [UInt8], width: Int, height: Int) -> [Double] {
        px.withUnsafeBufferPointer {
            CandidateFeatures.measure(
                quad, generator: .edgeLines, lineScoreShare: 0, pixels: $0, width: width, height: height, bands: 3,
                work: nil, scale: 1, flatFrame: false, grid: nil)
        }
    }

    @Test func aSideOnALineOfTextIsPrintNotTheSheetsEdge() {
        let (w, h, page) = (600, 800, 60)
        let px = Self.pageOfText(width: w, height: h, page: page)
        let column = CandidateFeatures.textLineColumn
        // The sheet: the desk beyond every side.
        let sheet = Quad(rect: Rect(x: 59.5, y: 59.5, width: Double(w - 40 - page), height: Double(h - 40 - page)))
        #expect(Self.features(sheet, px, width: w, height: h)[column] == 0)
        // The same sheet cut at the foot of the third line of text: that side has paper on both
        // sides and rows of ink along it.
        let cut = Quad(rect: Rect(x: 59.5, y: 59.5 + 128, width: Double(w - 40 - page), height: Double(h - 228 - page)))
        #expect(Self.features(cut, px, width: w, height: h)[column] >= 0.5)
    }

    @Test func aSolidDarkAreaIsNotText() {
        let (w, h) = (768, 1024)
        let card = (330, 170, 560, 400)
        let px = FrameSidesTests.pageWithCard(width: w, height: h, page: (x: 150, y: 260), card: card)
        let column = CandidateFeatures.solidInkColumn
        let onCard = Quad(rect: Rect(x: 329.5, y: 169.5, width: 230, height: 230))
        #expect(Self.features(onCard, px, width: w, height: h)[column] >= 0.05)
        // The page's text below the card: thin strokes only.
        let text = Quad(rect: Rect(x: 149.5, y: 459.5, width: 618, height: 564))
        #expect(Self.features(text, px, width: w, height: h)[column] == 0)
    }

    /// The fitted model holds both against a quad: with every other feature at its training mean,
    /// a quad with a side on a line of text, or full of solid ink, reads as less likely the page.
    @Test func theFittedModelWeighsPrintAgainstAPage() throws {
        for name in ["text_line_side", "solid_ink"] {
            let column = try #require(CandidateFeatures.names.firstIndex(of: name))
            try #require(PageVerifier.fittedFeatureNames.contains(name))
            var print = PageVerifier.fitted.means, page = PageVerifier.fitted.means
            print[column] = 1
            page[column] = 0
            #expect(PageVerifier.fitted.logOdds(print) < PageVerifier.fitted.logOdds(page))
        }
    }
}
