import Testing

@testable import QuirePageAnalysis

/// A square card lying on a page is not the page (issue 36: a book scanner's marker card, sharp
/// and bright on the page's paper, was reported as the sure page). Paper is cut longer than it is
/// wide; `near_square` lets the verifier weigh a square quad down. (A synthetic scene where the
/// rules take a square card at >= 0.75 is still wanted: the ones tried keep no quad at all.)
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

    /// Every candidate measured in full carries the feature, as the cheap ranking does.
    @Test func everyMeasuredCandidateCarriesItsSquareness() {
        let px = FrameSidesTests.pageWithCard(
            width: 768, height: 1024, page: (x: 150, y: 260), card: (330, 170, 560, 400))
        let found = PageDetector().pageCandidates(pixels: px, width: 768, height: 1024, bands: 3)
        let aspect = CandidateFeatures.names.firstIndex(of: "log_aspect")!
        let square = CandidateFeatures.names.firstIndex(of: "near_square")!
        #expect(!found.candidates.isEmpty)
        for candidate in found.candidates {
            #expect(candidate.features.count == CandidateFeatures.names.count)
            if candidate.features.count == CandidateFeatures.names.count {
                #expect(candidate.features[square] == CandidateFeatures.nearSquare(candidate.features[aspect]))
            }
        }
    }
}
