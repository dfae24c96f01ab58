import Testing

@testable import QuirePageAnalysis

/// A saturated figure printed on a sheet is printed matter, not the page (issue 36: a confident
/// wrong page is the worst outcome): its four sides are sharper than the sheet's, but paper with
/// print on it continues beyond them. The decision must report the sheet, or the figure at a
/// confidence under 0.75.
@Suite struct PrintedFigureConfidenceTests {
    /// A cream sheet on a dark desk, running off the frame's right and bottom edges (as an open
    /// book's page does), with lines of text and a saturated yellow-and-red figure printed on it.
    static func sheetWithFigure(width w: Int, height h: Int, sheet: (x: Int, y: Int), figure: (Int, Int, Int, Int))
        -> [UInt8]
    {
        SceneCanvas.paint(width: w, height: h, seed: 2026) { x, y, grain in
            var c = (45 + grain, 38 + grain, 32 + grain)
            if x >= sheet.x, y >= sheet.y {
                c = (232 + grain / 2, 228 + grain / 2, 214 + grain / 2)
                let inFigure = x >= figure.0 && x < figure.2 && y >= figure.1 && y < figure.3
                if inFigure {
                    // Yellow above, a red board below, an orange rule around: darker than the paper.
                    let rule = x < figure.0 + 4 || x >= figure.2 - 4 || y < figure.1 + 4 || y >= figure.3 - 4
                    c = rule ? (225, 120, 30) : y > (figure.1 + figure.3) / 2 ? (170, 50, 40) : (205, 165, 70)
                } else if x > sheet.x + 50, x < w - 40, y > sheet.y + 50, (y - sheet.y) % 26 < 5,
                    (x / 9) % 7 != 0
                {
                    c = (55, 55, 62)  // a line of text, with gaps between words
                }
            }
            return c
        }
    }

    @Test func aFigurePrintedOnTheSheetIsNotReportedSure() throws {
        let (w, h) = (768, 1024)
        let sheet = (x: 70, y: 60), figure = (230, 380, 600, 700)
        let px = Self.sheetWithFigure(width: w, height: h, sheet: sheet, figure: figure)
        let decided = PageDetector().decide(pixels: px, width: w, height: h, bands: 3).detection
        let page = try #require(
            Quad(
                rect: Rect(
                    x: Double(sheet.x) - 0.5, y: Double(sheet.y) - 0.5, width: Double(w - sheet.x),
                    height: Double(h - sheet.y))) as Quad?)
        let printed = try #require(
            Quad(
                rect: Rect(
                    x: Double(figure.0) - 0.5, y: Double(figure.1) - 0.5, width: Double(figure.2 - figure.0),
                    height: Double(figure.3 - figure.1))) as Quad?)
        if let quad = decided.quad, quad.intersectionOverUnion(with: page) < CandidateTable.pageIoU {
            #expect(
                decided.confidence < PageVerifier.minimumProbability,
                "quad \(quad) (IoU with the figure \(quad.intersectionOverUnion(with: printed))) at \(decided.confidence)"
            )
        }
        // The figure's own candidate reads as printed matter: paper with print beyond its sides.
        let found = PageDetector().pageCandidates(pixels: px, width: w, height: h, bands: 3)
        let onFigure = try #require(
            found.candidates.first { $0.quad.intersectionOverUnion(with: printed) >= CandidateTable.pageIoU })
        #expect(onFigure.features[CandidateFeatures.nestedColumn] >= 0.75)
        #expect(onFigure.features[CandidateFeatures.printBeyondColumn] >= 0.25)
        #expect(PageVerifier.fitted.probability(onFigure.features) < PageVerifier.minimumProbability)
    }

    /// The cap holds whatever the model says: a model sure of every candidate reports one with
    /// paper beyond three sides and print beyond one at `printedMatterCap`, and a sheet with the
    /// desk beyond its sides (or paper beyond them with nothing printed, a pale desk) as it is.
    @Test func printedMatterIsCappedWhateverTheModelSays() {
        let n = CandidateFeatures.names.count
        let sure = PageVerifier(
            weights: [8] + [Double](repeating: 0, count: n), means: [Double](repeating: 0, count: n),
            scales: [Double](repeating: 1, count: n))
        func features(paper: Double, print: Double) -> [Double] {
            var f = [Double](repeating: 0, count: n)
            f[CandidateFeatures.nestedColumn] = paper
            f[CandidateFeatures.printBeyondColumn] = print
            return f
        }
        #expect(sure.probability(features(paper: 0.75, print: 0.25)) == PageVerifier.printedMatterCap)
        #expect(sure.probability(features(paper: 1, print: 1)) == PageVerifier.printedMatterCap)
        #expect(sure.probability(features(paper: 0.25, print: 0.25)) > 0.99)
        #expect(sure.probability(features(paper: 1, print: 0)) > 0.99)
        #expect(PageVerifier.printedMatterCap < PageVerifier.minimumProbability)
    }
}
