import QuireTestSupport
import Testing

@testable import QuireKit

/// The loop the corners and corrections fuzz suites share: `iterations` seeded mutations of the
/// seeds, each of which either parses into a file `isValid` accepts, whose rewritten text names
/// the same entries, or is refused with `CornersFileError` naming the file; never another error.
/// Both outcomes must occur, so the mutations neither always nor never break the file.
enum JSONFileFuzzLoop {
    static func run<File>(
        seeds: [[UInt8]], mutator: JSONFileMutator, iterations: Int,
        parse: ([UInt8], String) throws -> File, isValid: (File) -> Bool,
        keys: (File) -> Set<String>, rewritten: (File) -> File?
    ) {
        var rng = SplitMix64(seed: 0x51_4955_5245)  // "QUIRE"
        var parsed = 0, refused = 0
        for i in 0..<iterations {
            let seed = seeds[i % seeds.count]
            let input = mutator.mutate(seed, other: seeds.randomElement(using: &rng)!, rng: &rng)
            #expect(input.count <= mutator.maxInputBytes)
            do {
                let file = try parse(input, "fuzz.json")
                parsed += 1
                #expect(isValid(file), "iteration \(i): \(String(decoding: input.prefix(300), as: UTF8.self))")
                // What it writes (rounded to 0.01 px, which may flatten a tiny quad) names the same entries.
                if let back = rewritten(file) { #expect(keys(back) == keys(file), "iteration \(i)") }
            } catch let error as CornersFileError {
                refused += 1
                #expect(error.file == "fuzz.json")
            } catch {
                Issue.record(
                    "iteration \(i): \(type(of: error)) \(error) for \(String(decoding: input.prefix(300), as: UTF8.self))"
                )
            }
        }
        #expect(parsed + refused == iterations)
        if iterations >= 200 { #expect(parsed > 0 && refused > 0, "parsed \(parsed), refused \(refused)") }
    }
}
