/// Every generator's candidates for the page, with their features, and the verifier's choice
/// among them (issue 36, section 2): the lines' best quads, the sheet around a printed frame, a
/// quad moved past a fold, the band running off the frame, the rules' own decision, and the
/// whole frame, all scored by one fitted model instead of one more rule.

/// What the rules' line search leaves behind, for the candidates: the working copy with its
/// gradient, its strongest lines and the best quads made of them.
struct DetectionFront {
    var work: WorkImage
    var lines: [PageDetector.Line]
    var candidates: [QuadCandidate]
    /// Detection-copy pixels per working-copy pixel.
    var scale: Double
}

/// One candidate for the page: who proposed it, its quad (detection-copy pixel centres) and its
/// features (`CandidateFeatures.names`).
package struct ScoredCandidate {
    package var generator: CandidateGenerator
    package var quad: Quad
    package var features: [Double]
    package var insideBrighter: Bool
}

extension PageDetector {
    /// The best line quads offered to the verifier: enough to hold the page when a printed box or
    /// a fold outranks it, few enough to keep detection cheap (each costs a refinement).
    static let verifierEdgeCandidates = 8
    /// Candidates whose corners all lie within this share of the long side of an earlier one's
    /// are the same candidate (the earlier generator keeps it).
    static let sameCandidateDistance = 0.005

    /// The candidates of every generator with their features, and the rules' decision.
    package func pageCandidates(pixels: [UInt8], width: Int, height: Int, bands: Int)
        -> (candidates: [ScoredCandidate], rules: PageDetection, rulesInsideBrighter: Bool)
    {
        var front: DetectionFront? = nil
        let rules = detectCore(pixels: pixels, width: width, height: height, bands: bands, front: &front)
        let list = candidates(rules: rules, front: front, pixels: pixels, width: width, height: height, bands: bands)
        return (list, rules.0, rules.1)
    }

    /// The one decision (`detect`, `quire detect` and `quire process` all call it): the rules'
    /// quad, or the verifier's choice when one is given, with the fitted verifier's probability
    /// that the quad is the page as its confidence (issue 36: a confident wrong page is the worst
    /// outcome; a right page at a lower confidence costs nothing). Without a quad, the rules'
    /// low confidence is kept.
    package func decide(pixels: [UInt8], width: Int, height: Int, bands: Int)
        -> (detection: PageDetection, insideBrighter: Bool)
    {
        var front: DetectionFront? = nil
        let rules = detectCore(pixels: pixels, width: width, height: height, bands: bands, front: &front)
        if let verifier {
            return verified(
                by: verifier, rules: rules, front: front, pixels: pixels, width: width, height: height, bands: bands)
        }
        guard let p = rulesProbability(rules, front: front, pixels: pixels, width: width, height: height, bands: bands)
        else { return rules }
        let confidence = agreedConfidence(
            p, rules: rules, front: front, pixels: pixels, width: width, height: height, bands: bands)
        return (PageDetection(quad: rules.0.quad, confidence: confidence), rules.1)
    }

    /// The rules' quad's probability `p`, capped unless the verifier's own most probable quad
    /// agrees with it (`PageVerifier.agreed`). Every candidate is measured only when `p` would
    /// report the quad sure, so the cost is paid for would-be sure quads alone.
    func agreedConfidence(
        _ p: Double, rules: (PageDetection, Bool), front: DetectionFront?, pixels: [UInt8], width: Int, height: Int,
        bands: Int
    ) -> Double {
        guard p >= PageVerifier.minimumProbability, let quad = rules.0.quad?.readingOrdered() else { return p }
        let list = candidates(rules: rules, front: front, pixels: pixels, width: width, height: height, bands: bands)
        return PageVerifier.fitted.agreed(
            p, features: list.map(\.features), iouWithRules: list.map { $0.quad.intersectionOverUnion(with: quad) },
            isWholeFrame: list.map { $0.generator == .wholeFrame })
    }

