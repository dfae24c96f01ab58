import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// The second cheap reading (`TesseractOSD.upDownGuess`): when the line look is sure of the
/// axis but its edge margin is under its own bar, leptonica's up-or-down reading answers the
/// page when it agrees with the margin's side, clearly; otherwise Tesseract is left to answer.
@Suite struct UpDownGuessTests {
    /// The look's finding on the generated text page turned `turns` quarter turns, with its
    /// edge margin set to `margin` on the same side (or the other, `sameSide` false), and the
    /// grey copy it was read on.
    static func look(turns: Int, margin: Double, sameSide: Bool = true) throws
        -> (found: LineOrientation.Finding, look: (gray: [UInt8], width: Int, height: Int))
    {
        let page = try LineOrientationTests.textPage().rotated(quarterTurns: turns).materialized()
        let look = try PageCorrector.gray(page, longSide: TextPresence.longSide)
        var found = try #require(LineOrientation.find(gray: look.gray, width: look.width, height: look.height))
        let side: Double = (found.edgeMargin >= 0) == sameSide ? 1 : -1
        found.edgeMargin = side * margin
        return (found, look)
    }

    /// A margin between the agreeing bar and the look's own: the look alone is not sure, the
    /// two readings together answer, and sure enough to turn the page.
    static let unsureMargin = (TesseractOSD.minimumAgreeingMargin + LineOrientation.minimumEdgeMargin) / 2

    @Test(arguments: 0..<4) func anAgreeingReadingAnswersWhatTheLookAloneCannot(_ turns: Int) throws {
        let (found, look) = try Self.look(turns: turns, margin: Self.unsureMargin)
        #expect(found.isAxisSure && !found.isSure, "\(found)")
        let guess = try #require(TesseractOSD.upDownGuess(found, look), "\(found)")
        #expect(guess.rotate == LineOrientationTests.needed(turns), "\(guess)")
        #expect(guess.scriptConfidence == nil)
        #expect(turns == 0 || OrientationPolicy.turns(guess), "\(guess)")
    }

    @Test(arguments: 0..<4) func aDisagreeingOrFaintMarginIsLeftToTesseract(_ turns: Int) throws {
        // The margin says the other way up: the look's turn is the wrong one, leptonica disagrees.
        var (found, look) = try Self.look(turns: turns, margin: Self.unsureMargin, sameSide: false)
        found.rotate = (LineOrientationTests.needed(turns) + 180) % 360
        #expect(TesseractOSD.upDownGuess(found, look) == nil, "\(found)")
        // A margin under the agreeing bar.
        (found, look) = try Self.look(turns: turns, margin: TesseractOSD.minimumAgreeingMargin / 2)
        #expect(TesseractOSD.upDownGuess(found, look) == nil, "\(found)")
        // Not sure of the axis.
        (found, look) = try Self.look(turns: turns, margin: Self.unsureMargin)
        found.directionShare = (0.5 + LineOrientation.minimumDirectionShare) / 2
        #expect(TesseractOSD.upDownGuess(found, look) == nil, "\(found)")
    }

    /// On a straightened scan (`TesseractOSD.scanUpDownGuess`), leptonica's reading wins against
    /// an edge side that clearly says the other end of the axis (as on a two-page spread), and
    /// answers at the right turn, sure enough to turn the page.
    @Test(arguments: 0..<4) func onAScanLeptonicaWinsAgainstAClearlyWrongEdgeSide(_ turns: Int) throws {
        var (found, look) = try Self.look(turns: turns, margin: Self.unsureMargin, sameSide: false)
        found.rotate = (LineOrientationTests.needed(turns) + 180) % 360
        let upDown = try #require(TesseractOSD.upDown(found, look))
        #expect(abs(upDown) >= TesseractOSD.minimumScanUpDown, "\(upDown)")
        let guess = try #require(TesseractOSD.scanUpDownGuess(found, look), "\(found)")
        #expect(guess.rotate == LineOrientationTests.needed(turns), "\(guess)")
        #expect(turns == 0 || OrientationPolicy.turns(guess), "\(guess)")
    }

