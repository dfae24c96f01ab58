import Foundation
import QuireTestSupport
import Testing

@testable import QuireImaging
@testable import QuirePageAnalysis

/// The fitted verifier (issue 36, section 2): its weights are what the one fit gives on the
/// committed candidate table, the table is what today's generators dump, and the fit and the
/// decision do what they say.
@Suite struct VerifierFitTests {
    static let table = TestSupport.repoRoot.appendingPathComponent("Tools/accuracy/verifier/candidates.tsv")

    static func rows() throws -> [CandidateRow] {
        try CandidateTable.parse(String(contentsOf: table, encoding: .utf8))
    }

    /// Re-running the fit on the committed table gives the compiled-in weights: nobody edited
    /// them by hand, and the table and the weights were committed together.
    @Test func theCompiledInWeightsAreTheFitOfTheCommittedTable() throws {
        let rows = try Self.rows()
        #expect(PageVerifier.fittedFeatureNames == CandidateFeatures.names)
        let refit = PageVerifier.fitCalibrated(rows: rows)
        let compiled = PageVerifier.fitted
        #expect(refit.weights.count == compiled.weights.count)
        for (name, (a, b)) in zip(["intercept"] + CandidateFeatures.names, zip(refit.weights, compiled.weights)) {
            #expect(abs(a - b) <= 1e-9 * max(1, abs(b)), "\(name): refit \(a), compiled \(b)")
        }
        for (a, b) in zip(refit.means + refit.scales, compiled.means + compiled.scales) {
            #expect(abs(a - b) <= 1e-12 * max(1, abs(b)))
        }
        #expect(
            abs(refit.calibrationSlope - compiled.calibrationSlope) <= 1e-9 * max(1, abs(compiled.calibrationSlope)))
        #expect(
            abs(refit.calibrationOffset - compiled.calibrationOffset) <= 1e-9 * max(1, abs(compiled.calibrationOffset)))
    }

    /// The table's rows of three real photos in the repository are what the generators and the
    /// features dump for them today (the generated sets are not in the repository: `make
    /// fit-verifier` makes them with Python; these three stand for the whole table).
    @Test func theTableIsWhatTodaysGeneratorsDump() throws {
        let rows = try Self.rows()
        let folder = TestSupport.repoRoot.appendingPathComponent("Tools/accuracy/real-photos")
        let truth =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("truth.json")))
            as? [String: [String: Any]] ?? [:]
        let photos = Array(Set(rows.filter { $0.set == "real" }.map(\.photo))).sorted().prefix(3)
        #expect(photos.count == 3)
        for photo in photos {
            let entry = try #require(truth[photo])
            let corners = try #require(entry["corners"] as? [[Double]])
            let t = try #require(Quad(corners: corners.map { Point(x: $0[0], y: $0[1]) }))
            let found = try Detector.candidates(file: folder.appendingPathComponent(photo).path)
            let rules = found.rules.quad?.readingOrdered()
            let dumped = found.candidates.map {
                CandidateTable.line(
                    CandidateRow(
                        set: "real", source: entry["source"] as? String ?? "",
                        publisher: entry["publisher"] as? String, split: entry["split"] as? String ?? "",
                        photo: photo, generator: $0.generator.rawValue, iou: t.intersectionOverUnion(with: $0.quad),
                        rulesConfidence: found.rules.confidence,
                        rulesIoU: rules.map($0.quad.intersectionOverUnion) ?? 0, features: $0.features))
            }
            let committed = rows.filter { $0.set == "real" && $0.photo == photo }.map(CandidateTable.line)
            #expect(dumped == committed, "\(photo): re-run `make fit-verifier`")
        }
    }

    /// On data drawn from a known logistic model the fit finds its weights' signs, is
    /// deterministic, and is calibrated on its training data (the intercept's score equation:
    /// mean predicted probability = share of positives).
    @Test func theFitRecoversAKnownModelAndIsCalibrated() {
        var rng = SplitMix64(seed: 36)
        var features: [[Double]] = [], labels: [Bool] = []
        for _ in 0..<600 {
            let a = Double(rng.next() % 1000) / 1000, b = Double(rng.next() % 1000) / 1000
            let z = -1 + 4 * a - 3 * b
            let p = 1 / (1 + exp(-z))
            features.append([a, b])
            labels.append(Double(rng.next() % 10000) / 10000 < p)
        }
        let fit = PageVerifier.fit(features: features, labels: labels)
        #expect(fit == PageVerifier.fit(features: features, labels: labels))
        #expect(fit.weights[1] > 0.5 && fit.weights[2] < -0.5, "\(fit.weights)")
        let mean = features.map(fit.probability).reduce(0, +) / Double(features.count)
        let share = Double(labels.filter { $0 }.count) / Double(labels.count)
        #expect(abs(mean - share) < 1e-6)
    }

    /// The calibration makes the probability mean what it says on sources the fit never saw: over
    /// the quads a decision reports on held-out sources, the mean calibrated probability is the
    /// share that are the page (Platt's intercept equation), where the model's own probability,
    /// fitted on a few photos with uninformative features, is over-confident there.
    @Test func theCalibrationMatchesTheHeldOutReportedQuads() {
        var rng = SplitMix64(seed: 36)
        func uniform() -> Double { Double(rng.next() % 10000) / 10000 }
        var rows: [CandidateRow] = []
        for source in 0..<6 {
            for photo in 0..<8 {
                for generator in ["rules", "edge", "edge", "frame"] {
                    let signal = uniform()
                    let page = signal + 0.8 * uniform() > 0.9
                    rows.append(
                        CandidateRow(
                            set: PageVerifier.calibrationSet, source: "s\(source)", split: "held-out",
                            photo: "p\(photo)", generator: generator,
                            iou: page ? 0.95 : 0.5, rulesConfidence: 0,
                            features: [signal] + (0..<16).map { _ in uniform() }))
                }
            }
        }
        let verifier = PageVerifier.fitCalibrated(rows: rows)
        let held = PageVerifier.heldOutReported(rows)
        let share = Double(held.labels.filter { $0 }.count) / Double(held.labels.count)
        func mean(slope: Double, offset: Double) -> Double {
            held.logOdds.map { 1 / (1 + exp(-(slope * $0 + offset))) }.reduce(0, +) / Double(held.logOdds.count)
        }
        let calibrated = mean(slope: verifier.calibrationSlope, offset: verifier.calibrationOffset)
        #expect(abs(calibrated - share) < 1e-6, "calibrated \(calibrated), share \(share)")
        let raw = mean(slope: 1, offset: 0)
        #expect(abs(raw - share) > 0.02, "the model's own \(raw), share \(share)")
        #expect(verifier.calibrationSlope < 1, "\(verifier.calibrationSlope)")
    }

    /// A publisher is held out whole: the fold that scores one repository of an owner fits on no
    /// row of that owner's other repositories, and a truth entry's `publisher` overrides the
    /// owner (two owners' repositories of one publisher, one owner's repositories of two).
    @Test func aPublisherIsHeldOutWhole() {
        func row(_ source: String, _ publisher: String? = nil) -> CandidateRow {
            CandidateRow(
                set: "real", source: source, publisher: publisher, split: "held-out", photo: source + ".jpg",
                generator: "rules", iou: 0.95, rulesConfidence: 0, features: [0])
        }
        let rows = [
            row("veryfi/veryfi-java"), row("veryfi/veryfi-nodejs"), row("yushulx/a"), row("other/b", "yushulx"),
            row("generated"), row("solo/c")
        ]
        let folds = PageVerifier.heldOutFolds(rows)
        #expect(folds.map(\.publisher) == ["generated", "solo", "veryfi", "yushulx"])
        for fold in folds {
            let scored = Set(fold.scored.map { rows[$0].source })
            let trained = Set(fold.training.map { rows[$0].source })
            #expect(scored.isDisjoint(with: trained), "\(fold.publisher)")
            #expect(fold.scored.count + fold.training.count == rows.count)
        }
        let veryfi = folds.first { $0.publisher == "veryfi" }!
        #expect(Set(veryfi.scored.map { rows[$0].source }) == ["veryfi/veryfi-java", "veryfi/veryfi-nodejs"])
        let yushulx = folds.first { $0.publisher == "yushulx" }!
        #expect(Set(yushulx.scored.map { rows[$0].source }) == ["yushulx/a", "other/b"])
        // The table keeps the publisher: a row read back is the row written.
        var written = row("other/b", "yushulx")
        written.features = CandidateFeatures.names.map { _ in 0.5 }
        let back = try? CandidateTable.parse(CandidateTable.header + "\n" + CandidateTable.line(written) + "\n")
        #expect(back == [written])
    }

    /// The decision keeps the whole frame when the frame scores best or the best quad is under
    /// the threshold, and reports the best quad's probability as the confidence otherwise.
    @Test func theDecisionKeepsTheWholeFrameUnlessAQuadIsSure() {
        let verifier = PageVerifier(weights: [0, 1], means: [0], scales: [1])
        let sure = verifier.choose([[3], [0], [-2]], isWholeFrame: [false, false, true])
        #expect(sure.index == 0)
        #expect(abs(sure.probability - 1 / (1 + exp(-3))) < 1e-12)
        let unsure = verifier.choose([[0.5], [-2]], isWholeFrame: [false, true])
        #expect(unsure.index == nil && unsure.probability < PageVerifier.minimumProbability)
        let frame = verifier.choose([[2], [4]], isWholeFrame: [false, true])
        #expect(frame.index == nil && frame.probability < PageVerifier.minimumProbability)
    }
}