    /// The verifier's decision: the candidate it scores highest, unless that is the whole frame or
    /// under `PageVerifier.minimumProbability`; then the whole frame is kept, with the best quad's
    /// probability (low) as the confidence.
    func verified(
        by verifier: PageVerifier, rules: (PageDetection, Bool), front: DetectionFront?, pixels: [UInt8],
        width: Int, height: Int, bands: Int
    ) -> (PageDetection, Bool) {
        let list = candidates(rules: rules, front: front, pixels: pixels, width: width, height: height, bands: bands)
        let choice = verifier.choose(list.map(\.features), isWholeFrame: list.map { $0.generator == .wholeFrame })
        guard let index = choice.index else { return (PageDetection(quad: nil, confidence: choice.probability), true) }
        return (
            PageDetection(quad: list[index].quad, confidence: choice.probability), list[index].insideBrighter
        )
    }

    /// The candidates of every generator, refined on the copy, without duplicates, with features.
    func candidates(
        rules: (PageDetection, Bool), front: DetectionFront?, pixels: [UInt8], width: Int, height: Int, bands: Int
    ) -> [ScoredCandidate] {
        var proposed: [(CandidateGenerator, Quad, Bool)] = []
        if let quad = rules.0.quad { proposed.append((.rules, quad, rules.1)) }
        let long = Double(max(width, height))
        if let front, let first = front.candidates.first {
            let scale = front.scale
            func quad(_ c: QuadCandidate) -> Quad? {
                guard let corners = Self.corners(of: c.lines.map { Self.fullScale($0, scale: scale) }) else {
                    return nil
                }
                let q = Self.quad(corners)
                guard q.isFinite, q.isConvex else { return nil }
                // Refined as the rules refine their winner, so each candidate is what it would give.
                let refined = Self.refine(
                    q.map { Point(x: $0.x + 0.5, y: $0.y + 0.5) }, pixels: pixels, width: width, height: height,
                    bands: bands, insideBrighter: c.insideBrighter, searchRadius: scale * 2 + 2)
                return refined.map { Point(x: $0.x - 0.5, y: $0.y - 0.5) }
            }
            func add(_ generator: CandidateGenerator, _ c: QuadCandidate) {
                if let q = quad(c) { proposed.append((generator, q, c.insideBrighter)) }
            }
            let sheet = pixels.withUnsafeBufferPointer {
                paperAround(
                    first, candidates: front.candidates, pixels: $0, width: width, height: height, bands: bands,
                    scale: scale)
            }
            if sheet.lines != first.lines { add(.paperRegion, sheet) }
            let checked = Self.checkedForLinesAcross(
                sheet, on: front.work, candidates: front.candidates, fullWidth: width, fullHeight: height,
                scale: scale, minConfidence: minConfidence)
            if checked.lines != sheet.lines { add(.folds, checked) }
            if let band = pixels.withUnsafeBufferPointer({
                frameBand(
                    lines: front.lines, on: front.work, pixels: $0, width: width, height: height, bands: bands,
                    scale: scale)
            }) {
                add(.frameBand, band)
            }
            for c in front.candidates.prefix(Self.verifierEdgeCandidates) { add(.edgeLines, c) }
            let lines = front.lines.map { Self.fullScale($0, scale: scale) }
            if let r = rules.0.quad?.readingOrdered(),
                let glass = Self.glassEdge(
                    of: r, lines: lines, work: front.work, scale: scale, width: width, height: height),
                glass.support >= Self.glassSupport
            {
                proposed.append((.glassEdge, glass.quad, rules.1))
            }
        }
        if let region = pixels.withUnsafeBufferPointer({
            PaperRegion.quad(pixels: $0, width: width, height: height, bands: bands)
        }) {
            let refined = Self.refine(
                region.map { Point(x: $0.x + 0.5, y: $0.y + 0.5) }, pixels: pixels, width: width, height: height,
                bands: bands, insideBrighter: true, searchRadius: (front?.scale ?? 1) * 2 + 2)
            proposed.append((.brightRegion, refined.map { Point(x: $0.x - 0.5, y: $0.y - 0.5) }, true))
        }
        let frame = Quad(rect: Rect(x: -0.5, y: -0.5, width: Double(width), height: Double(height)))
        proposed.append((.wholeFrame, frame, true))
        var kept: [(CandidateGenerator, Quad, Bool)] = []
        for p in proposed where p.1.isConvex && p.1.area > 0 {
            let same = kept.contains {
                $0.1.worstCornerDistance(to: p.1.readingOrdered()) <= Self.sameCandidateDistance * long
            }
            if !same { kept.append((p.0, p.1.readingOrdered(), p.2)) }
        }
        return measured(kept, front: front, pixels: pixels, width: width, height: height, bands: bands)
    }

