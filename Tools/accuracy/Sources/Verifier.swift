// The fitted verifier's table, fit and held-out scores (issue 36, section 2).
//
//   QuireAccuracy --dump-candidates TABLE.tsv DATASET...   every candidate of every labelled photo
//   QuireAccuracy --fit-verifier TABLE.tsv OUT.swift        the weights fitted on the whole table
//   QuireAccuracy --verifier-report TABLE.tsv [CSV]         leave-one-publisher-out against the rules
//
// The report scores both decisions on the same candidates: the verifier's (refitted without the
// scored source's candidates) and the rules' (their quad when they report one, else the whole
// frame). A photo kept whole is scored as its whole frame, for both.
import Foundation
import QuireImaging

/// The photo set a dataset folder holds, and its source and split for photos without `source`.
/// Nil for the photos that may not be redistributed (not dumped into the committed table).
func candidateSet(_ dataset: String) -> String? {
    if dataset.hasSuffix("real-photos") || dataset.hasSuffix("real-photos/") { return "real" }
    if dataset.contains("generated") { return "generated" }
    if dataset.contains("synthetic") { return "synthetic" }
    return nil
}

/// Writes the candidate table of `datasets` (photo sets with corners) to `table`.
func dumpCandidates(datasets: [String], to table: String) throws {
    var out = CandidateTable.header + "\n"
    for dataset in datasets {
        guard let set = candidateSet(dataset) else {
            print("\(dataset): not a redistributable set, not dumped"); continue
        }
        let truthPath = (dataset as NSString).appendingPathComponent("truth.json")
        guard let truth = (try? readJSON(truthPath)) as? [String: [String: Any]] else {
            print("\(dataset): no truth.json, skipped"); continue
        }
        var rows = 0
        for name in truth.keys.sorted() {
            guard let entry = truth[name], let t = quad(from: entry["corners"]), entry["pages"] == nil else { continue }
            let path = (dataset as NSString).appendingPathComponent(name)
            for row in try candidateRows(path: path, photo: name, set: set, entry: entry, truth: t) {
                out += CandidateTable.line(row) + "\n"
                rows += 1
            }
        }
        print("\(dataset): \(rows) candidates")
    }
    try out.write(toFile: table, atomically: true, encoding: .utf8)
}

/// The labelled rows of one photo.
func candidateRows(path: String, photo: String, set: String, entry: [String: Any], truth: Quad) throws -> [CandidateRow]
{
    let found = try Detector.candidates(file: path)
    let source = entry["source"] as? String ?? set
    let split = entry["split"] as? String ?? "generated"
    let rules = found.rules.quad?.readingOrdered()
    return found.candidates.map {
        CandidateRow(
            set: set, source: source, split: split, photo: photo, generator: $0.generator.rawValue,
            iou: truth.intersectionOverUnion(with: $0.quad), rulesConfidence: found.rules.confidence,
            rulesIoU: rules.map($0.quad.intersectionOverUnion) ?? 0, features: $0.features)
    }
}

/// Fits the verifier on every row of `table` and writes its weights as Swift to `output`.
func fitVerifier(table: String, output: String) throws {
    let rows = try CandidateTable.parse(String(contentsOfFile: table, encoding: .utf8))
    let verifier = PageVerifier.fitCalibrated(rows: rows)
    try verifier.generatedSource(table: table).write(toFile: output, atomically: true, encoding: .utf8)
    print("fitted on \(rows.count) candidates (\(rows.filter(\.isPage).count) the page) -> \(output)")
    for (name, w) in zip(["intercept"] + PageCandidate.featureNames, verifier.weights) {
        print(String(format: "  %-20@ %+.3f", name as NSString, w))
    }
    print(
        String(
            format: "calibration (Platt, leave-one-publisher-out): p = sigma(%.3f z %+.3f)", verifier.calibrationSlope,
            verifier.calibrationOffset))
}

/// One photo's decision: the IoU of what the user gets, the confidence, whether a quad is reported.
struct Decision {
    var iou: Double
    var confidence: Double
    var quad: Bool
    var photo = ""
}

/// Figures of a group of decisions, as the accuracy lines print them.
struct DecisionScores {
    var decisions: [Decision] = []

    func line(_ name: String) -> String {
        guard !decisions.isEmpty else { return "\(name): none" }
        let n = Double(decisions.count)
        let mean = decisions.reduce(0) { $0 + $1.iou } / n
        let good = Double(decisions.filter { $0.iou >= 0.9 }.count) / n
        let harmful = decisions.filter { $0.iou < 0.6 }.count
        let sure = decisions.filter { $0.quad && $0.confidence >= 0.75 }
        let off = sure.filter { $0.iou < 0.9 }.count
        return String(
            format:
                "%-34@ n=%3d  meanIoU=%.4f  IoU>=0.9: %5.1f%%  harmful(IoU<0.6)=%d  sure(conf>=0.75)=%d under IoU 0.9: %d",
            name as NSString, decisions.count, mean, good * 100, harmful, sure.count, off)
    }
}

