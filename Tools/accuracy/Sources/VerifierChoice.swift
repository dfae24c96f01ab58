import Foundation
import QuireImaging

// The candidate policy of the verifier report (issue 36, idea 1): when the rules' quad is small,
// the verifier chooses among it and the larger candidates that are another reading of the photo.
//
// The shipped decision keeps the rules' quad and takes only its confidence from the verifier, so
// a photo whose rules' quad is a marker card or a box printed beside the page is harmful even when
// a right candidate was proposed. The policy's area threshold and margin are chosen inside each
// leave-one-publisher-out fold, on the other publishers' photos, so the report's held-out line
// scores a rule that never saw the photo's publisher.

/// Which candidates the verifier may take instead of the rules' quad.
enum RivalKind: String, CaseIterable {
    /// Candidates holding the rules' quad (a card or a figure on the page).
    case holding = "holding"
    /// Any candidate larger than the rules' quad (a card beside the page, on the glass or desk).
    case larger = "larger"
}

/// The policy: when the rules' quad covers less than `maximumArea` of the frame, the most probable
/// rival (`kind`, and not the same reading: IoU with the rules' quad under
/// `PageVerifier.agreementIoU`) replaces it if its probability exceeds the rules' quad's by more
/// than `margin` (`PageVerifier.rival`; the detector uses its `rivalArea` and `rivalMargin`).
struct CandidatePolicy: Equatable {
    var kind: RivalKind
    var maximumArea: Double
    var margin: Double

    /// The areas (share of the frame) and margins the fold chooses from; an area above 1 lets
    /// the policy act on every rules' quad.
    static let areas = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 1.01]
    static let margins = [0.0, 0.05, 0.1, 0.2]
    /// A rival holds the rules' quad when they share at least this much of the rules' quad's area.
    static let heldShare = 0.9
    static let areaColumn = CandidateFeatures.names.firstIndex(of: "area_fraction")!

    var label: String { String(format: "%@, area < %.2f, margin %.2f", kind.rawValue, maximumArea, margin) }

    /// Whether `row` may be taken for the rules' quad `rules` under this policy's kind (the
    /// other conditions are `PageVerifier.rival`'s).
    func isAllowed(_ row: CandidateRow, of rules: CandidateRow) -> Bool {
        if kind == .larger { return true }
        // The IoU and the two areas give the shared area: u (a + b) / (1 + u).
        let (small, big, u) = (rules.features[Self.areaColumn], row.features[Self.areaColumn], row.rulesIoU)
        return u > 0 && u * (small + big) / (1 + u) >= Self.heldShare * small
    }

    /// The decision under this policy (`PageVerifier.rival`, as the detector decides): `shipped`
    /// (the rules' choice, the verifier's confidence, capped unless agreed) or the rival the
    /// verifier prefers; when the rules kept the whole frame, the quad that replaces it
    /// (`PageVerifier.replacingFrame`), if any.
    func decide(_ rows: [CandidateRow], shipped: Decision, verifier: PageVerifier) -> Decision {
        guard let rules = rows.first(where: { $0.generator == "rules" }) else {
            // The rules kept the whole frame: the verifier's sure quad may replace it, capped.
            guard
                let taken = verifier.replacingFrame(
                    features: rows.map(\.features), isWholeFrame: rows.map { $0.generator == "frame" })
            else { return shipped }
            return Decision(iou: rows[taken.index].iou, confidence: taken.confidence, quad: true, photo: shipped.photo)
        }
        guard
            let chosen = verifier.rival(
                features: rows.map(\.features), iouWithRules: rows.map(\.rulesIoU),
                isRules: rows.map { $0.generator == "rules" }, isWholeFrame: rows.map { $0.generator == "frame" },
                area: maximumArea, margin: margin, allowed: { isAllowed(rows[$0], of: rules) })
        else { return shipped }
        return Decision(iou: rows[chosen.index].iou, confidence: chosen.confidence, quad: true, photo: shipped.photo)
    }

    /// The policy of `kind` chosen on `photos` (each photo's rows and its shipped decision) with
    /// `verifier`: the fewest harmful photos, then the highest mean IoU, then the larger margin
    /// and the smaller area, among those adding no sure-and-wrong quad and no harmful generated
    /// photo to the shipped decision's.
    static func chosen(_ kind: RivalKind, photos: [([CandidateRow], Decision)], verifier: PageVerifier)
        -> CandidatePolicy
    {
        func counts(_ decisions: [Decision]) -> (harmful: Int, wrong: Int, generated: Int, total: Double) {
            let harmful = decisions.map { $0.iou < 0.6 }
            return (
                harmful.filter { $0 }.count,
                decisions.filter { $0.quad && $0.confidence >= 0.75 && $0.iou < 0.9 }.count,
                zip(photos, harmful).filter { $0.0.0[0].set == "generated" && $0.1 }.count,
                decisions.reduce(0) { $0 + $1.iou }
            )
        }
        let base = counts(photos.map(\.1))
        var best: (CandidatePolicy, (harmful: Int, wrong: Int, generated: Int, total: Double))? = nil
        for margin in margins.reversed() {
            for area in areas {
                let policy = CandidatePolicy(kind: kind, maximumArea: area, margin: margin)
                let c = counts(photos.map { policy.decide($0.0, shipped: $0.1, verifier: verifier) })
                guard c.wrong <= base.wrong, c.generated <= base.generated else { continue }
                if let b = best?.1, (c.harmful, -c.total) >= (b.harmful, -b.total) { continue }
                best = (policy, c)
            }
        }
        return best?.0 ?? CandidatePolicy(kind: kind, maximumArea: 0, margin: 0)
    }
}