    /// The features of `kept` (generator, quad, inside brighter), each measured on its own (its
    /// line score against the best line quad's as found, the paper beyond its own sides), so
    /// that the rules' candidate alone (`rulesProbability`) gets the same features as in the
    /// full table.
    func measured(
        _ kept: [(CandidateGenerator, Quad, Bool)], front: DetectionFront?, pixels: [UInt8],
        width: Int, height: Int, bands: Int
    ) -> [ScoredCandidate] {
        let flat = FrameChecks.hasFlatFrame(pixels: pixels, width: width, height: height, bands: bands)
        let scale = front?.scale ?? 1
        let bestLines = front?.candidates.first.flatMap {
            Self.corners(of: $0.lines.map { Self.fullScale($0, scale: scale) })
        }
        .map(Self.quad)
        let bestScore =
            bestLines.flatMap { q in
                q.isFinite && q.isConvex ? front?.work.lineScore(q, scale: scale, width: width, height: height) : nil
            } ?? 0
        var features = pixels.withUnsafeBufferPointer { px in
            let grid = PaperGrid(pixels: px, width: width, height: height, bands: bands)
            return kept.map { c in
                let score = front?.work.lineScore(c.1, scale: scale, width: width, height: height) ?? 0
                return CandidateFeatures.measure(
                    c.1, generator: c.0, lineScoreShare: bestScore > 0 ? min(1, score / bestScore) : 0, pixels: px,
                    width: width, height: height, bands: bands, work: front?.work, scale: scale, flatFrame: flat,
                    grid: grid)
            }
        }
        let region = pixels.withUnsafeBufferPointer {
            PaperRegion.quad(pixels: $0, width: width, height: height, bands: bands)
        }
        let lines = front?.lines.map { Self.fullScale($0, scale: scale) } ?? []
        for i in kept.indices {
            if let front, kept[i].0 != .wholeFrame {
                features[i][CandidateFeatures.glassColumn] =
                    Self.glassEdge(
                        of: kept[i].1, lines: lines, work: front.work, scale: scale, width: width, height: height)?
                    .support ?? 0
            }
            features[i][CandidateFeatures.regionColumn] = region.map { kept[i].1.intersectionOverUnion(with: $0) } ?? 0
        }
        return kept.indices.map {
            ScoredCandidate(generator: kept[$0].0, quad: kept[$0].1, features: features[$0], insideBrighter: kept[$0].2)
        }
    }

    /// The fitted verifier's probability that the rules' quad is the page: the confidence
    /// reported for it (issue 36: a confident wrong page is the worst outcome). Only the rules'
    /// candidate is measured, so this costs a few milliseconds, not the verifier's full choice.
    func rulesProbability(
        _ rules: (PageDetection, Bool), front: DetectionFront?, pixels: [UInt8], width: Int, height: Int, bands: Int
    ) -> Double? {
        guard let quad = rules.0.quad?.readingOrdered(), quad.isConvex, quad.area > 0 else { return nil }
        let list = measured(
            [(.rules, quad, rules.1)], front: front, pixels: pixels, width: width, height: height, bands: bands)
        return list.first.map { PageVerifier.fitted.probability($0.features) }
    }
}
