import Foundation
import Testing
import QuireImaging
@testable import QuireKit
import QuireTestSupport

/// Property-based fuzzing of the corners-file parser: seeded random mutations of the valid
/// files in Tests/Fixtures/fuzz/corners (random bytes, huge, NaN and negative numbers, deep
/// nesting, wrong types, huge keys, splices) each either parse into a valid value or throw
/// `CornersFileError`; never a crash (a trap ends the test run), and never more than
/// `maxInputBytes` of input or `CornersFile.maxNesting` levels of recursion.
///
/// `QUIRE_FUZZ_ITERATIONS` sets the number of mutations (default 2000, a few seconds); a
/// failure prints the seed and the input, so it can be replayed and added to the corpus.
@Suite struct CornersFileFuzzTests {
    static let corpusFolder = FuzzCorpus.folder("corners").path

    /// Mutations per run unless `QUIRE_FUZZ_ITERATIONS` says otherwise.
    static let defaultIterations = 2000

    /// The largest input a mutation may make (huge keys and deep nesting stay under it).
    static let maxInputBytes = 1 << 20

    static func corpus() throws -> [[UInt8]] {
        let names = try FileManager.default.contentsOfDirectory(atPath: corpusFolder).filter { $0.hasSuffix(".json") }
            .sorted()
        return try names.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: corpusFolder + "/" + $0))) }
    }

    /// Numbers and values that are out of range, of the wrong type, or not JSON at all.
    static let hostileValues = [
        "1e10", "-1", "-0", "1e308", "1e400", "-1e400", "NaN", "Infinity", "-Infinity", "0.0000001",
        "9223372036854775807", "9223372036854775808", "18446744073709551616", "10000000", "10000000.5",
        "true", "null", "\"12\"", "{}", "[]", "[1]", "[1, 2, 3]", "[[1, 2]]", "\"\"", "1.5e-320"
    ]

    /// One random mutation of `seed` (or a splice with `other`).
    static func mutate(_ seed: [UInt8], other: [UInt8], rng: inout SplitMix64) -> [UInt8] {
        var bytes = seed
        let rounds = Int.random(in: 1...4, using: &rng)
        for _ in 0..<rounds {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0 where !bytes.isEmpty:  // flip random bytes
                for _ in 0..<Int.random(in: 1...8, using: &rng) {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
            case 1:  // insert random bytes
                let at = Int.random(in: 0...bytes.count, using: &rng)
                bytes.insert(
                    contentsOf: (0..<Int.random(in: 1...16, using: &rng)).map { _ in
                        UInt8.random(in: 0...255, using: &rng)
                    }, at: at)
            case 2 where !bytes.isEmpty:  // delete a range
                let a = Int.random(in: 0..<bytes.count, using: &rng)
                bytes.removeSubrange(a..<min(bytes.count, a + Int.random(in: 1...32, using: &rng)))
            case 3, 4:  // replace a number with a hostile value
                let digits = bytes.indices.filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }
                if let start = digits.randomElement(using: &rng) {
                    var end = start
                    while end < bytes.count,
                        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) || bytes[end] == UInt8(ascii: ".")
                    { end += 1 }
                    bytes.replaceSubrange(start..<end, with: Array(hostileValues.randomElement(using: &rng)!.utf8))
                }
            case 5:  // wrap in deep nesting
                let depth = [2, 8, 17, 100, 5_000].randomElement(using: &rng)!
                let open = Bool.random(using: &rng) ? "[" : "{\"k\":"
                let close = open == "[" ? "]" : "}"
                bytes =
                    Array(String(repeating: open, count: depth).utf8) + bytes
                    + Array(String(repeating: close, count: depth).utf8)
            case 6:  // a huge key
                let key = String(
                    repeating: ["a", "é", "#", "\\u0000", "页"].randomElement(using: &rng)!,
                    count: Int.random(in: 1...5_000, using: &rng))
                bytes = Array("{\"\(key)\": [[0, 0], [1, 0], [1, 1], [0, 1]]}".utf8)
            case 7:  // wrong types in place of the corners
                let value = [
                    "\"corners\"", "4", "true", "null", "{\"x\": 1}", "[[0,0],[1,0],[1,1],[0,1],[2,2]]",
                    "[[0,0],[1,0],[1,1],[0,1,2]]", "[[\"0\",0],[1,0],[1,1],[0,1]]", "[[true,0],[1,0],[1,1],[0,1]]"
                ]
                .randomElement(using: &rng)!
                bytes = Array("{\"a.jpg\": \(value)}".utf8)
            case 8 where !bytes.isEmpty:  // truncate
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng)))
            default:  // splice with another seed
                let cut = Int.random(in: 0...bytes.count, using: &rng)
                let from = Int.random(in: 0...other.count, using: &rng)
                bytes = Array(bytes.prefix(cut)) + Array(other.suffix(from: from))
            }
            if bytes.count > maxInputBytes { bytes = Array(bytes.prefix(maxInputBytes)) }
        }
        return bytes
    }

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
            let input = Self.mutate(seed, other: seeds.randomElement(using: &rng)!, rng: &rng)
            #expect(input.count <= Self.maxInputBytes)
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
