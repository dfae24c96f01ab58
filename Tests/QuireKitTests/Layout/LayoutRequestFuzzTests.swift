import Foundation
import Testing
import QuireKit
import QuireTestSupport

/// Property: whatever bytes arrive, `LayoutService.respond(toJSON:)` answers one JSON object
/// (no `inf`, no `nan`, an error object naming a field, or a reply of at most
/// `LayoutLimits.maximumReplyItems` items), and never traps.
///
/// Inputs are seeded random mutations of the valid requests in `Tests/Fixtures/fuzz/layout/`
/// (one request per file): byte flips, cuts, splices, hostile tokens (1e308, 1e999, NaN,
/// deep nesting) and structural edits (a number or a whole value replaced, keys removed or
/// added). `QUIRE_FUZZ_ITERATIONS` sets the count (default 1,000, a few seconds; `make fuzz`
/// runs 200,000) and `QUIRE_FUZZ_SEED` the seed, so a failure replays exactly.
@Suite struct LayoutRequestFuzzTests {
    static let corpusFolder = FuzzCorpus.folder("layout")

    static var iterations: Int { Fuzz.iterations(default: 1_000) }

    static var seed: UInt64 { Fuzz.seed(default: 34) }

    /// Texts that stress a JSON reader or the numbers behind it.
    static let tokens = [
        "1e308", "-1e308", "1.7976931348623157e308", "1e999", "-1e999", "NaN", "Infinity", "-Infinity",
        "inf", "-0", "0", "1e-320", "9007199254740993", "-9223372036854775809", "1e9", "1000000001",
        "1000000", "10000000", "0.5", "null", "true", "false", "\"\"", "\"\\u0000\"", "\"\\ud800\"",
        "{}", "[]", "{", "}", "[", "]", ",", ":", "\"", "\\", "\u{0}", "\u{FEFF}", "é",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        String(repeating: "{\"a\":", count: 600) + "1" + String(repeating: "}", count: 600)
    ]

    /// Field names the request knows, so structural edits reach deep validation paths.
    static let keys = [
        "id", "layout", "viewport", "width", "height", "aspectRatios", "count", "pagesFrom", "offset", "x", "y",
        "rect", "parameters", "snap", "proposedOffset", "velocity", "animation", "kind", "index", "phase",
        "progress", "updates", "value", "direction", "spacing", "centerIndex", "pizzaSize", "dragOffset",
        "standardHeight", "orientation", "expandingRate", "defaultAspectRatio", "viewPort"
    ]

    /// The placeholder a structural edit leaves for a raw token (written as `\u0001T<n>\u0001`).
    static func placeholder(_ n: Int) -> LayoutJSON { .string("\u{1}T\(n)\u{1}") }

