import Foundation
import QuireKit
import Testing

/// A property-based fuzz harness for what the server reads from a socket: seeded mutations of
/// the requests in `Tests/Fixtures/fuzz/http/` go through the head parser, the target decoder
/// and the Range reader, which must answer every input with a value or a typed refusal, within
/// their limits, and never crash. `QUIRE_FUZZ_ITERATIONS` sets the count (`make fuzz` runs many);
/// `QUIRE_FUZZ_SEED` replays a run.
@Suite struct HTTPRequestFuzzTests {
    static let corpus: [[UInt8]] = FuzzCorpus.load("http")

    @Test func everyMutatedRequestIsParsedOrRefusedWithinLimits() throws {
        try #require(!Self.corpus.isEmpty, "the seed corpus Tests/Fixtures/fuzz/http is missing")
        var mutator = FuzzMutator(seed: FuzzMutator.seedFromEnvironment)
        let limits = HTTPRequestHead.Limits()
        for _ in 0..<FuzzMutator.iterations {
            let input = mutator.mutate(Self.corpus[mutator.next(below: Self.corpus.count)],
                                       tokens: ["\r\n", "\n", ":", " ", "%", "%2e%2e", "..", "/", "HTTP/1.1", "Host: ",
                                                "Range: bytes=", "-", ",", "\0", "\u{7f}", "99999999999999999999"],
                                       maxRun: 20_000)
            let end = HTTPRequestHead.endOfHead(in: input)
            do {
                let head = try HTTPRequestHead.parse(Array(input[..<(end ?? input.count)]), limits: limits)
                #expect(!head.method.isEmpty && head.fields.count <= limits.maxFields)
                #expect(head.version == "HTTP/1.1" || head.version == "HTTP/1.0")
                if let segments = ServedTarget.relativePath(of: head.target) {
                    for segment in segments {
                        #expect(!segment.isEmpty && !segment.hasPrefix(".") && !segment.contains("/") && !segment.contains("\0"),
                                "seed \(mutator.seed): \(segments)")
                    }
                }
                let size = mutator.next(below: 5000)
                if case .part(let range) = ByteRange.parse(head.field("range"), size: size) {
                    #expect(range.first >= 0 && range.first <= range.last && range.last < size, "seed \(mutator.seed)")
                }
            } catch {
                #expect([400, 414, 431, 505].contains(error.status))
            }
        }
    }
}

/// The seed inputs of one fuzz target, from `Tests/Fixtures/fuzz/NAME/`.
enum FuzzCorpus {
    static func load(_ name: String) -> [[UInt8]] {
        let folder = TestSupport.repoRoot.appendingPathComponent("Tests/Fixtures/fuzz/\(name)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted() ?? []
        return names.compactMap { FileManager.default.contents(atPath: folder.appendingPathComponent($0).path).map(Array.init) }
    }
}

/// Seeded byte-level mutations (SplitMix64), as libFuzzer's mutators do: flip, insert, delete,
/// duplicate, splice in a dictionary token, truncate.
struct FuzzMutator {
    /// Iterations per fuzz test: `QUIRE_FUZZ_ITERATIONS`, else a count that runs in seconds.
    static var iterations: Int {
        let asked = ProcessInfo.processInfo.environment["QUIRE_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 1000
        return min(max(asked, 1), 100_000_000)
    }

    /// `QUIRE_FUZZ_SEED`, else a fixed seed so `make test` is reproducible.
    static var seedFromEnvironment: UInt64 {
        ProcessInfo.processInfo.environment["QUIRE_FUZZ_SEED"].flatMap(UInt64.init) ?? 0x5155_4952_45
    }

    let seed: UInt64
    private var state: UInt64

    init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }

    /// One to eight mutations of `input`; a repeated run is at most `maxRun` bytes (past the
    /// limits of the parser under test, and small enough for debug builds).
    mutating func mutate(_ input: [UInt8], tokens: [String], maxRun: Int = 4096) -> [UInt8] {
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
            case 5: bytes.insert(contentsOf: [UInt8](repeating: UInt8(next() & 0xFF), count: next(below: maxRun)), at: at)
            default: bytes = Array(bytes.prefix(at))
            }
        }
        return bytes
    }
}
