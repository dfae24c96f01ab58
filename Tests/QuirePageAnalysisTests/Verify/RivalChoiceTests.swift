import Testing

@testable import QuirePageAnalysis

/// A marker card standing across a page's edge is not the page (issue 36): the rules close on the
/// card, the sharpest small quad, while the page around it is proposed too. When the rules' quad
/// is that small the verifier chooses (`PageVerifier.rival`), and the page is reported.
@Suite struct RivalChoiceTests {
    /// A cream page on a dark scanner bed, running off the frame's sides and bottom, its top edge
    /// crossed by a white card printed with a black code (as a book scanner's marker stands on the
    /// glass); with lines of text when `printed` (the verifier then prefers a quad closed by a line
    /// of text, IoU 0.84 with the page, over both: the scene below is blank).
    static func pageWithCard(
        width w: Int, height h: Int, page: (Int, Int, Int, Int), card: (Int, Int, Int, Int), printed: Bool = true
    )
        -> [UInt8]
    {
        SceneCanvas.paint(width: w, height: h, seed: 36) { x, y, grain in
            var c = (38 + grain, 36 + grain, 40 + grain)
            if x >= page.0, x < page.2, y >= page.1, y < page.3 {
                c = (226 + grain / 2, 218 + grain / 2, 196 + grain / 2)
                if x > page.0 + 40, x < page.2 - 40, y > page.1 + 40, y < page.3 - 40, (y - page.1) % 28 < 6,
                    printed,
                    (x / 11) % 6 != 0
                {
                    c = (50, 48, 52)  // a line of text, with gaps between words
                }
            }
            if x >= card.0, x < card.2, y >= card.1, y < card.3 {
                let (cx, cy) = ((x - card.0) * 6 / (card.2 - card.0), (y - card.1) * 6 / (card.3 - card.1))
                let code = cx >= 1 && cx <= 4 && cy >= 1 && cy <= 4 && (cx * 3 + cy * 5) % 4 != 0
                c = code ? (40, 40, 40) : (244 + grain / 2, 244 + grain / 2, 246 + grain / 2)
            }
            return c
        }
    }

    static func quad(_ r: (Int, Int, Int, Int)) -> Quad {
        Quad(
            rect: Rect(
                x: Double(r.0) - 0.5, y: Double(r.1) - 0.5, width: Double(r.2 - r.0), height: Double(r.3 - r.1)))
    }

    @Test func theCardAcrossThePagesEdgeGivesWayToThePage() throws {
        let (w, h) = (900, 1200)
        let page = (0, 300, 900, 1200), card = (520, 220, 700, 400)
        let px = Self.pageWithCard(width: w, height: h, page: page, card: card, printed: false)
        let found = PageDetector().pageCandidates(pixels: px, width: w, height: h, bands: 3)
        let rules = try #require(found.rules.quad, "the rules report no quad")
        let (pageQuad, cardQuad) = (Self.quad(page), Self.quad(card))
        // The scene is the one the rule is for: the rules take the card, the page is proposed.
        let seen = found.candidates.map {
            "\($0.generator) page \($0.quad.intersectionOverUnion(with: pageQuad)) p \(PageVerifier.fitted.probability($0.features))"
        }
        #expect(rules.intersectionOverUnion(with: cardQuad) >= CandidateTable.pageIoU, "\(rules) \(seen)")
        #expect(found.candidates.contains { $0.quad.intersectionOverUnion(with: pageQuad) >= CandidateTable.pageIoU })
        let decided = PageDetector().decide(pixels: px, width: w, height: h, bands: 3).detection
        let quad = try #require(decided.quad)
        #expect(quad.intersectionOverUnion(with: pageQuad) >= CandidateTable.pageIoU, "quad \(quad) \(seen)")
    }

