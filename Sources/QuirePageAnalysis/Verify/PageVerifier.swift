#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Scores every page candidate with one fitted model: the probability that the candidate is
/// the page (IoU >= 0.9 with the true page), from its `CandidateFeatures` (issue 36, section 2).
///
/// Why logistic regression rather than boosted stumps: its output is a calibrated probability by
/// construction (the fit maximises the likelihood of the labels, so on the training data the
/// mean predicted probability in any group of candidates matches the share that are the page),
/// which is what the reported confidence must be; it has one weight per named feature, so a
/// weight can be read and argued with; it fits by a few Newton steps, deterministically, with no
/// learning rate, depth or number of rounds to choose; and a few hundred labelled photos hold
/// too few positives for trees to split on without overfitting.
public struct PageVerifier: Sendable, Equatable {
    /// The intercept, then one weight per feature, on standardised features.
    public var weights: [Double]
    /// Each feature's mean and standard deviation over the training candidates.
    public var means: [Double]
    public var scales: [Double]
    /// Platt's calibration of the log-odds (`fitCalibrated`): the probability reported is
    /// σ(slope·z + offset); 1 and 0 leave the model's own.
    public var calibrationSlope: Double
    public var calibrationOffset: Double

    /// The lowest probability at which a candidate quad is reported as the page; under it the
    /// whole frame is kept. Equal to the detector's `minConfidence`, so every quad reported is
    /// one reported "sure" (the 0.75 that the 97 % target is stated for).
    public static let minimumProbability = 0.75

    /// A verifier with these weights (intercept first) on features standardised by `means` and
    /// `scales`, its log-odds calibrated by `calibrationSlope` and `calibrationOffset`.
    public init(
        weights: [Double], means: [Double], scales: [Double], calibrationSlope: Double = 1,
        calibrationOffset: Double = 0
    ) {
        self.weights = weights
        self.means = means
        self.scales = scales
        self.calibrationSlope = calibrationSlope
        self.calibrationOffset = calibrationOffset
    }

    /// The model's log-odds that a candidate with these features is the page, uncalibrated.
    public func logOdds(_ features: [Double]) -> Double {
        var z = weights[0]
        for i in 0..<min(features.count, weights.count - 1) {
            z += weights[i + 1] * (features[i] - means[i]) / scales[i]
        }
        return z
    }

    /// The model's log-odds from the features in `columns` alone, every other feature at its
    /// training mean (so it adds nothing): a ranking of candidates before they are measured.
    public func partialLogOdds(_ features: [Double], columns: [Int]) -> Double {
        var z = weights[0]
        for i in columns where i < min(features.count, weights.count - 1) {
            z += weights[i + 1] * (features[i] - means[i]) / scales[i]
        }
        return z
    }

    /// The calibrated probability that a candidate with these features is the page, at most
    /// `printedMatterCap` for one lying on printed paper that continues beyond it.
    public func probability(_ features: [Double]) -> Double {
        let p = 1 / (1 + exp(-(calibrationSlope * logOdds(features) + calibrationOffset)))
        return Self.liesOnPrintedPaper(features) ? min(p, Self.printedMatterCap) : p
    }

    /// The highest confidence for a quad lying on printed paper that continues beyond it: under
    /// `minimumProbability`, as a figure or a box printed on the sheet is not the sheet, whatever
    /// the model (fitted on few such photos) says (issue 36: no confident wrong page).
    public static let printedMatterCap = 0.5
    /// Paper continues beyond at least this share of the quad's four sides (`nested_on_paper`):
    /// three, where a sheet shows the desk or the frame's edge beyond most of its sides and a
    /// book's page the facing page beyond one.
    static let printedMatterPaperSides = 0.75
    /// ...and that paper carries print beyond at least this share of the sides (`print_beyond`):
    /// one, where a sheet on a pale desk has paper-like surroundings with nothing printed on them.
    static let printedMatterPrintSides = 0.25

    /// Whether a candidate's features say it lies on printed paper continuing beyond it.
    static func liesOnPrintedPaper(_ features: [Double]) -> Bool {
        let (paper, print) = (CandidateFeatures.nestedColumn, CandidateFeatures.printBeyondColumn)
        guard features.count > max(paper, print) else { return false }
        return features[paper] >= printedMatterPaperSides && features[print] >= printedMatterPrintSides
    }

    /// The highest confidence for the rules' quad when the verifier's own most probable quad is
    /// another one: under `minimumProbability`, as one of the two readings of the photo is wrong
    /// (issue 36: held-out book pages were sure at IoU 0.85 while the best candidate was the page).
    public static let disagreementCap = 0.5
    /// The verifier's best quad agrees with the rules' quad at this IoU or more: the IoU at which
    /// a quad counts as the page, so two quads that agree are both the page or both not.
    public static let agreementIoU = 0.9

    /// The rules' quad's probability `p`, capped at `disagreementCap` unless the most probable
    /// candidate among `features` that is not the whole frame has at least `agreementIoU` with the
    /// rules' quad (`iouWithRules`, one per candidate).
    public func agreed(_ p: Double, features: [[Double]], iouWithRules: [Double], isWholeFrame: [Bool]) -> Double {
        let quads = features.indices.filter { !isWholeFrame[$0] }
        let scored = quads.map { (index: $0, p: probability(features[$0])) }
        guard let best = scored.max(by: { $0.p < $1.p || ($0.p == $1.p && $0.index > $1.index) }) else { return p }
        return iouWithRules[best.index] >= Self.agreementIoU ? p : min(p, Self.disagreementCap)
    }

    /// The candidate chosen among `features` (one row per candidate): the most probable, unless
    /// it is the whole frame or under `minimumProbability`, when nil (keep the whole frame) is
    /// returned with a low confidence (the best quad's probability, at most 1 minus the frame's).
    public func choose(_ features: [[Double]], isWholeFrame: [Bool]) -> (index: Int?, probability: Double) {
        let p = features.map(probability)
        guard let best = p.indices.max(by: { p[$0] < p[$1] || (p[$0] == p[$1] && $0 > $1) }) else {
            return (nil, 0)
        }
        if !isWholeFrame[best], p[best] >= Self.minimumProbability { return (best, p[best]) }
        let quads = p.indices.filter { !isWholeFrame[$0] }
        let bestQuad = quads.map { p[$0] }.max() ?? 0
        let frame = p.indices.filter { isWholeFrame[$0] }.map { p[$0] }.max() ?? 0
        return (nil, min(bestQuad, 1 - frame, Self.minimumProbability.nextDown))
    }
}