/// Leave-one-source-out against the rules, on the table's candidates; the reliability curve of
/// the held-out probabilities (written to `curve` as CSV when given).
func verifierReport(table: String, curve: String?) throws {
    let rows = try CandidateTable.parse(String(contentsOfFile: table, encoding: .utf8))
    let sources = Array(Set(rows.map(\.source))).sorted()
    let publishers = Array(Set(rows.map(\.publisher))).sorted()
    var photos: [String: [CandidateRow]] = [:]
    for row in rows { photos[row.set + "/" + row.photo, default: []].append(row) }
    func decide(_ rows: [CandidateRow], _ verifier: PageVerifier) -> Decision {
        let choice = verifier.choose(rows.map(\.features), isWholeFrame: rows.map { $0.generator == "frame" })
        let frame = rows.first { $0.generator == "frame" }?.iou ?? 0
        return Decision(
            iou: choice.index.map { rows[$0].iou } ?? frame, confidence: choice.probability, quad: choice.index != nil)
    }
    func rules(_ rows: [CandidateRow]) -> Decision {
        let frame = rows.first { $0.generator == "frame" }?.iou ?? 0
        let quad = rows.first { $0.generator == "rules" }
        return Decision(
            iou: quad?.iou ?? frame, confidence: rows[0].rulesConfidence, quad: quad != nil, photo: rows[0].photo)
    }
    // What is reported now: the rules' choice, the verifier's probability as its confidence.
    func reported(_ rows: [CandidateRow], _ verifier: PageVerifier) -> Decision {
        var decision = rules(rows)
        if let quad = rows.first(where: { $0.generator == "rules" }) {
            decision.confidence = verifier.probability(quad.features)
        }
        return decision
    }
    let inSample = PageVerifier.fitCalibrated(rows: rows)
    // group name -> (rules' choice at the held-out verifier's confidence, and capped unless agreed)
    var agreement: [String: (DecisionScores, DecisionScores)] = [:]
    // group name -> (held-out verifier, in-sample verifier, rules, rules' choice at the held-out
    // verifier's confidence, at the in-sample one's)
    var groups: [String: (DecisionScores, DecisionScores, DecisionScores, DecisionScores, DecisionScores)] = [:]
    var bySource: [String: (DecisionScores, DecisionScores)] = [:]
    var heldOutProbabilities: [(p: Double, page: Bool, real: Bool)] = []
    var policies = PolicyScores()
    for publisher in publishers {
        let training = rows.filter { $0.publisher != publisher }
        // Fitted and calibrated without the scored publisher's sources (the calibration's own
        // leave-one-publisher-out runs inside the training publishers).
        let verifier = PageVerifier.fitCalibrated(rows: training)
        let others = photos.values.filter { $0[0].publisher != publisher }.sorted { $0[0].photo < $1[0].photo }
        let own = photos.sorted(by: { $0.key < $1.key }).map(\.value).filter { $0[0].publisher == publisher }
        policies.add(
            scored: own.map { rows in
                let group = rows[0].split == "generated" ? "generated (\(rows[0].set))" : rows[0].split
                return (rows, group, agreed(reported(rows, verifier), rows, verifier))
            },
            training: others.map { ($0, agreed(reported($0, verifier), $0, verifier)) }, verifier: verifier)
        for (_, candidates) in photos.sorted(by: { $0.key < $1.key }) where candidates[0].publisher == publisher {
            let source = candidates[0].source
            let split = candidates[0].split
            let group = split == "generated" ? "generated (\(candidates[0].set))" : split
            let held = decide(candidates, verifier), fitted = decide(candidates, inSample), rule = rules(candidates)
            var g =
                groups[group] ?? (
                    DecisionScores(), DecisionScores(), DecisionScores(), DecisionScores(), DecisionScores()
                )
            g.0.decisions.append(held); g.1.decisions.append(fitted); g.2.decisions.append(rule)
            g.3.decisions.append(reported(candidates, verifier)); g.4.decisions.append(reported(candidates, inSample))
            groups[group] = g
            var a = agreement[group] ?? (DecisionScores(), DecisionScores())
            a.0.decisions.append(reported(candidates, verifier))
            a.1.decisions.append(agreed(reported(candidates, verifier), candidates, verifier))
            agreement[group] = a
            var s = bySource[source] ?? (DecisionScores(), DecisionScores())
            s.0.decisions.append(held); s.1.decisions.append(rule)
            bySource[source] = s
            for c in candidates {
                heldOutProbabilities.append((verifier.probability(c.features), c.isPage, c.set == "real"))
            }
        }
    }
    print(
        "verifier: \(rows.count) candidates of \(photos.count) photos from \(sources.count) sources of "
            + "\(publishers.count) publishers (each held out whole)")
    for group in ["held-out", "tuned-on"] + groups.keys.filter({ $0.hasPrefix("generated") }).sorted() {
        guard let g = groups[group] else { continue }
        print("== \(group) sources")
        print(g.0.line("verifier, leave-one-publisher-out"))
        print(g.1.line("verifier, in-sample (all sources)"))
        print(g.2.line("rules" + (group == "tuned-on" ? " (in-sample: tuned here)" : "")))
        print(g.3.line("rules, verifier confidence, held out"))
        print(g.4.line("rules, verifier confidence, in-sample"))
    }
    printAllReal(Array(groups.filter { $0.key == "held-out" || $0.key == "tuned-on" }.values))
    printAgreement(agreement)
    policies.print(groups: ["held-out", "tuned-on"] + groups.keys.filter({ $0.hasPrefix("generated") }).sorted())
    printInSamplePolicies(photos, inSample, shipped: { agreed(reported($0, inSample), $0, inSample) })
    printHarmful(photos)
    print("per source (verifier held out | rules):")
    for source in sources {
        guard let s = bySource[source] else { continue }
        let mean = { (d: DecisionScores) in d.decisions.reduce(0) { $0 + $1.iou } / Double(d.decisions.count) }
        print(
            String(
                format: "  %-52@ n=%3d  %.3f | %.3f", source as NSString, s.0.decisions.count, mean(s.0),
                mean(s.1)))
    }
    try printReliability(heldOutProbabilities, curve: curve)
}

