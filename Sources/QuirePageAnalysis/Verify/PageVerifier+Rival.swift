/// A small rules' quad weighed against the larger candidates (issue 36): the rules close on a
/// marker card, a label or a box beside or on the page, and the decision kept their quad even when
/// the verifier scored the page higher. When the rules' quad is small, the verifier chooses.
extension PageVerifier {
    /// The rules' quad is weighed against its rivals only when it covers less than this share of
    /// the frame: a card or a label the rules closed on, where the page is larger. A page this
    /// small is rare, and its rival must then also beat it by `rivalMargin`. The area and the
    /// margin were chosen in leave-one-publisher-out folds on the candidate table (the generated
    /// set's fold chose them; docs/correction.md).
    public static let rivalArea = 0.1
    /// A rival replaces the rules' quad only when its probability exceeds the rules' quad's by more
    /// than this: a small true page near a larger wrong quad the model barely prefers stays.
    public static let rivalMargin = 0.05
    static let areaColumn = CandidateFeatures.names.firstIndex(of: "area_fraction")!

    /// The candidate that replaces the rules' quad, with its confidence, or nil to keep the rules'
    /// quad. `features` holds every candidate (one `isRules`, the whole frame flagged by
    /// `isWholeFrame`), `iouWithRules` each one's IoU with the rules' quad. A rival is larger than
    /// the rules' quad, not the whole frame, not the same reading (IoU under `agreementIoU`) and
    /// `allowed`; the most probable one replaces a rules' quad under `area` of the frame when it is
    /// more probable by more than `margin`. Its confidence is capped at `disagreementCap` unless it
    /// is the most probable quad of all (the agreement rule, `agreed`, applied to the rival).
    public func rival(
        features: [[Double]], iouWithRules: [Double], isRules: [Bool], isWholeFrame: [Bool],
        area: Double = PageVerifier.rivalArea, margin: Double = PageVerifier.rivalMargin,
        allowed: (Int) -> Bool = { _ in true }
    ) -> (index: Int, confidence: Double)? {
        let column = Self.areaColumn
        guard let rules = features.indices.first(where: { isRules[$0] }), features[rules].count > column,
            features[rules][column] < area
        else { return nil }
        let p = features.map(probability)
        let rivals = features.indices.filter {
            !isRules[$0] && !isWholeFrame[$0] && iouWithRules[$0] < Self.agreementIoU
                && features[$0][column] > features[rules][column] && allowed($0)
        }
        func top(_ among: [Int]) -> Int? { among.max { p[$0] < p[$1] || (p[$0] == p[$1] && $0 > $1) } }
        guard let chosen = top(rivals), p[chosen] > p[rules] + margin else { return nil }
        let best = top(features.indices.filter { !isWholeFrame[$0] })
        return (chosen, best == chosen ? p[chosen] : min(p[chosen], Self.disagreementCap))
    }
}

/// A kept whole frame weighed against the verifier's best quad (issue 36): the rules keep the frame
/// when no quad of theirs is sure enough, or when they take a photo for a scan (a book page
/// photographed flat), while another generator may have proposed the page. A kept frame is harmful
/// when the page is smaller; a quad taken against the rules may be wrong.
extension PageVerifier {
    /// The quad that replaces the whole frame the rules kept, with its confidence, or nil to keep
    /// the frame. `features` holds every candidate, the whole frame flagged by `isWholeFrame`. The
    /// most probable quad that is not the whole frame replaces it when it is another reading of the
    /// photo (it covers under `agreementIoU` of the frame: its IoU with the frame, for a quad inside
    /// it; a scan's quad a hair inside its border is the same reading), its probability reaches
    /// `minimumProbability` (the verifier alone would report it sure) and exceeds the frame's.
    /// Its confidence is capped at `disagreementCap`: the rules and the verifier read the photo
    /// differently, so one of them is wrong (as for a rules' quad the verifier does not agree with,
    /// `agreed`), and an uncapped quad made right pages sure but also wrong ones (issue 36).
    public func replacingFrame(features: [[Double]], isWholeFrame: [Bool]) -> (index: Int, confidence: Double)? {
        let p = features.map(probability)
        let quads = features.indices.filter { !isWholeFrame[$0] }
        guard let best = quads.max(by: { p[$0] < p[$1] || (p[$0] == p[$1] && $0 > $1) }),
            features[best].count > Self.areaColumn, features[best][Self.areaColumn] < Self.agreementIoU,
            p[best] >= Self.minimumProbability
        else { return nil }
        let frame = features.indices.filter { isWholeFrame[$0] }.map { p[$0] }.max() ?? 0
        guard p[best] > frame else { return nil }
        return (best, min(p[best], Self.disagreementCap))
    }

    /// `replacingFrame` without measuring every candidate in full (the check's cost on scans):
    /// `optimistic` holds each candidate's row with its costly columns set to what makes it most
    /// probable, so no row is less probable than its candidate measured in full (`exact`). Only the
    /// quads whose optimistic row reaches `minimumProbability`, and then the frame, are measured in
    /// full. The choice is the same as from every row measured: a chosen quad reaches the bar, so
    /// it was measured and outscores every quad left optimistic (under the bar even at best); when
    /// no quad reaches it, none does optimistically either, and the frame is kept.
    public func replacingFrame(optimistic: [[Double]], isWholeFrame: [Bool], exact: (Int) -> [Double])
        -> (index: Int, confidence: Double)?
    {
        let open = optimistic.indices.filter {
            !isWholeFrame[$0] && probability(optimistic[$0]) >= Self.minimumProbability
        }
        guard !open.isEmpty else { return nil }
        var rows = optimistic
        for i in rows.indices where isWholeFrame[i] || open.contains(i) { rows[i] = exact(i) }
        return replacingFrame(features: rows, isWholeFrame: isWholeFrame)
    }
}
