/// Structure-aware mutations of a small JSON file keyed by file name (the corners and the
/// corrections file): byte flips, insertions, deletions, numbers replaced by hostile values,
/// deep nesting, huge keys, wrong entries, truncation and splices with another seed. Each suite
/// passes the entries that are wrong for its own format; the rest is shared so both files are
/// attacked the same way.
public struct JSONFileMutator: Sendable {
    /// Numbers and values that are out of range, of the wrong type, or not JSON at all.
    public static let hostileValues = [
        "1e10", "-1", "-0", "1e308", "1e400", "-1e400", "NaN", "Infinity", "-Infinity", "0.0000001",
        "9223372036854775807", "9223372036854775808", "18446744073709551616", "10000000", "10000000.5",
        "true", "null", "\"12\"", "{}", "[]", "[1]", "[1, 2, 3]", "[[1, 2]]", "\"\"", "1.5e-320"
    ]

    /// Values put in place of a whole entry (`{"a.jpg": VALUE}`): wrong types and wrong shapes.
    public var wrongEntries: [String]
    /// The largest input a mutation may make (huge keys and deep nesting stay under it).
    public var maxInputBytes: Int

    public init(wrongEntries: [String], maxInputBytes: Int = 1 << 20) {
        self.wrongEntries = wrongEntries
        self.maxInputBytes = maxInputBytes
    }

    /// One to four random mutations of `seed` (one of them may splice in `other`).
    public func mutate(_ seed: [UInt8], other: [UInt8], rng: inout SplitMix64) -> [UInt8] {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
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
            case 3, 4: replaceNumber(in: &bytes, rng: &rng)
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
            case 7:  // a wrong entry
                bytes = Array("{\"a.jpg\": \(wrongEntries.randomElement(using: &rng)!)}".utf8)
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

    /// Replaces one number (a run of digits and dots) with a hostile value.
    private func replaceNumber(in bytes: inout [UInt8], rng: inout SplitMix64) {
        let digit = UInt8(ascii: "0")...UInt8(ascii: "9")
        guard let start = bytes.indices.filter({ digit.contains(bytes[$0]) }).randomElement(using: &rng) else { return }
        var end = start
        while end < bytes.count, digit.contains(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
        bytes.replaceSubrange(start..<end, with: Array(Self.hostileValues.randomElement(using: &rng)!.utf8))
    }
}