/// The pooled real photos' lines (held-out verifier, in-sample verifier, rules, rules' choice at
/// the held-out and in-sample verifier's confidence) and the quads reported sure but wrong.
func printAllReal(_ real: [(DecisionScores, DecisionScores, DecisionScores, DecisionScores, DecisionScores)]) {
    var allReal = (DecisionScores(), DecisionScores(), DecisionScores(), DecisionScores(), DecisionScores())
    for g in real {
        allReal.0.decisions += g.0.decisions; allReal.1.decisions += g.1.decisions; allReal.2.decisions += g.2.decisions
        allReal.3.decisions += g.3.decisions; allReal.4.decisions += g.4.decisions
    }
    print("== all real photos")
    print(allReal.0.line("verifier, leave-one-publisher-out"))
    print(allReal.1.line("verifier, in-sample (all sources)"))
    print(allReal.2.line("rules"))
    print(allReal.3.line("rules, verifier confidence, held out"))
    print(allReal.4.line("rules, verifier confidence, in-sample"))
    for (name, scores) in [("verifier's choice", allReal.0), ("rules' choice, verifier confidence", allReal.3)] {
        let sure = scores.decisions.filter { $0.quad && $0.confidence >= 0.75 }
        let wrong = sure.filter { $0.iou < 0.9 }.count
        print(
            String(
                format: "real photos, held out, %@: %d of %d quads at confidence >= 0.75 wrong (%.1f %%)",
                name as NSString, wrong, sure.count, sure.isEmpty ? 0 : Double(wrong) / Double(sure.count) * 100))
        for d in sure where d.iou < 0.9 && !d.photo.isEmpty {
            print(String(format: "  %@ IoU %.3f at %.2f", d.photo as NSString, d.iou, d.confidence))
        }
    }
}

/// The rules' choice `decision`, its confidence capped unless the verifier's own best quad
/// agrees with the rules' (`PageVerifier.agreed`).
func agreed(_ decision: Decision, _ rows: [CandidateRow], _ verifier: PageVerifier) -> Decision {
    guard decision.quad else { return decision }
    var capped = decision
    capped.confidence = verifier.agreed(
        decision.confidence, features: rows.map(\.features), iouWithRules: rows.map(\.rulesIoU),
        isWholeFrame: rows.map { $0.generator == "frame" })
    return capped
}

