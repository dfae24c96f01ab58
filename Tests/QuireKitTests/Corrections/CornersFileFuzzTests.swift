import Foundation
import Testing
import QuireImaging
@testable import QuireKit
import QuireTestSupport

/// Property-based fuzzing of the corners-file parser: seeded random mutations of the valid
/// files in Tests/Fixtures/fuzz/corners (random bytes, huge, NaN and negative numbers, deep
/// nesting, wrong types, huge keys, splices) each either parse into a valid value or throw
/// `CornersFileError`; never a crash (a trap ends the test run), and never more than
/// `JSONFileMutator.maxInputBytes` of input or `CornersFile.maxNesting` levels of recursion.
///
/// `QUIRE_FUZZ_ITERATIONS` sets the number of mutations (default 2000, a few seconds); a
/// failure prints the seed and the input, so it can be replayed and added to the corpus.
@Suite struct CornersFileFuzzTests {
    static let corpusFolder = FuzzCorpus.folder("corners").path

    /// Mutations per run unless `QUIRE_FUZZ_ITERATIONS` says otherwise.
    static let defaultIterations = 2000

    /// The mutations, with the entries that are wrong for this file.
    static let mutator = JSONFileMutator(wrongEntries: [
        "\"corners\"", "4", "true", "null", "{\"x\": 1}", "[[0,0],[1,0],[1,1],[0,1],[2,2]]",
        "[[0,0],[1,0],[1,1],[0,1,2]]", "[[\"0\",0],[1,0],[1,1],[0,1]]", "[[true,0],[1,0],[1,1],[0,1]]"
    ])

    static func corpus() throws -> [[UInt8]] { FuzzCorpus.load("corners", suffix: ".json") }

    /// What a parsed file guarantees to the rest of Quire.
    static func isValid(_ file: CornersFile) -> Bool {
        file.entries.allSatisfy { key, quad in
            !key.isEmpty && quad.corners.count == 4 && quad.isConvex && quad.signedArea > 0
                && quad.corners.allSatisfy { p in
                    p.x.isFinite && p.y.isFinite && p.x >= 0 && p.y >= 0
                        && p.x <= CornersFile.maxCoordinate && p.y <= CornersFile.maxCoordinate
                }
        }
    }

    @Test func seedsAreValidCornersFiles() throws {
        let seeds = try Self.corpus()
        #expect(seeds.count >= 5)
        for seed in seeds {
            #expect(Self.isValid(try CornersFile(json: seed)), "\(String(decoding: seed, as: UTF8.self))")
        }
    }

    @Test func mutatedCornersFilesParseOrThrowCornersFileError() throws {
        let seeds = try Self.corpus()
        try #require(!seeds.isEmpty, "no seeds in \(Self.corpusFolder)")
        JSONFileFuzzLoop.run(
            seeds: seeds, mutator: Self.mutator, iterations: Fuzz.iterations(default: Self.defaultIterations),
            parse: { try CornersFile(json: $0, file: $1) }, isValid: Self.isValid, keys: { Set($0.entries.keys) },
            rewritten: { try? CornersFile(json: Array($0.jsonText().utf8)) })
    }
}
