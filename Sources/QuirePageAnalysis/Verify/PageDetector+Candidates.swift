/// Every generator's candidates for the page, with their features, and the verifier's choice
/// among them (issue 36, section 2): the lines' best quads, the sheet around a printed frame, a
/// quad moved past a fold, the band running off the frame, the rules' own decision, and the
/// whole frame, all scored by one fitted model instead of one more rule.

/// What the rules' line search leaves behind, for the candidates: the working copy with its
/// gradient, its strongest lines and the best quads made of them, and what the rules derived from
/// the best quad (so the candidates do not search for them again).
struct DetectionFront {
    var work: WorkImage
    var lines: [PageDetector.Line]
    /// `work.support(for:)` of each of `lines`, measured once.
    var supports: [LineSupport]
    var candidates: [QuadCandidate]
    /// Detection-copy pixels per working-copy pixel.
    var scale: Double
    /// The sheet around the best quad (`paperAround`) and that moved past a fold
    /// (`checkedForLinesAcross`), as the rules found them.
    var sheet: QuadCandidate? = nil
    var checked: QuadCandidate? = nil
    /// The band running off the frame (`frameBand`) when the rules looked for it: `.some(nil)`
    /// when they found none.
    var band: QuadCandidate?? = nil
    /// The sides refined on the detection copy so far, by the rules and the candidates.
    let refinedSides = RefinedSides()
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
        let traced = decideTraced(pixels: pixels, width: width, height: height, bands: bands)
        return (traced.detection, traced.insideBrighter)
    }

    /// `decide`, with the quads whose full features it measured (each once: the rules' quad, then
    /// the agreement check's few), for the tests.
    func decideTraced(pixels: [UInt8], width: Int, height: Int, bands: Int)
        -> (detection: PageDetection, insideBrighter: Bool, measured: [Quad])
    {
        var front: DetectionFront? = nil
        let rules = detectCore(pixels: pixels, width: width, height: height, bands: bands, front: &front)
        if let verifier {
            let chosen = verified(
                by: verifier, rules: rules, front: front, pixels: pixels, width: width, height: height, bands: bands)
            return (chosen.0, chosen.1, [])
        }
        guard let quad = rules.0.quad?.readingOrdered(), quad.isConvex, quad.area > 0 else {
            if rules.0.quad == nil, front != nil,
                let taken = frameReplaced(
                    rules: rules, front: front, pixels: pixels, width: width, height: height, bands: bands)
            {
                return taken
            }
            return (rules.0, rules.1, [])
        }
        let context = CandidateContext(front: front, pixels: pixels, width: width, height: height, bands: bands)
        let own = measured(
            [(.rules, quad, rules.1)], front: front, context: context, pixels: pixels, width: width, height: height,
            bands: bands)[0]
        let p = PageVerifier.fitted.probability(own.features)
        if own.features[PageVerifier.areaColumn] < PageVerifier.rivalArea,
            let taken = rivalTaken(
                rules: rules, quad: quad, front: front, pixels: pixels, width: width, height: height, bands: bands)
        {
            return taken
        }
        guard p >= PageVerifier.minimumProbability else {
            return (PageDetection(quad: rules.0.quad, confidence: p), rules.1, [quad])
        }
        let others = agreementCandidates(
            rules: rules, own: own, front: front, context: context, pixels: pixels, width: width, height: height,
            bands: bands)
        let list = [own] + others
        let confidence = PageVerifier.fitted.agreed(
            p, features: list.map(\.features), iouWithRules: list.map { $0.quad.intersectionOverUnion(with: quad) },
            isWholeFrame: list.map { _ in false })
        return (PageDetection(quad: rules.0.quad, confidence: confidence), rules.1, list.map(\.quad))
    }

    /// The candidate the fitted verifier takes over a small rules' quad `quad` (`PageVerifier.rival`),
    /// every candidate measured in full; nil to keep the rules' quad.
    func rivalTaken(
        rules: (PageDetection, Bool), quad: Quad, front: DetectionFront?, pixels: [UInt8], width: Int, height: Int,
        bands: Int
    ) -> (detection: PageDetection, insideBrighter: Bool, measured: [Quad])? {
        let list = candidates(rules: rules, front: front, pixels: pixels, width: width, height: height, bands: bands)
        guard
            let chosen = PageVerifier.fitted.rival(
                features: list.map(\.features), iouWithRules: list.map { $0.quad.intersectionOverUnion(with: quad) },
                isRules: list.map { $0.generator == .rules }, isWholeFrame: list.map { $0.generator == .wholeFrame })
        else { return nil }
        let taken = list[chosen.index]
        return (PageDetection(quad: taken.quad, confidence: chosen.confidence), taken.insideBrighter, list.map(\.quad))
    }

    /// The quad the fitted verifier takes over the whole frame the rules kept
    /// (`PageVerifier.replacingFrame`); nil to keep the frame. Every candidate is measured but for
    /// `print_around`, taken at its most probable value; it is measured only for the quads that
    /// could then still be sure, and the frame (`replacingFrame(optimistic:)`, the same choice).
    func frameReplaced(
        rules: (PageDetection, Bool), front: DetectionFront?, pixels: [UInt8], width: Int, height: Int, bands: Int
    ) -> (detection: PageDetection, insideBrighter: Bool, measured: [Quad])? {
        let found = refinedCandidates(
            rules: rules, front: front, pixels: pixels, width: width, height: height, bands: bands)
        let list = measured(
            found.kept, front: front, context: found.context, pixels: pixels, width: width, height: height,
            bands: bands, printAround: false)
        let column = CandidateFeatures.printAroundColumn
        let optimistic = list.map { c in
            [0.0, 1.0].map { value -> [Double] in
                var row = c.features
                row[column] = value
                return row
            }
            .max { PageVerifier.fitted.probability($0) < PageVerifier.fitted.probability($1) }!
        }
        guard
            let chosen = PageVerifier.fitted.replacingFrame(
                optimistic: optimistic, isWholeFrame: list.map { $0.generator == .wholeFrame },
                exact: { i in
                    var row = list[i].features
                    let inPrint = PrintAround.liesInPrint(
                        list[i].quad, pixels: pixels, width: width, height: height, bands: bands)
                    row[column] = inPrint ? 1 : 0
                    return row
                })
        else { return nil }
        let taken = list[chosen.index]
        return (PageDetection(quad: taken.quad, confidence: chosen.confidence), taken.insideBrighter, list.map(\.quad))
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
        let found = refinedCandidates(
            rules: rules, front: front, pixels: pixels, width: width, height: height, bands: bands)
        return measured(
            found.kept, front: front, context: found.context, pixels: pixels, width: width, height: height,
            bands: bands)
    }

    /// The candidates of every generator (generator, quad, inside brighter), refined on the copy,
    /// without duplicates, before they are measured, with what their features share.
    func refinedCandidates(
        rules: (PageDetection, Bool), front: DetectionFront?, pixels: [UInt8], width: Int, height: Int, bands: Int
    ) -> (kept: [(CandidateGenerator, Quad, Bool)], context: CandidateContext) {
        let context = CandidateContext(front: front, pixels: pixels, width: width, height: height, bands: bands)
        let long = Double(max(width, height))
        var kept: [(CandidateGenerator, Quad, Bool)] = []
        for offer in proposals(
            rules: rules, front: front, context: context, pixels: pixels, width: width, height: height, bands: bands)
        {
            let q = refined(offer, front: front, pixels: pixels, width: width, height: height, bands: bands)
            guard q.isConvex, q.area > 0 else { continue }
            let same = kept.contains {
                $0.1.worstCornerDistance(to: q.readingOrdered()) <= Self.sameCandidateDistance * long
            }
            if !same { kept.append((offer.generator, q.readingOrdered(), offer.insideBrighter)) }
        }
        return (kept, context)
    }

    /// Every generator's candidates as proposed, before they are refined on the copy, in the order
    /// in which a duplicate defers to the one before it.
    func proposals(
        rules: (PageDetection, Bool), front: DetectionFront?, context: CandidateContext, pixels: [UInt8], width: Int,
        height: Int, bands: Int
    ) -> [Proposal] {
        var proposed: [Proposal] = []
        if let quad = rules.0.quad { proposed.append(Proposal(generator: .rules, quad: quad, insideBrighter: rules.1)) }
        if let front, let first = front.candidates.first {
            let scale = front.scale
            func add(_ generator: CandidateGenerator, _ c: QuadCandidate) {
                guard let corners = Self.corners(of: c.lines.map { Self.fullScale($0, scale: scale) }) else { return }
                let q = Self.quad(corners)
                guard q.isFinite, q.isConvex else { return }
                // Refined as the rules refine their winner, so each candidate is what it would give.
                proposed.append(Proposal(generator: generator, quad: q, insideBrighter: c.insideBrighter, refine: true))
            }
            let sheet =
                front.sheet
                ?? pixels.withUnsafeBufferPointer {
                    paperAround(
                        first, candidates: front.candidates, pixels: $0, width: width, height: height, bands: bands,
                        scale: scale)
                }
            if sheet.lines != first.lines { add(.paperRegion, sheet) }
            let checked =
                front.checked
                ?? Self.checkedForLinesAcross(
                    sheet, on: front.work, candidates: front.candidates, fullWidth: width, fullHeight: height,
                    scale: scale, minConfidence: minConfidence)
            if checked.lines != sheet.lines { add(.folds, checked) }
            let band =
                front.band
                ?? pixels.withUnsafeBufferPointer {
                    frameBand(
                        lines: front.lines, supports: front.supports, on: front.work, pixels: $0, width: width,
                        height: height, bands: bands, scale: scale)
                }
            if let band { add(.frameBand, band) }
            for q in Self.frameSideQuads(front: front, width: width, height: height) {
                proposed.append(Proposal(generator: .frameSides, quad: q, insideBrighter: true, refine: true))
            }
            for c in front.candidates.prefix(Self.verifierEdgeCandidates) { add(.edgeLines, c) }
            if let r = rules.0.quad?.readingOrdered(),
                let glass = Self.glassEdge(
                    of: r, lines: context.lines, work: front.work, scale: scale, width: width, height: height),
                glass.support >= Self.glassSupport
            {
                proposed.append(Proposal(generator: .glassEdge, quad: glass.quad, insideBrighter: rules.1))
            }
        }
        if let region = context.region {
            proposed.append(Proposal(generator: .brightRegion, quad: region, insideBrighter: true, refine: true))
        }
        let frame = Quad(rect: Rect(x: -0.5, y: -0.5, width: Double(width), height: Double(height)))
        proposed.append(Proposal(generator: .wholeFrame, quad: frame, insideBrighter: true))
        return proposed
    }

    /// A proposal's quad refined on the copy (the search radius the rules use), or as proposed.
    func refined(
        _ offer: Proposal, front: DetectionFront?, pixels: [UInt8], width: Int, height: Int, bands: Int
    ) -> Quad {
        guard offer.refine else { return offer.quad }
        let refined = pixels.withUnsafeBufferPointer {
            Self.refine(
                offer.quad.map { Point(x: $0.x + 0.5, y: $0.y + 0.5) },
                on: InterleavedField(pixels: $0, width: width, height: height, bands: bands),
                insideBrighter: offer.insideBrighter, searchRadius: (front?.scale ?? 1) * 2 + 2,
                known: front?.refinedSides)
        }
        return refined.map { Point(x: $0.x - 0.5, y: $0.y - 0.5) }
    }

    /// The features of `kept` (generator, quad, inside brighter), each measured on its own (its
    /// line score against the best line quad's as found, the paper beyond its own sides), so
    /// that the rules' candidate alone gets the same features as in the full table; `print_around`
    /// left at 0 unless `printAround`.
    func measured(
        _ kept: [(CandidateGenerator, Quad, Bool)], front: DetectionFront?, context: CandidateContext,
        pixels: [UInt8], width: Int, height: Int, bands: Int, printAround: Bool = true
    ) -> [ScoredCandidate] {
        let scale = front?.scale ?? 1
        var features = pixels.withUnsafeBufferPointer { px in
            kept.map { c in
                let score = front?.work.lineScore(c.1, scale: scale, width: width, height: height) ?? 0
                return CandidateFeatures.measure(
                    c.1, generator: c.0,
                    lineScoreShare: context.bestScore > 0 ? min(1, score / context.bestScore) : 0, pixels: px,
                    width: width, height: height, bands: bands, work: front?.work, scale: scale,
                    flatFrame: context.flatFrame, grid: context.grid, printAround: printAround)
            }
        }
        for i in kept.indices {
            if let front, kept[i].0 != .wholeFrame {
                features[i][CandidateFeatures.glassColumn] = Self.glassSide(
                    of: kept[i].1, lines: context.lines, work: front.work, scale: scale, width: width, height: height,
                    framePaper: features[i][CandidateFeatures.framePaperColumn])
            }
            features[i][CandidateFeatures.regionColumn] =
                context.region.map { kept[i].1.intersectionOverUnion(with: $0) } ?? 0
        }
        return kept.indices.map {
            ScoredCandidate(generator: kept[$0].0, quad: kept[$0].1, features: features[$0], insideBrighter: kept[$0].2)
        }
    }
}