    static func corpus() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: corpusFolder.path).filter {
            $0.hasSuffix(".json")
        }.sorted()
        return try names.map { try String(contentsOf: corpusFolder.appendingPathComponent($0), encoding: .utf8) }
    }

    /// Every path to a value inside `value` (array indices and object keys).
    static func paths(_ value: LayoutJSON, _ prefix: [PathStep] = [], into out: inout [[PathStep]]) {
        out.append(prefix)
        switch value {
        case .array(let a): for (i, v) in a.enumerated() { paths(v, prefix + [.index(i)], into: &out) }
        case .object(let o): for k in o.keys.sorted() { paths(o[k]!, prefix + [.key(k)], into: &out) }
        default: break
        }
    }

    enum PathStep { case index(Int), key(String) }

    /// `value` with the node at `path` passed through `change` (nil removes it from its parent).
    static func editing(_ value: LayoutJSON, at path: ArraySlice<PathStep>, _ change: (LayoutJSON) -> LayoutJSON?)
        -> LayoutJSON?
    {
        guard let step = path.first else { return change(value) }
        switch (value, step) {
        case (.array(var a), .index(let i)) where a.indices.contains(i):
            if let v = editing(a[i], at: path.dropFirst(), change) { a[i] = v } else { a.remove(at: i) }
            return .array(a)
        case (.object(var o), .key(let k)):
            if let child = o[k] { o[k] = editing(child, at: path.dropFirst(), change) }
            return .object(o)
        default:
            return value
        }
    }

    static func mutate(_ text: String, corpus: [String], rng: inout SplitMix64) -> String {
        var bytes = Array(text.utf8)
        switch Int.random(in: 0..<14, using: &rng) {
        case 0 where !bytes.isEmpty:  // flip a byte
            bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
        case 1 where !bytes.isEmpty:  // cut a span
            let a = Int.random(in: 0..<bytes.count, using: &rng)
            bytes.removeSubrange(a..<min(bytes.count, a + Int.random(in: 1...16, using: &rng)))
        case 2:  // splice in a span of another request
            let other = Array(corpus.randomElement(using: &rng)!.utf8)
            let a = Int.random(in: 0..<other.count, using: &rng)
            let span = other[a..<min(other.count, a + Int.random(in: 1...40, using: &rng))]
            bytes.insert(contentsOf: span, at: Int.random(in: 0...bytes.count, using: &rng))
        case 3:  // a hostile token anywhere
            let token = Array(tokens.randomElement(using: &rng)!.utf8)
            bytes.insert(contentsOf: token, at: Int.random(in: 0...bytes.count, using: &rng))
        case 4 where !bytes.isEmpty:  // truncate
            bytes.removeSubrange(Int.random(in: 0..<bytes.count, using: &rng)...)
        default:  // structural: edit a parsed value, write it back
            guard let value = try? LayoutJSON.parse(Data(text.utf8)) else { return text }
            var all: [[PathStep]] = []
            paths(value, into: &all)
            let path = all.randomElement(using: &rng)!
            var raw: [String] = []
            func token(_ t: String) -> LayoutJSON { raw.append(t); return placeholder(raw.count - 1) }
            let choice = Int.random(in: 0..<8, using: &rng)
            let edited =
                editing(value, at: path[...]) { node in
                    switch choice {
                    case 0: return token(tokens.randomElement(using: &rng)!)
                    case 1: return nil
                    case 2:
                        guard case .object(var o) = node else { return token("{}") }
                        o[keys.randomElement(using: &rng)!] = token(tokens.randomElement(using: &rng)!)
                        return .object(o)
                    case 3:
                        return [.null, .bool(true), .string("x"), .array([node]), .object(["x": node])].randomElement(
                            using: &rng)!
                    default:
                        guard case .number(let d) = node else { return token(tokens.randomElement(using: &rng)!) }
                        let scale = [-1.0, 0, 0.5, 2, 10, 1e3, 1e6, 1e9, 1.000001e9, 1e12].randomElement(using: &rng)!
                        return .number(d * scale)
                    }
                } ?? .null
            var out = edited.text
            for (i, t) in raw.enumerated() { out = out.replacingOccurrences(of: "\"\\u0001T\(i)\\u0001\"", with: t) }
            return out
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The property, as a reason when it fails.
    static func problem(with reply: LayoutJSON, isError: Bool) -> String? {
        let text = reply.text
        guard reply.isFinite else { return "the reply holds a non-finite number" }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else {
            return "the reply is not a JSON object"
        }
        if isError {
            guard let error = object["error"] as? [String: Any], error["field"] is String, error["message"] is String
            else {
                return "an error reply without {field, message}"
            }
        } else {
            guard let items = object["items"] as? [Any] else { return "a reply without items" }
            guard items.count <= LayoutLimits.maximumReplyItems else { return "a reply of \(items.count) items" }
        }
        return nil
    }

    @Test func mutatedRequestsAlwaysGetOneJSONObject() throws {
        let corpus = try Self.corpus()
        try #require(corpus.count >= 10, "seed corpus missing in \(Self.corpusFolder.path)")
        for seed in corpus {  // the seeds themselves are valid requests (one reads a missing file)
            let (reply, isError) = LayoutService.respond(toJSON: Data(seed.utf8))
            #expect(Self.problem(with: reply, isError: isError) == nil, "\(seed)")
        }
        var rng = SplitMix64(seed: Self.seed)
        var failures = 0
        var errors = 0
        for iteration in 0..<Self.iterations {
            var text = corpus.randomElement(using: &rng)!
            for _ in 0..<[1, 1, 1, 2, 3].randomElement(using: &rng)! {
                text = Self.mutate(text, corpus: corpus, rng: &rng)
            }
            let (reply, isError) = LayoutService.respond(toJSON: Data(text.utf8))
            if isError { errors += 1 }
            if let problem = Self.problem(with: reply, isError: isError) {
                failures += 1
                Issue.record(
                    "iteration \(iteration) (seed \(Self.seed)): \(problem)\nrequest: \(text.prefix(600))\nreply: \(reply.text.prefix(600))"
                )
                if failures >= 5 { break }
            }
        }
        // The mutations must reach past the JSON reader, and not only produce errors (about 90%
        // are errors: seed 34 gives 180,664 of 200,000).
        if Self.iterations >= 500 {
            #expect(
                errors > Self.iterations / 10 && errors < Self.iterations * 19 / 20,
                "\(errors) errors of \(Self.iterations)")
        }
    }
}
