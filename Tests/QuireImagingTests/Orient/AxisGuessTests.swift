import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// When the line look is sure whether the lines run across or down but not which way up,
/// Tesseract reads a short crop (`TesseractOSD.axisCropCharacters`) and only its reading along
/// the look's axis can turn the page (`TesseractOSD.axisGuess`), at a lower bar than a reading
/// on its own: the look had the axis right on every real page it was sure of.
@Suite struct AxisGuessTests {
    /// A finding sure of the axis only, whose turn is `rotate` (0 or 180: lines across).
    static func axisSure(rotate: Int) -> LineOrientation.Finding {
        LineOrientation.Finding(
            rotate: rotate, votes: 500, directionShare: 0.9, linePieces: 400,
            edgeMargin: LineOrientation.minimumEdgeMargin / 3)
    }

    @Test(arguments: [0, 90, 180, 270]) func aReadingAlongTheAxisAtTheBarTurnsThePage(_ rotate: Int) {
        let found = Self.axisSure(rotate: (rotate + 180) % 360)  // the look had up and down the wrong way
        #expect(found.isAxisSure && !found.isSure)
        let crop = OrientationGuess(
            rotate: rotate, confidence: TesseractOSD.minimumAxisConfidence, scriptConfidence: 2)
        let guess = TesseractOSD.axisGuess(found, crop)
        #expect(guess.rotate == rotate)
        #expect(OrientationPolicy.turns(guess) == (rotate != 0), "\(guess)")
        // Under the policy's own bar (2), so the crop alone would not have turned the page.
        #expect(TesseractOSD.minimumAxisConfidence < OrientationPolicy.minimumConfidence)
    }

    @Test func aConfidentReadingAcrossTheAxisDoesNotTurnThePage() {
        // The look: lines across (0 or 180); Tesseract says a quarter turn, confidently. Taken
        // alone that turns the page (the policy's bar and a script read).
        let crop = OrientationGuess(rotate: 90, confidence: 5, scriptConfidence: 3)
        #expect(OrientationPolicy.turns(crop))
        let guess = TesseractOSD.axisGuess(Self.axisSure(rotate: 0), crop)
        #expect(!OrientationPolicy.turns(guess) && guess.confidence == 0, "\(guess)")
    }

    @Test func aWeakOrScriptlessReadingKeepsThePage() {
        let found = Self.axisSure(rotate: 0)
        let weak = OrientationGuess(
            rotate: 180, confidence: TesseractOSD.minimumAxisConfidence * 0.9, scriptConfidence: 5)
        #expect(!OrientationPolicy.turns(TesseractOSD.axisGuess(found, weak)))
        // Handwriting: no script read, so a guess under the sure confidence turns nothing.
        let handwriting = OrientationGuess(
            rotate: 180, confidence: TesseractOSD.minimumAxisConfidence * 2, scriptConfidence: 0.4)
        #expect(!OrientationPolicy.turns(TesseractOSD.axisGuess(found, handwriting)))
    }

    @Test(arguments: [0, 90, 180, 270]) func aWeakReadingBothCheapReadingsContradictKeepsThePage(_ side: Int) {
        // The look's edge side says `side` (edge margin positive in its frame), leptonica agrees;
        // Tesseract's short reading says the other end of the axis, clearly over its own bar.
        // Alone it would turn the page (a receipt of the real photos turned the wrong way so).
        let found = Self.axisSure(rotate: side)
        let other = (side + 180) % 360
        let crop = OrientationGuess(
            rotate: other, confidence: TesseractOSD.minimumContestedAxisConfidence * 0.9, scriptConfidence: 4)
        #expect(OrientationPolicy.turns(TesseractOSD.axisGuess(found, crop)) == (other != 0))
        let contested = TesseractOSD.axisGuess(found, crop) { 3 }
        #expect(!OrientationPolicy.turns(contested), "\(contested)")
        #expect(other == 0 || contested.confidence == crop.confidence)
        // Leptonica silent (nil or 0), or on Tesseract's side: the short reading decides as before.
        for upDown in [nil, 0, -3] as [Double?] {
            #expect(TesseractOSD.axisGuess(found, crop) { upDown } == TesseractOSD.axisGuess(found, crop))
        }
        // Tesseract confident enough: it turns the page against both.
        let sure = OrientationGuess(
            rotate: other, confidence: TesseractOSD.minimumContestedAxisConfidence, scriptConfidence: 4)
        #expect(OrientationPolicy.turns(TesseractOSD.axisGuess(found, sure) { 3 }) == (other != 0))
    }