    @Test(arguments: 0..<4) func onAScanAnAgreeingFaintOrAxislessReadingIsNotLeptonicasAlone(_ turns: Int) throws {
        // Agreeing with the edge side: `upDownGuess`'s case, not this one.
        var (found, look) = try Self.look(turns: turns, margin: Self.unsureMargin)
        #expect(TesseractOSD.scanUpDownGuess(found, look) == nil, "\(found)")
        // An edge side under the agreeing bar says nothing clearly: Tesseract is asked.
        (found, look) = try Self.look(turns: turns, margin: TesseractOSD.minimumAgreeingMargin / 2, sameSide: false)
        found.rotate = (LineOrientationTests.needed(turns) + 180) % 360
        #expect(TesseractOSD.scanUpDownGuess(found, look) == nil, "\(found)")
        // Not sure of the axis.
        (found, look) = try Self.look(turns: turns, margin: Self.unsureMargin, sameSide: false)
        found.rotate = (LineOrientationTests.needed(turns) + 180) % 360
        found.directionShare = (0.5 + LineOrientation.minimumDirectionShare) / 2
        #expect(TesseractOSD.scanUpDownGuess(found, look) == nil, "\(found)")
    }

    /// One page's leptonica reading is made once however many steps ask it (`UpDownOnce`), and
    /// the guesses ask it only past their cheap tests: a look unsure of the axis asks nothing.
    @Test func leptonicasReadingIsMadeOnceAndOnlyWhenAsked() throws {
        var (found, look) = try Self.look(turns: 1, margin: Self.unsureMargin)
        var reads = 0
        let once = TesseractOSD.UpDownOnce {
            reads += 1
            return TesseractOSD.upDown(found, look)
        }
        let guess = TesseractOSD.upDownGuess(found, upDown: once.callAsFunction)
        #expect(guess == TesseractOSD.upDownGuess(found, look))
        #expect(TesseractOSD.scanUpDownGuess(found, upDown: once.callAsFunction) == nil)
        #expect(once() == TesseractOSD.upDown(found, look))
        #expect(reads == 1)
        found.directionShare = (0.5 + LineOrientation.minimumDirectionShare) / 2
        var asked = 0
        let counted = { () -> Double? in
            asked += 1
            return 100
        }
        #expect(TesseractOSD.upDownGuess(found, upDown: counted) == nil)
        #expect(TesseractOSD.scanUpDownGuess(found, upDown: counted) == nil)
        #expect(asked == 0)
    }

    /// When leptonica says nothing (a reading of 0, or none), a clear edge side alone answers
    /// (`TesseractOSD.unopposedGuess`), sure enough to turn the page; any leptonica reading, a
    /// margin under the bar or a look unsure of the axis leaves the page to Tesseract.
    @Test(arguments: 0..<4) func aClearEdgeSideUnopposedByLeptonicaAnswers(_ turns: Int) throws {
        var (found, _) = try Self.look(turns: turns, margin: TesseractOSD.minimumUnopposedMargin)
        #expect(found.isAxisSure && !found.isSure, "\(found)")
        for silent in [0.0, nil] as [Double?] {
            let guess = try #require(TesseractOSD.unopposedGuess(found, upDown: { silent }), "\(found)")
            #expect(guess.rotate == LineOrientationTests.needed(turns), "\(guess)")
            #expect(turns == 0 || OrientationPolicy.turns(guess), "\(guess)")
        }
        for reading in [-1.0, 1.0] {
            #expect(TesseractOSD.unopposedGuess(found, upDown: { reading }) == nil, "\(reading)")
        }
        found.edgeMargin = (found.edgeMargin >= 0 ? 1 : -1) * TesseractOSD.minimumUnopposedMargin * 0.9
        #expect(TesseractOSD.unopposedGuess(found, upDown: { 0 }) == nil, "\(found)")
        found.edgeMargin = TesseractOSD.minimumUnopposedMargin
        found.directionShare = (0.5 + LineOrientation.minimumDirectionShare) / 2
        #expect(TesseractOSD.unopposedGuess(found, upDown: { 0 }) == nil, "\(found)")
    }
}
