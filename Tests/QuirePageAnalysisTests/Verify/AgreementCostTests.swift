import Testing

@testable import QuirePageAnalysis

/// The agreement check (issue 36) measures each candidate once and only the few the cheap score
/// ranks first, and reaches the same confidence as weighing every candidate measured in full.
@Suite struct AgreementCostTests {
    /// A cream sheet with lines of text and a dark printed box on it, wholly inside a dark desk.
    static func sheetOnDesk(width w: Int, height h: Int) -> [UInt8] {
        SceneCanvas.paint(width: w, height: h, seed: 36) { x, y, grain in
            var c = (50 + grain, 44 + grain, 38 + grain)
            if x >= 90, x < w - 80, y >= 70, y < h - 90 {
                c = (234 + grain / 2, 230 + grain / 2, 218 + grain / 2)
                let box = x >= 200 && x < 420 && y >= 300 && y < 520
                let rule = box && (x < 206 || x >= 414 || y < 306 || y >= 514)
                if rule || (!box && x > 130 && x < w - 120 && y > 110 && (y - 110) % 28 < 5 && (x / 9) % 7 != 0) {
                    c = (55, 55, 62)
                }
            }
            return c
        }
    }

    @Test func eachCandidateIsMeasuredOnceAndTheConfidenceIsTheFullChecks() throws {
        let (w, h) = (640, 860)
        let px = Self.sheetOnDesk(width: w, height: h)
        let detector = PageDetector()
        let traced = detector.decideTraced(pixels: px, width: w, height: h, bands: 3)
        let found = detector.pageCandidates(pixels: px, width: w, height: h, bands: 3)
        let rules = try #require(found.candidates.first { $0.generator == .rules })
        let p = PageVerifier.fitted.probability(rules.features)
        // The sheet is sure by the model, so the agreement check runs.
        try #require(p >= PageVerifier.minimumProbability, "\(p)")
        let measured = traced.measured
        #expect(measured.count >= 2 && measured.count <= 1 + PageDetector.agreementCandidates, "\(measured.count)")
        #expect(measured.count < found.candidates.count - 1, "\(measured.count) of \(found.candidates.count)")
        for i in measured.indices {
            for j in measured.indices where j > i {
                #expect(measured[i].worstCornerDistance(to: measured[j]) > 0, "candidate \(j) measured twice")
            }
        }
        // The same confidence as the check over every candidate, measured in full.
        let quad = try #require(found.rules.quad?.readingOrdered())
        let full = PageVerifier.fitted.agreed(
            p, features: found.candidates.map(\.features),
            iouWithRules: found.candidates.map { $0.quad.intersectionOverUnion(with: quad) },
            isWholeFrame: found.candidates.map { $0.generator == .wholeFrame })
        #expect(traced.detection.confidence == full)
    }
}