    /// A turn the short reading would take that one cheap reading contradicts (the look's edge
    /// side, or leptonica's sign) is doubted (`TesseractOSD.isDoubted`) and stands only when the
    /// same window, read on, turns the same way at least as confidently (`readOnGuess`): a receipt
    /// of the real photos turned upright upside down on a reading that weakened as it read on.
    @Test(arguments: [0, 90, 180, 270]) func aDoubtedTurnStandsOnlyWhenReadingOnKeepsIt(_ side: Int) {
        let other = (side + 180) % 360
        let crop = OrientationGuess(rotate: other, confidence: 1, scriptConfidence: 2)
        // The look's edge side says `side`: doubted whatever leptonica says.
        let against = Self.axisSure(rotate: side)
        #expect(TesseractOSD.isDoubted(against, crop) { nil })
        // The look agrees with the reading; leptonica's sign says `side`, or nothing.
        let along = Self.axisSure(rotate: other)
        let lepSaysSide = side == side % 180 ? 3.0 : -3.0
        #expect(TesseractOSD.isDoubted(along, crop) { lepSaysSide })
        #expect(!TesseractOSD.isDoubted(along, crop) { -lepSaysSide })
        #expect(!TesseractOSD.isDoubted(along, crop) { 0 })
        #expect(!TesseractOSD.isDoubted(along, crop) { nil })
        // A reading at the contested bar is not doubted: it turns the page against both.
        let firm = OrientationGuess(
            rotate: other, confidence: TesseractOSD.minimumContestedAxisConfidence, scriptConfidence: 2)
        #expect(!TesseractOSD.isDoubted(against, firm) { lepSaysSide })

        let guess = TesseractOSD.axisGuess(along, crop)
        #expect(OrientationPolicy.turns(guess) == (other != 0))
        func readOn(_ rotate: Int, _ share: Double) -> OrientationGuess {
            OrientationGuess(
                rotate: rotate, confidence: crop.confidence * share * TesseractOSD.minimumReadOnShare,
                scriptConfidence: 2)
        }
        #expect(TesseractOSD.readOnGuess(crop, guess: guess, readOn: readOn(other, 1)) == guess)
        for weaker in [readOn(other, 0.8), readOn(side, 3), readOn((other + 90) % 360, 3), nil] {
            let kept = TesseractOSD.readOnGuess(crop, guess: guess, readOn: weaker)
            #expect(!OrientationPolicy.turns(kept), "\(kept)")
        }
        // A kept page stays under the policy's bar even when the read-on reading is over it.
        let strong = OrientationGuess(rotate: other, confidence: 4, scriptConfidence: 2)
        let kept = TesseractOSD.readOnGuess(
            strong, guess: guess, readOn: OrientationGuess(rotate: other, confidence: 3, scriptConfidence: 2))
        #expect(!OrientationPolicy.turns(kept), "\(kept)")
    }

