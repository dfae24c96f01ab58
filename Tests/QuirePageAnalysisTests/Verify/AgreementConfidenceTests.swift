import Testing

@testable import QuirePageAnalysis

/// The rules' quad is reported sure only when the verifier's own most probable quad agrees with it
/// (issue 36: held-out book pages were sure at IoU 0.85 while the verifier's best was the page).
@Suite struct AgreementConfidenceTests {
    /// A one-feature model: the probability rises with the feature.
    let verifier = PageVerifier(weights: [0, 1], means: [0], scales: [1])

    /// The rules' candidate (first) at 0.95, another quad at 0.98 overlapping it by IoU 0.86:
    /// the model's best disagrees, so the confidence is capped under "sure".
    @Test func aDisagreeingBestQuadCapsTheConfidence() {
        let features: [[Double]] = [[3], [4], [-2]]
        let p = verifier.probability(features[0])
        #expect(p >= PageVerifier.minimumProbability)
        let capped = verifier.agreed(
            p, features: features, iouWithRules: [1, 0.86, 0.4], isWholeFrame: [false, false, true])
        #expect(capped == PageVerifier.disagreementCap)
        #expect(capped < PageVerifier.minimumProbability)
    }

    /// When the best quad is the rules' own, or one within IoU 0.9 of it, the probability stands;
    /// the whole frame scoring best does not count as disagreement.
    @Test func anAgreeingBestQuadKeepsTheConfidence() {
        let p = verifier.probability([3])
        let own = verifier.agreed(
            p, features: [[3], [1], [5]], iouWithRules: [1, 0.5, 0.3], isWholeFrame: [false, false, true])
        #expect(own == p)
        let near = verifier.agreed(p, features: [[3], [4]], iouWithRules: [1, 0.93], isWholeFrame: [false, false])
        #expect(near == p)
    }

    /// A probability already under the cap is not raised.
    @Test func theCapNeverRaisesAConfidence() {
        let low = verifier.agreed(0.2, features: [[0], [4]], iouWithRules: [1, 0.1], isWholeFrame: [false, false])
        #expect(low == 0.2)
    }
}
