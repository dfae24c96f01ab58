import Foundation
import Testing
import QuireTestSupport
import QuireImaging
@testable import QuireKit

/// Property-based fuzzing of the corrections-file parser: seeded random mutations of the valid
/// files in Tests/Fixtures/fuzz/corrections (random bytes, huge, NaN and negative numbers, deep
/// nesting, wrong types, huge keys, splices) each either parse into a valid value or throw
/// `CornersFileError` (the one error type of both files); never a crash (a trap ends the test run), and never more than
/// `JSONFileMutator.maxInputBytes` of input or `CornersFile.maxNesting` levels of recursion.
///
/// `QUIRE_FUZZ_ITERATIONS` sets the number of mutations (default 2000, a few seconds); a
/// failure prints the seed and the input, so it can be replayed and added to the corpus.
@Suite struct CorrectionsFileFuzzTests {
    static let corpusFolder = FuzzCorpus.folder("corrections").path

    /// Mutations per run unless `QUIRE_FUZZ_ITERATIONS` says otherwise.
    static let defaultIterations = 2000

    /// The mutations, with the entries that are wrong for this file.
    static let mutator = JSONFileMutator(wrongEntries: [
        "\"corners\"", "4", "true", "null", "{\"x\": 1}", "[[0,0],[1,0],[1,1],[0,1],[2,2]]",
        "[[0,0],[1,0],[1,1],[0,1,2]]", "[[\"0\",0],[1,0],[1,1],[0,1]]", "[[true,0],[1,0],[1,1],[0,1]]",
        "{\"rotate\": 91}", "{\"rotate\": -90}", "{\"rotate\": 360}", "{\"rotate\": 9e99}",
        "{\"rotate\": false}",
        "{\"split\": 0.19999}", "{\"split\": 1e400}", "{\"split\": -0.5}", "{\"split\": [0.5]}",
        "{\"exclude\": 0}", "{\"exclude\": null}", "{\"corners\": {}}", "{\"Rotate\": 90}",
        "{\"corners\": [[0,0],[1,0],[1,1],[0,1]], \"rotate\": 90, \"split\": 0.5, \"exclude\": true}"
    ])

    static func corpus() throws -> [[UInt8]] { FuzzCorpus.load("corrections", suffix: ".json") }

    /// What a parsed file guarantees to the rest of Quire.
    static func isValid(_ file: CorrectionsFile) -> Bool {
        file.entries.allSatisfy { key, entry in
            let quadOK =
                entry.corners.map { quad in
                    quad.corners.count == 4 && quad.isConvex && quad.signedArea > 0
                        && quad.corners.allSatisfy { p in
                            p.x.isFinite && p.y.isFinite && p.x >= 0 && p.y >= 0
                                && p.x <= CornersFile.maxCoordinate && p.y <= CornersFile.maxCoordinate
                        }
                } ?? true
            let splitOK: Bool
            if case .at(let x)? = entry.split {
                splitOK = x.isFinite && CorrectionEntry.splitRange.contains(x)
            } else {
                splitOK = true
            }
            return !key.isEmpty && quadOK && splitOK
                && (entry.rotate.map { CorrectionEntry.rotations.contains($0) } ?? true)
        }
    }

    @Test func seedsAreValidCorrectionsFiles() throws {
        let seeds = try Self.corpus()
        #expect(seeds.count >= 5)
        for seed in seeds {
            #expect(Self.isValid(try CorrectionsFile(json: seed)), "\(String(decoding: seed, as: UTF8.self))")
        }
    }

    @Test func mutatedCorrectionsFilesParseOrThrowCornersFileError() throws {
        let seeds = try Self.corpus()
        try #require(!seeds.isEmpty, "no seeds in \(Self.corpusFolder)")
        JSONFileFuzzLoop.run(
            seeds: seeds, mutator: Self.mutator, iterations: Fuzz.iterations(default: Self.defaultIterations),
            parse: { try CorrectionsFile(json: $0, file: $1) }, isValid: Self.isValid, keys: { Set($0.entries.keys) },
            rewritten: { try? CorrectionsFile(json: Array($0.jsonText().utf8)) })
    }
}
