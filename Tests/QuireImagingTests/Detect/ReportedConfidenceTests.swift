import Testing

@testable import QuireImaging
@testable import QuirePageAnalysis

/// The confidence reported for a page quad is the fitted verifier's probability that the rules'
/// quad is the page (issue 36), not the rules' line score: `quire detect` and `quire process`
/// both report it through `PageAnalyzer.analyze`.
@Suite struct ReportedConfidenceTests {
    @Test func aQuadIsReportedAtTheVerifiersProbability() throws {
        let copy = PageAnalyzerFrameTests.copy(
            width: 600, height: 800, page: (70, 60, 540, 730), background: PageAnalyzerFrameTests.wood)
        let analysis = PageAnalyzer.analyze(copy)
        #expect(analysis.kind == .photo)
        _ = try #require(analysis.detection.quad)
        let found = PageDetector().pageCandidates(
            pixels: copy.pixels, width: copy.width, height: copy.height, bands: copy.bands)
        let rules = try #require(found.candidates.first { $0.generator == .rules })
        let probability = PageVerifier.fitted.probability(rules.features)
        #expect(abs(analysis.detection.confidence - probability) < 1e-12)
        // Not the rules' own line score, which it replaces.
        #expect(abs(found.rules.confidence - probability) > 1e-6, "\(found.rules.confidence)")
    }

    /// `PageDetector.detect` (the tests' and `Detector.detect(pixels:)`'s entry) is the same one
    /// decision: the same quad at the same confidence as the analysis behind the CLI.
    @Test func detectIsTheOneDecision() throws {
        let copy = PageAnalyzerFrameTests.copy(
            width: 600, height: 800, page: (70, 60, 540, 730), background: PageAnalyzerFrameTests.wood)
        let detector = PageDetector()
        let found = detector.detect(pixels: copy.pixels, width: copy.width, height: copy.height, bands: copy.bands)
        let decided = detector.decide(pixels: copy.pixels, width: copy.width, height: copy.height, bands: copy.bands)
        #expect(found == decided.detection)
        let analysis = PageAnalyzer.analyze(copy)
        #expect(abs(found.confidence - analysis.detection.confidence) < 1e-12)
    }
}