/// One generator's proposal for the page before it is refined on the copy: its quad (copy pixel
/// centres), which side is brighter, and whether it is refined (line quads and the paper region
/// are; the rules' quad already was, the glass side lies on a detected line, the frame is fixed).
struct Proposal {
    var generator: CandidateGenerator
    var quad: Quad
    var insideBrighter: Bool
    var refine = false
}

/// What the features of every candidate of one photo share, computed once a photo (the agreement
/// check once made each of them three times): whether the frame is flat, the paper grid and its
/// region's quad, the best line quad's score, and the detected lines in copy pixels.
struct CandidateContext {
    var flatFrame: Bool
    var grid: PaperGrid?
    var region: Quad?
    var bestScore: Double
    var lines: [PageDetector.Line]

    init(front: DetectionFront?, pixels: [UInt8], width: Int, height: Int, bands: Int) {
        flatFrame = FrameChecks.hasFlatFrame(pixels: pixels, width: width, height: height, bands: bands)
        let scale = front?.scale ?? 1
        let best = front?.candidates.first.flatMap {
            PageDetector.corners(of: $0.lines.map { PageDetector.fullScale($0, scale: scale) })
        }
        .map(PageDetector.quad)
        bestScore =
            best.flatMap { q in
                q.isFinite && q.isConvex ? front?.work.lineScore(q, scale: scale, width: width, height: height) : nil
            } ?? 0
        grid = pixels.withUnsafeBufferPointer { PaperGrid(pixels: $0, width: width, height: height, bands: bands) }
        region = grid.flatMap(PaperRegion.quad(grid:))
        lines = front?.lines.map { PageDetector.fullScale($0, scale: scale) } ?? []
    }
}
