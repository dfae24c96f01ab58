/// The verifier's probability made to mean what it says on sources the fit never saw (issue 36,
/// section 2: on held-out sources, quads reported at >= 0.75 are the page >= 97 % of the time).
///
/// Why calibrate after the fit: logistic regression is calibrated on its own training candidates,
/// but the quad a decision reports is the one the model scores highest on a photo it never saw,
/// and there it is over-confident (a book scanner's page running on over the glass scored 0.96
/// with IoU 0.86). Platt's scaling (one slope and one offset on the log-odds) is fitted on those
/// reported quads' leave-one-publisher-out log-odds: two numbers, monotone, so the ranking and the
/// choice among candidates stay the model's, and too few for the ~150 reported quads to overfit
/// (isotonic regression would need far more to keep its steps stable at the top).
extension PageVerifier {
    /// The candidate table's set whose held-out reported quads the calibration is fitted on.
    public static let calibrationSet = "real"

    /// The verifier fitted on every row, its probability calibrated on the leave-one-publisher-out
    /// log-odds of the quads each real photo's decision may report.
    public static func fitCalibrated(rows: [CandidateRow]) -> PageVerifier {
        var verifier = fit(features: rows.map(\.features), labels: rows.map(\.isPage))
        let held = heldOutReported(rows)
        // Real photos only: the generated set, held out as one source, is scored by a model
        // fitted on real photos alone (a shift no user's photo makes); its right quads at log-odds
        // -3 to -6 flattened the slope to 0.14 and reported every real quad at 0.7-0.9.
        let real = held.sets.indices.filter { held.sets[$0] == calibrationSet }
        let labels = real.map { held.labels[$0] }
        guard Set(labels).count == 2 else { return verifier }
        let platt = fit(features: real.map { [held.logOdds[$0]] }, labels: labels)
        // p = σ(w0 + w1 (z − mean) / scale), as σ(slope z + offset).
        let slope = platt.weights[1] / platt.scales[0]
        verifier.calibrationSlope = slope
        verifier.calibrationOffset = platt.weights[0] - slope * platt.means[0]
        return verifier
    }

    /// The leave-one-publisher-out folds of `rows`: for every publisher (sorted), the indices of
    /// the rows fitted on (every other publisher's) and of the rows scored (its own). A
    /// publisher is held out whole, so no repository is scored by a fit that saw its sibling.
    public static func heldOutFolds(_ rows: [CandidateRow]) -> [(publisher: String, training: [Int], scored: [Int])] {
        Set(rows.map(\.publisher)).sorted().map { publisher in
            (
                publisher, rows.indices.filter { rows[$0].publisher != publisher },
                rows.indices.filter { rows[$0].publisher == publisher }
            )
        }
    }

    /// For every publisher in turn, the verifier fitted without it, and for each of that
    /// publisher's photos the log-odds of the quads a decision may report (the rules' quad and
    /// the model's best quad), each with whether it is the page. Photos in table order,
    /// publishers sorted.
    public static func heldOutReported(_ rows: [CandidateRow]) -> (logOdds: [Double], labels: [Bool], sets: [String]) {
        var photos: [String: [Int]] = [:]
        var order: [String] = []
        for (i, row) in rows.enumerated() {
            let key = row.set + "/" + row.photo
            if photos[key] == nil { order.append(key) }
            photos[key, default: []].append(i)
        }
        var logOdds: [Double] = [], labels: [Bool] = [], sets: [String] = []
        for fold in heldOutFolds(rows) {
            let training = fold.training.map { rows[$0] }
            guard Set(training.map(\.isPage)).count == 2 else { continue }
            let model = fit(features: training.map(\.features), labels: training.map(\.isPage))
            for key in order where rows[photos[key]![0]].publisher == fold.publisher {
                let quads = photos[key]!.filter { rows[$0].generator != CandidateGenerator.wholeFrame.rawValue }
                let z = quads.map { model.logOdds(rows[$0].features) }
                var reported = Set(quads.filter { rows[$0].generator == CandidateGenerator.rules.rawValue })
                if let best = quads.indices.max(by: { z[$0] < z[$1] || (z[$0] == z[$1] && $0 > $1) }) {
                    reported.insert(quads[best])
                }
                for i in reported.sorted() {
                    logOdds.append(model.logOdds(rows[i].features))
                    labels.append(rows[i].isPage)
                    sets.append(rows[i].set)
                }
            }
        }
        return (logOdds, labels, sets)
    }
}