    /// A page with many lines whose short reading is too unsure to turn it has a second crop read
    /// (`TesseractOSD.readsAxisAgain`), and that reading along the look's axis at its bar turns
    /// the page (`againGuess`); too few lines, lines that barely agree on their direction, a short
    /// reading already sure, a reading across the axis or without a script change nothing.
    @Test(arguments: [90, 180, 270]) func aSecondCropTurnsAnUnsurePageWithManyLines(_ rotate: Int) {
        func found(votes: Int, share: Double = 0.9) -> LineOrientation.Finding {
            LineOrientation.Finding(
                rotate: rotate, votes: votes, directionShare: share, linePieces: 400,
                edgeMargin: LineOrientation.minimumEdgeMargin / 3)
        }
        let many = found(votes: TesseractOSD.minimumAgainVotes)
        let unsure = OrientationGuess(
            rotate: rotate, confidence: TesseractOSD.minimumAxisConfidence * 0.6, scriptConfidence: 2)
        #expect(!OrientationPolicy.turns(TesseractOSD.axisGuess(many, unsure)))
        #expect(TesseractOSD.readsAxisAgain(many, unsure))
        #expect(!TesseractOSD.readsAxisAgain(found(votes: TesseractOSD.minimumAgainVotes - 1), unsure))
        // Lines that barely agree on their direction (still sure of the axis): no second crop.
        let scribbled = found(votes: TesseractOSD.minimumAgainVotes * 3, share: TesseractOSD.minimumAgainShare - 0.01)
        #expect(scribbled.isAxisSure)
        #expect(!TesseractOSD.readsAxisAgain(scribbled, unsure))
        #expect(TesseractOSD.readsAxisAgain(found(votes: 1000, share: TesseractOSD.minimumAgainShare), unsure))
        let across = OrientationGuess(rotate: (rotate + 90) % 360, confidence: 3, scriptConfidence: 2)
        #expect(TesseractOSD.readsAxisAgain(many, across))
        let sure = OrientationGuess(
            rotate: rotate, confidence: TesseractOSD.minimumAxisConfidence, scriptConfidence: 2)
        #expect(!TesseractOSD.readsAxisAgain(many, sure))
        // A short reading that found too few characters: the second window holds fewer.
        let nothing = OrientationGuess(rotate: 0, confidence: 0)
        #expect(TesseractOSD.readNothing(nothing))
        #expect(!TesseractOSD.readsAxisAgain(many, nothing))
        #expect(TesseractOSD.readsAxisAgain(many, OrientationGuess(rotate: 0, confidence: 0, scriptConfidence: 0)))

        let again = OrientationGuess(
            rotate: rotate, confidence: TesseractOSD.minimumAgainConfidence, scriptConfidence: 2)
        let turned = TesseractOSD.againGuess(many, again)
        #expect(turned.map(OrientationPolicy.turns) == true, "\(String(describing: turned))")
        #expect(turned?.rotate == rotate)
        let acrossAgain = OrientationGuess(rotate: (rotate + 90) % 360, confidence: 5, scriptConfidence: 2)
        #expect(TesseractOSD.againGuess(many, acrossAgain) == nil)
        #expect(TesseractOSD.againGuess(many, OrientationGuess(rotate: 0, confidence: 5, scriptConfidence: 2)) == nil)
        let handwriting = OrientationGuess(
            rotate: rotate, confidence: TesseractOSD.minimumAgainConfidence * 2, scriptConfidence: 0.4)
        #expect(TesseractOSD.againGuess(many, handwriting).map(OrientationPolicy.turns) == false)
    }

    /// A synthetic page of text: ten upright lines close together at the top and, after a gap,
    /// eight upside-down lines further apart. The look is sure the lines run across (or down,
    /// turned) but its up/down evidence nearly cancels, so Tesseract's short crop of the densest
    /// block (the upright one) answers, along the look's axis.
    static func mixedPage() throws -> VIPSImage {
        let sentences = LineOrientationTests.sentences
        var layers: [(image: VIPSImage, x: Int, y: Int)] = []
        for i in 0..<10 {
            let line = try VIPSImage.text(sentences[i % sentences.count], font: "serif 11", dpi: 200)
            layers.append((line, 80, 80 + i * 50))
        }
        for i in 0..<8 {
            let line = try VIPSImage.text(sentences[(i + 3) % sentences.count], font: "serif 11", dpi: 200)
            layers.append((try line.rotated(quarterTurns: 2), 80, 1300 + i * 90))
        }
        return try VIPSImage.solid(width: 1700, height: 2100, color: [255, 255, 255]).rgba().compositing(layers)
            .flattened(onto: [255, 255, 255]).extractBands(1).materialized()
    }

    @Test(arguments: 0..<4) func aPageWhoseLookIsSureOfTheAxisOnlyComesOutUpright(_ turns: Int) throws {
        guard let osd = TesseractOSD.installed else { return }
        let page = try Self.mixedPage().rotated(quarterTurns: turns).materialized()
        let found = try #require(try LineOrientationTests.finding(page))
        #expect(found.isAxisSure && !found.isSure, "\(found)")
        let guess = try #require(try osd.guess(page))
        #expect(guess.rotate == LineOrientationTests.needed(turns), "\(guess)")
        #expect(turns == 0 || OrientationPolicy.turns(guess), "\(guess)")
    }

    @Test func aBlankPageIsNotAsked() throws {
        guard let osd = TesseractOSD.installed else { return }
        let blank = try VIPSImage.solid(width: 1700, height: 1100, color: [250]).materialized()
        #expect(try osd.guess(blank) == OrientationGuess(rotate: 0, confidence: 0))
    }
}
