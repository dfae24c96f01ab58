import Testing

@testable import QuirePageAnalysis

/// The frame replacement (issue 36) measures `print_around` only for the quads that could still be
/// sure, and chooses as it would with every candidate measured in full (issue 32: its cost on scans).
@Suite struct FrameReplacementCostTests {
    /// On many made-up photos, under a model where the costly column weighs as much as the rest,
    /// the shortcut takes the same quad at the same confidence as the rule over full rows, and
    /// leaves some rows unmeasured.
    @Test func theShortcutChoosesAsMeasuringEverything() {
        let n = CandidateFeatures.names.count
        let (area, costly) = (PageVerifier.areaColumn, CandidateFeatures.printAroundColumn)
        let other = (0..<n).first { $0 != area && $0 != costly }!
        var seed: UInt64 = 36
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        var skipped = 0
        for sign in [1.0, -1.0] {
            // Log-odds: the other column plus (or minus) 1.5 times the costly one.
            var weights = [Double](repeating: 0, count: n + 1)
            weights[other + 1] = 1
            weights[costly + 1] = 1.5 * sign
            let model = PageVerifier(
                weights: weights, means: [Double](repeating: 0, count: n), scales: [Double](repeating: 1, count: n))
            for _ in 0..<2000 {
                let count = 1 + Int(next() * 6)
                let frameAt = Int(next() * Double(count + 1))
                let isWholeFrame = (0...count).map { $0 == frameAt }
                let full: [[Double]] = isWholeFrame.map { frame in
                    var row = [Double](repeating: 0, count: n)
                    row[other] = next() * 5 - 2
                    row[costly] = next() < 0.5 ? 1 : 0
                    row[area] = frame ? 1 : (next() < 0.2 ? 0.95 : 0.5)
                    return row
                }
                let optimistic = full.map { row in
                    [0.0, 1.0].map { v -> [Double] in
                        var r = row
                        r[costly] = v
                        return r
                    }
                    .max { model.probability($0) < model.probability($1) }!
                }
                var measured = 0
                let short = model.replacingFrame(optimistic: optimistic, isWholeFrame: isWholeFrame) { i in
                    measured += 1
                    return full[i]
                }
                let whole = model.replacingFrame(features: full, isWholeFrame: isWholeFrame)
                #expect(short?.index == whole?.index && short?.confidence == whole?.confidence, "\(full)")
                skipped += full.count - measured
            }
        }
        #expect(skipped > 0)
    }

    /// On a sheet on a desk (the sheet replaces the frame) and a page filling the frame (the frame
    /// stays), the detector's shortcut gives what the rule gives over every candidate in full.
    @Test func theDetectorsShortcutIsTheFullRule() throws {
        let (w, h) = (640, 860)
        let sheet = AgreementCostTests.sheetOnDesk(width: w, height: h)
        let filled = SceneCanvas.paint(width: w, height: h, seed: 32) { x, y, grain in
            let text = x > 60 && x < w - 60 && y > 60 && (y - 60) % 26 < 5 && (x / 11) % 6 != 0
            return text ? (60, 60, 66) : (236 + grain / 2, 233 + grain / 2, 224 + grain / 2)
        }
        var outcomes: [Bool] = []
        for px in [sheet, filled] {
            let detector = PageDetector()
            var front: DetectionFront? = nil
            let rules = detector.detectCore(pixels: px, width: w, height: h, bands: 3, front: &front)
            try #require(front != nil)
            let short = detector.frameReplaced(rules: rules, front: front, pixels: px, width: w, height: h, bands: 3)
            let list = detector.candidates(rules: rules, front: front, pixels: px, width: w, height: h, bands: 3)
            let whole = PageVerifier.fitted.replacingFrame(
                features: list.map(\.features), isWholeFrame: list.map { $0.generator == .wholeFrame })
            #expect(short?.detection.quad == whole.map { list[$0.index].quad })
            #expect(short?.detection.confidence == whole?.confidence)
            outcomes.append(whole != nil)
        }
        // One photo of each kind, so both branches are compared.
        #expect(outcomes == [true, false], "\(outcomes)")
    }
}
