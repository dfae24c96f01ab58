import Testing

@testable import QuirePageAnalysis

/// A square card lying on a page is not the page (issue 36: a book scanner's marker card, sharp
/// and bright on the page's paper, was reported as the sure page). Paper is cut longer than it is
/// wide; `near_square` lets the verifier weigh a square quad down.
@Suite struct NearSquareTests {
    @Test func squarenessRisesFromPaperShapesToASquare() {
        func nearSquare(width: Double, height: Double) -> Double {
            let quad = Quad(rect: Rect(x: 100, y: 100, width: width, height: height))
            let features = CandidateFeatures.geometry(
                quad, width: 1000, height: 1000, flatFrame: false, isWholeFrame: false)
            return features[CandidateFeatures.names.firstIndex(of: "near_square")!]
        }
        #expect(nearSquare(width: 300, height: 300) == 1)
        #expect(nearSquare(width: 300, height: 310) > 0.7)
        #expect(nearSquare(width: 210, height: 297) == 0)  // A4
        #expect(nearSquare(width: 216, height: 279) == 0)  // letter
        #expect(nearSquare(width: 500, height: 200) == 0)
    }

    /// The fitted model holds a square against a quad: with every other feature at its training
    /// mean, a square reads as less likely the page than a sheet of paper's shape.
    @Test func theFittedModelWeighsSquarenessAgainstAPage() throws {
        let column = CandidateFeatures.names.firstIndex(of: "near_square")!
        try #require(PageVerifier.fittedFeatureNames.contains("near_square"))
        var square = PageVerifier.fitted.means, sheet = PageVerifier.fitted.means
        square[column] = 1
        sheet[column] = 0
        #expect(PageVerifier.fitted.logOdds(square) < PageVerifier.fitted.logOdds(sheet))
    }

    /// A page running off the frame on two sides with a square marker card lying on its printed
    /// paper, well inside it: the rules take the card. The decision must be the page, or the card
    /// at a confidence under 0.75.
    @Test func aSquareCardOnAPageIsNotTheSurePage() {
        let (w, h) = (768, 1024)
        let page = (x: 120, y: 140), card = (330, 420, 560, 650)
        let px = FrameSidesTests.pageWithCard(width: w, height: h, page: page, card: card)
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
    }
}