    /// A rival is taken only over a small rules' quad, only when larger, not the same reading and
    /// more probable by the margin; it is capped unless it is the most probable quad.
    @Test func theRivalRule() {
        let n = CandidateFeatures.names.count
        let area = PageVerifier.areaColumn
        // A model whose log-odds is the first feature other than the area (standardised as is).
        let other = area == 0 ? 1 : 0
        var weights = [Double](repeating: 0, count: n + 1)
        weights[other + 1] = 1
        let model = PageVerifier(
            weights: weights, means: [Double](repeating: 0, count: n), scales: [Double](repeating: 1, count: n))
        func row(area a: Double, logOdds z: Double) -> [Double] {
            var f = [Double](repeating: 0, count: n)
            f[area] = a
            f[other] = z
            return f
        }
        let frame = row(area: 1, logOdds: 0)
        func choose(_ rows: [[Double]], iou: [Double]) -> (index: Int, confidence: Double)? {
            model.rival(
                features: rows + [frame], iouWithRules: iou + [0],
                isRules: [true] + rows.dropFirst().map { _ in false } + [false],
                isWholeFrame: rows.map { _ in false } + [true])
        }
        // A small card (p 0.38) and the page around it (p 0.62): the page is taken, sure of itself.
        #expect(choose([row(area: 0.05, logOdds: -0.5), row(area: 0.6, logOdds: 0.5)], iou: [1, 0.08])?.index == 1)
        // A rules' quad of a fifth of the frame is kept.
        #expect(choose([row(area: 0.2, logOdds: -0.5), row(area: 0.6, logOdds: 0.5)], iou: [1, 0.3]) == nil)
        // Within the margin, or the same reading, or smaller: kept.
        #expect(choose([row(area: 0.05, logOdds: 0), row(area: 0.6, logOdds: 0.1)], iou: [1, 0.08]) == nil)
        #expect(choose([row(area: 0.05, logOdds: -0.5), row(area: 0.055, logOdds: 0.5)], iou: [1, 0.95]) == nil)
        #expect(choose([row(area: 0.05, logOdds: -0.5), row(area: 0.03, logOdds: 0.5)], iou: [1, 0.1]) == nil)
        // A rival that is not the most probable quad is capped under sure.
        let capped = choose(
            [row(area: 0.05, logOdds: -0.5), row(area: 0.6, logOdds: 2), row(area: 0.04, logOdds: 3)],
            iou: [1, 0.08, 0.5])
        #expect(capped?.index == 1)
        #expect(capped?.confidence == PageVerifier.disagreementCap)
    }

    /// A whole frame the rules kept gives way to a quad only when the verifier would report that
    /// quad sure and scores it above the frame, and the quad is then capped under sure.
    @Test func aKeptFrameGivesWayOnlyToASureQuadAndIsCapped() {
        let n = CandidateFeatures.names.count
        // A model whose log-odds is the first feature (standardised as is, not calibrated).
        var weights = [Double](repeating: 0, count: n + 1)
        weights[1] = 1
        let model = PageVerifier(
            weights: weights, means: [Double](repeating: 0, count: n), scales: [Double](repeating: 1, count: n))
        let area = PageVerifier.areaColumn
        func row(logOdds z: Double, area a: Double = 0.5) -> [Double] {
            var f = [Double](repeating: 0, count: n)
            f[0] = z
            f[area] = a
            return f
        }
        func replaced(frame: Double, quads: [Double], area a: Double = 0.5) -> (index: Int, confidence: Double)? {
            model.replacingFrame(
                features: [row(logOdds: frame, area: 1)] + quads.map { row(logOdds: $0, area: a) },
                isWholeFrame: [true] + quads.map { _ in false })
        }
        // The frame at p 0.5, a quad at 0.73 and one at 0.88: the second is taken, capped.
        let taken = replaced(frame: 0, quads: [1, 2])
        #expect(taken?.index == 2)
        #expect(taken?.confidence == PageVerifier.disagreementCap)
        // No quad at 0.75: the frame is kept.
        #expect(replaced(frame: -3, quads: [1, 0.5]) == nil)
        // A sure quad the frame outscores: the frame is kept.
        #expect(replaced(frame: 3, quads: [2]) == nil)
        // A sure quad covering nearly the whole frame is the same reading: the frame is kept.
        #expect(replaced(frame: 0, quads: [2], area: 0.95) == nil)
    }
}
