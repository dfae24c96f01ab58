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
    var heldOut: Bool

    /// Nil for an entry without `source` (the generated sets and the non-redistributable set).
    init?(entry: [String: Any]) {
        guard let name = entry["source"] as? String else { return nil }
        self.name = name
        heldOut = (entry["split"] as? String) == "held-out"
    }

    static func < (a: PhotoSource, b: PhotoSource) -> Bool {
        a.heldOut != b.heldOut ? a.heldOut : a.name < b.name
    }
}

/// Whatever is fitted from labelled photos (the verifier's weights, issue 36 section 2).
protocol SourceFit {}

/// The leave-one-source-out hook: fits, from every labelled photo except `source`'s, what the
/// detector learns from data, so that `source` is scored as a source the fit never saw.
/// Nothing in the detector is fitted yet (its thresholds are set by hand), so there is nothing
/// to refit and every source is scored by the rules alone; a fitted verifier goes here and its
/// result is handed to the detector for that source's photos.
func refit(excluding source: String, truth: [String: [String: Any]]) -> (any SourceFit)? {
    nil
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
                    ? "held-out sources (\(group.count); the rules were never tuned on them; leave-one-source-out, nothing fitted yet):"
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
