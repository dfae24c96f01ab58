// Scores per public source, held-out sources first (issue 36, section 1).
//
// The real photos' truth entries name the repository they come from (`source`) and say whether
// the detector's rules were tuned on that source before it was scored (`split`: "tuned-on") or
// not ("held-out"). Figures on tuned-on sources are in-sample: the rules were shaped by looking
// at those photos, so they overstate what a new user gets. The held-out figures are the headline.

import QuireImaging

/// One public source of real photos, and whether the rules were tuned on it.
struct PhotoSource: Hashable, Comparable {
    var name: String
    /// Held out whole by the verifier's refits (`CandidateRow.publisher`).
    var publisher: String
    var heldOut: Bool

    /// Nil for an entry without `source` (the generated sets and the non-redistributable set).
    init?(entry: [String: Any]) {
        guard let name = entry["source"] as? String else { return nil }
        self.name = name
        publisher = entry["publisher"] as? String ?? CandidateRow.owner(of: name)
        heldOut = (entry["split"] as? String) == "held-out"
    }

    static func < (a: PhotoSource, b: PhotoSource) -> Bool {
        a.heldOut != b.heldOut ? a.heldOut : a.name < b.name
    }
}

/// The leave-one-publisher-out hook: the verifier fitted (`PageVerifier.fit`, the one fit) on the
/// candidate table's rows of every publisher except `publisher`, so that each of its sources is
/// scored as one the fit never saw, nor any sibling repository of it. The hand-set rules are not
/// fitted and score every source as they are.
func refit(excluding publisher: String, rows: [CandidateRow]) -> PageVerifier {
    let training = rows.filter { $0.publisher != publisher }
    return PageVerifier.fitCalibrated(rows: training)
}

/// Per-source scores of one photo set, printed held-out first, then in-sample, each labelled.
struct SourceReport {
    var scores: [PhotoSource: Scores] = [:]

    mutating func add(_ source: PhotoSource, truth: Quad, quad: Quad?, width: Int, height: Int, confidence: Double) {
        scores[source, default: Scores()].add(
            truth: truth, quad: quad, width: width, height: height, ms: nil,
            confidence: confidence)
    }

    func lines() -> [String] {
        guard !scores.isEmpty else { return [] }
        var out: [String] = []
        for heldOut in [true, false] {
            let group = scores.keys.filter { $0.heldOut == heldOut }.sorted()
            out.append(
                heldOut
                    ? "held-out sources (\(group.count); the rules were never tuned on them; the rules: nothing fitted):"
                    : "in-sample: tuned-on sources (\(group.count); the rules were tuned on these photos):")
            guard !group.isEmpty else { continue }
            var all = Scores()
            for source in group { all.merge(scores[source]!) }
            out.append(all.line(heldOut ? "HELD-OUT" : "TUNED-ON"))
            for source in group { out.append("  " + scores[source]!.line(source.name)) }
        }
        return out
    }
}

extension Scores {
    /// Pools another set's photos into this one (a group of sources).
    mutating func merge(_ other: Scores) {
        ious += other.ious
        cornerErrors += other.cornerErrors
        ms += other.ms
        found += other.found
        if let n = other.sure { sure = (sure ?? 0) + n }
        sureOff += other.sureOff
        aspectErrors += other.aspectErrors
    }
}