/// The shipped decision and each kind's policy, chosen inside the fold, per group; and the
/// policies chosen on every photo with the in-sample verifier (what the detector would ship).
struct PolicyScores {
    var shipped: [String: DecisionScores] = [:]
    var held: [RivalKind: [String: DecisionScores]] = [:]
    var chosenPerFold: [RivalKind: [String]] = [:]
    var changed: [RivalKind: [String]] = [:]
    /// The policy the detector ships (`PageVerifier.rivalArea`, `rivalMargin`, larger rivals).
    var detector: [String: DecisionScores] = [:]
    static let shippedPolicy = CandidatePolicy(
        kind: .larger, maximumArea: PageVerifier.rivalArea, margin: PageVerifier.rivalMargin)

    /// Scores one fold: `scored` are the held-out publisher's photos (rows, group, shipped
    /// decision), `training` the other publishers' (rows, shipped decision) with the same verifier.
    mutating func add(
        scored: [([CandidateRow], String, Decision)], training: [([CandidateRow], Decision)], verifier: PageVerifier
    ) {
        for (rows, group, d) in scored {
            shipped[group, default: DecisionScores()].decisions.append(d)
            detector[group, default: DecisionScores()].decisions.append(
                Self.shippedPolicy.decide(rows, shipped: d, verifier: verifier))
        }
        for kind in RivalKind.allCases {
            let policy = CandidatePolicy.chosen(kind, photos: training, verifier: verifier)
            chosenPerFold[kind, default: []].append(policy.label)
            for (rows, group, d) in scored {
                let new = policy.decide(rows, shipped: d, verifier: verifier)
                held[kind, default: [:]][group, default: DecisionScores()].decisions.append(new)
                if abs(new.iou - d.iou) > 1e-9 || (new.confidence >= 0.75) != (d.confidence >= 0.75) {
                    changed[kind, default: []].append(
                        String(
                            format: "%@ %@ (%@): IoU %.3f at %.2f -> %.3f at %.2f", group as NSString,
                            d.photo as NSString, policy.label as NSString, d.iou, d.confidence, new.iou,
                            new.confidence))
                }
            }
        }
    }

    func print(groups: [String]) {
        Swift.print("== candidate policy: the verifier chooses among a small rules' quad and its rivals")
        Swift.print("   (area and margin chosen inside each leave-one-publisher-out fold)")
        for group in groups {
            guard let s = shipped[group] else { continue }
            Swift.print(s.line("\(group): rules' quad (agreed)"))
            if let d = detector[group] { Swift.print(d.line("\(group): detector's rival rule")) }
            for kind in RivalKind.allCases {
                if let h = held[kind]?[group] { Swift.print(h.line("\(group): policy, \(kind.rawValue)")) }
            }
        }
        for kind in RivalKind.allCases {
            let folds = chosenPerFold[kind] ?? []
            let tally = Dictionary(grouping: folds, by: { $0 }).map { "\($0.key) x\($0.value.count)" }.sorted()
            Swift.print("  \(kind.rawValue): chosen per fold: \(tally.joined(separator: "; "))")
            for line in changed[kind] ?? [] { Swift.print("    \(line)") }
        }
    }
}
