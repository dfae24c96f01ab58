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
        let iterations = Fuzz.iterations(default: Self.defaultIterations)
        var rng = SplitMix64(seed: 0x51_4955_5245)  // "QUIRE"
        var parsed = 0, refused = 0
        for i in 0..<iterations {
            let seed = seeds[i % seeds.count]
            let input = Self.mutator.mutate(seed, other: seeds.randomElement(using: &rng)!, rng: &rng)
            #expect(input.count <= Self.mutator.maxInputBytes)
            do {
                let file = try CornersFile(json: input, file: "fuzz.json")
                parsed += 1
                #expect(Self.isValid(file), "iteration \(i): \(String(decoding: input.prefix(300), as: UTF8.self))")
                // What it writes (rounded to 0.01 px, which may flatten a tiny quad) names the same entries.
                if let back = try? CornersFile(json: Array(file.jsonText().utf8)) {
                    #expect(Set(back.entries.keys) == Set(file.entries.keys), "iteration \(i)")
                }
            } catch let error as CornersFileError {
                refused += 1
                #expect(error.file == "fuzz.json")
            } catch {
                Issue.record(
                    "iteration \(i): \(type(of: error)) \(error) for \(String(decoding: input.prefix(300), as: UTF8.self))"
                )
            }
        }
        // Both outcomes occur, so the mutations neither always break nor never break the file.
        #expect(parsed + refused == iterations)
        if iterations >= 200 { #expect(parsed > 0 && refused > 0, "parsed \(parsed), refused \(refused)") }
    }
}
