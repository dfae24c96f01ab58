import Foundation
import QuireKit
import Testing
import QuireTestSupport

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
            let input = mutator.mutate(
                Self.corpus[mutator.next(below: Self.corpus.count)],
                tokens: [
                    "\r\n", "\n", ":", " ", "%", "%2e%2e", "..", "/", "HTTP/1.1", "Host: ",
                    "Range: bytes=", "-", ",", "\0", "\u{7f}", "99999999999999999999"
                ],
                maxRun: 20_000)
            let end = HTTPRequestHead.endOfHead(in: input)
            do {
                let head = try HTTPRequestHead.parse(Array(input[..<(end ?? input.count)]), limits: limits)
                #expect(!head.method.isEmpty && head.fields.count <= limits.maxFields)
                #expect(head.version == "HTTP/1.1" || head.version == "HTTP/1.0")
                if let segments = ServedTarget.relativePath(of: head.target) {
                    for segment in segments {
                        #expect(
                            !segment.isEmpty && !segment.hasPrefix(".") && !segment.contains("/")
                                && !segment.contains("\0"),
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