/// The rules' choice at the held-out verifier's confidence, without and with the cap unless the
/// verifier's own best quad agrees (`PageVerifier.agreed`), per group and for all real photos.
func printAgreement(_ groups: [String: (DecisionScores, DecisionScores)]) {
    var real = (DecisionScores(), DecisionScores())
    for (group, g) in groups where group == "held-out" || group == "tuned-on" {
        real.0.decisions += g.0.decisions; real.1.decisions += g.1.decisions
    }
    print("== agreement: rules' choice, held-out verifier confidence, without | with the cap unless agreed")
    for (group, g) in groups.sorted(by: { $0.key < $1.key }) + [("all real", real)] {
        print(g.0.line("\(group): without"))
        print(g.1.line("\(group): agreed"))
        let lost = zip(g.0.decisions, g.1.decisions).filter {
            $0.0.quad && $0.0.confidence >= 0.75 && $0.0.iou >= 0.9 && $0.1.confidence < 0.75
        }
        let caught = zip(g.0.decisions, g.1.decisions).filter {
            $0.0.quad && $0.0.confidence >= 0.75 && $0.0.iou < 0.9 && $0.1.confidence < 0.75
        }
        print("  right sure quads losing sure: \(lost.count); wrong sure quads no longer sure: \(caught.count)")
        for (d, _) in lost + caught where !d.photo.isEmpty {
            print(String(format: "    %@ IoU %.3f at %.2f", d.photo as NSString, d.iou, d.confidence))
        }
        let wrong = g.1.decisions.filter { $0.quad && $0.confidence >= 0.75 && $0.iou < 0.9 }
        print("  still sure and wrong with the cap: \(wrong.count)")
        for d in wrong where !d.photo.isEmpty {
            print(String(format: "    %@ IoU %.3f at %.2f", d.photo as NSString, d.iou, d.confidence))
        }
    }
}

/// The real photos where the rules' choice (their quad, else the whole frame) is harmful (IoU
/// < 0.6), by split, each with its best candidate: whether a right quad was proposed at all.
func printHarmful(_ photos: [String: [CandidateRow]]) {
    print("harmful real photos (rules' choice IoU < 0.6) and their best candidate:")
    for split in ["held-out", "tuned-on"] {
        for (_, rows) in photos.sorted(by: { $0.key < $1.key }) where rows[0].set == "real" && rows[0].split == split {
            let chosen = rows.first { $0.generator == "rules" } ?? rows.first { $0.generator == "frame" }
            guard let chosen, chosen.iou < 0.6, let best = rows.max(by: { $0.iou < $1.iou }) else { continue }
            print(
                String(
                    format: "  %@ %@: %@ IoU %.3f; best candidate %@ IoU %.3f%@", split as NSString,
                    rows[0].photo as NSString, chosen.generator as NSString, chosen.iou, best.generator as NSString,
                    best.iou, best.iou >= 0.9 ? " (right)" : ""))
        }
    }
}

/// The reliability curve: every candidate's held-out probability against whether it is the page
/// (written to `curve` as CSV when given).
func printReliability(_ heldOutProbabilities: [(p: Double, page: Bool, real: Bool)], curve: String?) throws {
    var csv = "set,bin_low,bin_high,candidates,mean_predicted,observed\n"
    for (label, keep) in [("real", true), ("generated", false)] {
        print("reliability (\(label) photos' candidates, leave-one-publisher-out):")
        print("  predicted    n  mean predicted  observed")
        let chosen = heldOutProbabilities.filter { $0.real == keep }
        for b in 0..<10 {
            let low = Double(b) / 10, high = Double(b + 1) / 10
            let bin = chosen.filter { $0.p >= low && ($0.p < high || (b == 9 && $0.p <= 1)) }
            guard !bin.isEmpty else { continue }
            let predicted = bin.reduce(0) { $0 + $1.p } / Double(bin.count)
            let observed = Double(bin.filter(\.page).count) / Double(bin.count)
            print(String(format: "  %.1f-%.1f %5d  %14.3f  %8.3f", low, high, bin.count, predicted, observed))
            csv += String(
                format: "%@,%.1f,%.1f,%d,%.4f,%.4f\n", label as NSString, low, high, bin.count, predicted, observed)
        }
    }
    if let curve { try csv.write(toFile: curve, atomically: true, encoding: .utf8) }
}

/// Each kind's policy chosen on every photo with the in-sample verifier (what the detector would
/// ship), scored in-sample per split beside the shipped decision.
func printInSamplePolicies(
    _ photos: [String: [CandidateRow]], _ verifier: PageVerifier, shipped: ([CandidateRow]) -> Decision
) {
    let all = photos.sorted(by: { $0.key < $1.key }).map { ($0.value, shipped($0.value)) }
    for kind in RivalKind.allCases {
        let policy = CandidatePolicy.chosen(kind, photos: all, verifier: verifier)
        print("  \(kind.rawValue), chosen on every photo (in-sample verifier): \(policy.label)")
        for split in ["held-out", "tuned-on", "generated"] {
            let mine = all.filter { $0.0[0].split == split }
            var before = DecisionScores(), after = DecisionScores()
            before.decisions = mine.map(\.1)
            after.decisions = mine.map { policy.decide($0.0, shipped: $0.1, verifier: verifier) }
            print(before.line("    \(split), in-sample: shipped"))
            print(after.line("    \(split), in-sample: policy"))
        }
    }
}
