import Foundation

/// What every fuzz suite reads from the environment, checked once: `QUIRE_FUZZ_ITERATIONS`
/// (`make fuzz` sets 200,000) and `QUIRE_FUZZ_SEED` (replays a run).
public enum Fuzz {
    /// The most iterations a run may ask for: past it a typo would run for days.
    public static let maxIterations = 100_000_000

    /// `QUIRE_FUZZ_ITERATIONS` within `0...maxIterations`, else `defaultCount` (a few seconds).
    public static func iterations(
        default defaultCount: Int,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Int {
        let asked = environment["QUIRE_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? defaultCount
        return min(max(asked, 0), maxIterations)
    }

    /// `QUIRE_FUZZ_SEED`, else `defaultSeed`, so `make test` is reproducible.
    public static func seed(
        default defaultSeed: UInt64,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> UInt64 {
        environment["QUIRE_FUZZ_SEED"].flatMap { UInt64($0) } ?? defaultSeed
    }
}

/// The seed inputs of one fuzz target, one file each in `Tests/Fixtures/fuzz/NAME/`, by name.
public enum FuzzCorpus {
    /// The folder of target `name`.
    public static func folder(_ name: String) -> URL {
        TestSupport.fixtures.appendingPathComponent("fuzz/\(name)")
    }

    /// Every file's bytes, sorted by file name (empty when the folder is missing); `suffix`
    /// keeps only names that end with it.
    public static func load(_ name: String, suffix: String = "") -> [[UInt8]] {
        let url = folder(name)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
            .filter { $0.hasSuffix(suffix) }.sorted()
        return names.compactMap {
            FileManager.default.contents(atPath: url.appendingPathComponent($0).path).map(Array.init)
        }
    }
}

/// Seeded byte-level mutations (SplitMix64), as libFuzzer's mutators do: flip, insert, delete,
/// duplicate, splice in a dictionary token, repeat a byte, truncate.
public struct FuzzMutator: Sendable {
    /// Iterations per fuzz test: `QUIRE_FUZZ_ITERATIONS`, else 1,000 (seconds in a debug build).
    public static var iterations: Int { Fuzz.iterations(default: 1000) }

    /// `QUIRE_FUZZ_SEED`, else a fixed seed so `make test` is reproducible.
    public static var seedFromEnvironment: UInt64 { Fuzz.seed(default: 0x5155_4952_45) }

    /// The seed this mutator started from (printed with a failure, to replay it).
    public let seed: UInt64
    private var random: SplitMix64

    public init(seed: UInt64) {
        self.seed = seed
        random = SplitMix64(seed: seed)
    }

    public mutating func next() -> UInt64 { random.next() }

    public mutating func next(below bound: Int) -> Int { random.next(below: bound) }

    /// One to eight mutations of `input`; a repeated run is at most `maxRun` bytes (past the
    /// limits of the parser under test, and small enough for debug builds).
    public mutating func mutate(_ input: [UInt8], tokens: [String], maxRun: Int = 4096) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + next(below: 8)) {
            let at = next(below: bytes.count + 1)
            switch next(below: 7) {
            case 0 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] ^= UInt8(1 << next(below: 8))
            case 1: bytes.insert(contentsOf: (0..<(1 + next(below: 8))).map { _ in UInt8(next() & 0xFF) }, at: at)
            case 2 where !bytes.isEmpty: bytes.removeSubrange(at..<min(bytes.count, at + 1 + next(below: 16)))
            case 3 where !bytes.isEmpty:
                let from = next(below: bytes.count), length = min(bytes.count - from, 1 + next(below: 64))
                bytes.insert(contentsOf: bytes[from..<(from + length)], at: at)
            case 4: bytes.insert(contentsOf: Array(tokens[next(below: tokens.count)].utf8), at: at)
            case 5:
                bytes.insert(contentsOf: [UInt8](repeating: UInt8(next() & 0xFF), count: next(below: maxRun)), at: at)
            default: bytes = Array(bytes.prefix(at))
            }
        }
        return bytes
    }
}
