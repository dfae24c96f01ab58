/// The agreement check made cheap (issue 36): the rules' quad is reported sure only when the
/// verifier's most probable quad agrees with it, which once meant refining and measuring every
/// candidate of every would-be sure photo (99 CPU ms a photo against 70 without the check). The
/// other candidates are ranked first by the part of the model that needs no pixels beyond the
/// working copy's gradient (their shape, place, edge support and line score, the glass side and
/// the paper region's overlap), and only the best few are refined and measured in full.

extension PageDetector {
    /// Candidates besides the rules' quad that the agreement check refines and measures in full,
    /// the best by `cheapLogOdds`: on the candidate table the most probable quad of every photo
    /// whose rules' quad is sure is the rules' quad or the cheap score's first (two for margin).
    static let agreementCandidates = 2

    /// The candidates the agreement check weighs against the rules' quad (`own`, measured once
    /// already): the proposals other than the rules' quad and the whole frame, best first by
    /// their cheap log-odds, refined, without duplicates of the rules' quad or of each other, and
    /// the first `agreementCandidates` of them measured in full.
    func agreementCandidates(
        rules: (PageDetection, Bool), own: ScoredCandidate, front: DetectionFront?, context: CandidateContext,
        pixels: [UInt8], width: Int, height: Int, bands: Int
    ) -> [ScoredCandidate] {
        let offers = proposals(
            rules: rules, front: front, context: context, pixels: pixels, width: width, height: height, bands: bands
        )
        .filter { $0.generator != .rules && $0.generator != .wholeFrame }
        let scores = offers.map {
            cheapLogOdds($0, front: front, context: context, width: width, height: height)
        }
        let order = offers.indices.sorted { scores[$0] > scores[$1] || (scores[$0] == scores[$1] && $0 < $1) }
        let long = Double(max(width, height))
        var kept: [(CandidateGenerator, Quad, Bool)] = []
        for i in order {
            guard kept.count < Self.agreementCandidates else { break }
            let q = refined(offers[i], front: front, pixels: pixels, width: width, height: height, bands: bands)
                .readingOrdered()
            guard q.isConvex, q.area > 0 else { continue }
            let same = ([own.quad] + kept.map(\.1)).contains {
                $0.worstCornerDistance(to: q) <= Self.sameCandidateDistance * long
            }
            if !same { kept.append((offers[i].generator, q, offers[i].insideBrighter)) }
        }
        return measured(
            kept, front: front, context: context, pixels: pixels, width: width, height: height, bands: bands)
    }

    /// The fitted model's log-odds of a proposal (as proposed, unrefined) from its features that
    /// need no pixel samples (`CandidateFeatures.cheapColumns`), the others at their training
    /// means: a ranking, not a probability.
    func cheapLogOdds(
        _ offer: Proposal, front: DetectionFront?, context: CandidateContext, width: Int, height: Int
    ) -> Double {
        let quad = offer.quad.readingOrdered()
        let scale = front?.scale ?? 1
        var features = CandidateFeatures.geometry(
            quad, width: width, height: height, flatFrame: context.flatFrame,
            isWholeFrame: offer.generator == .wholeFrame)
        if let work = front?.work {
            // The sides off the frame's edge, each measured once for the score and the supports.
            let measured = work.lineScoreAndSupports(quad, scale: scale, width: width, height: height)
            let score = measured.score
            features[CandidateFeatures.lineScoreColumn] = context.bestScore > 0 ? min(1, score / context.bestScore) : 0
            let supports = measured.supports.map { offer.insideBrighter ? $0.bright : $0.dark }
            features[CandidateFeatures.supportMinColumn] = supports.min() ?? 0
            features[CandidateFeatures.supportMeanColumn] =
                supports.isEmpty ? 0 : supports.reduce(0, +) / Double(supports.count)
            features[CandidateFeatures.glassColumn] = Self.glassSide(
                of: quad, lines: context.lines, work: work, scale: scale, width: width, height: height)
        }
        features[CandidateFeatures.regionColumn] = context.region.map { quad.intersectionOverUnion(with: $0) } ?? 0
        return PageVerifier.fitted.partialLogOdds(features, columns: CandidateFeatures.cheapColumns)
    }
}
