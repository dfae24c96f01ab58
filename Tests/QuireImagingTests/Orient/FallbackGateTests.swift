import Testing
@testable import QuireImaging

/// The gate on Tesseract's whole-page fallback (`TesseractOSD.skipsFallback`): after an unsure
/// crop, a page whose line look counted few direction votes (little text) is not read again
/// whole; a page with more text is, and a confident crop never falls back.
@Suite struct FallbackGateTests {
    static func lines(votes: Int) -> LineOrientation.Finding {
        LineOrientation.Finding(rotate: 0, votes: votes, directionShare: 0.55, linePieces: votes / 2, edgeMargin: 0.01)
    }

    @Test func aPageOfLittleTextIsNotReadAgainWhole() {
        #expect(TesseractOSD.fallsBack(OrientationGuess(rotate: 0, confidence: 0)))
        #expect(TesseractOSD.skipsFallback(Self.lines(votes: 0)))
        #expect(TesseractOSD.skipsFallback(Self.lines(votes: TesseractOSD.fallbackVotes - 1)))
        #expect(TesseractOSD.skipsFallback(nil))
    }

    /// The two real photos the fallback turned upright (docs/benchmarks.md) had 414 and 711
    /// votes: pages with that much text are still read whole after an unsure crop.
    @Test func aPageOfMoreTextIsReadAgainWhole() {
        #expect(!TesseractOSD.skipsFallback(Self.lines(votes: TesseractOSD.fallbackVotes)))
        #expect(!TesseractOSD.skipsFallback(Self.lines(votes: 414)))
        #expect(!TesseractOSD.skipsFallback(Self.lines(votes: 711)))
        #expect(!TesseractOSD.fallsBack(OrientationGuess(rotate: 90, confidence: 2, scriptConfidence: 1)))
    }
}
