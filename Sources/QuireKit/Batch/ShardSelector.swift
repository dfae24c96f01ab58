/// Which share of a batch one machine processes (`--shard K/N`): a page belongs to shard K when
/// the hash of its source path (as recorded in layout.json) modulo N is K - 1. The hash depends
/// only on the path, so every machine agrees without talking to the others, and adding files
/// moves no other file between shards.
public struct ShardSelector: Sendable, Hashable, Codable, CustomStringConvertible {
    /// 1-based shard number.
    public var index: Int
    public var count: Int

    /// Parses `K/N` with 1 <= K <= N <= `ShardRun.maximumShardCount`.
    /// - Throws: `ShardSelector.ParseError` with a user-facing reason.
    public init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw ParseError(text: text, reason: "expected K/N, e.g. 2/8")
        }
        guard n >= 1 else { throw ParseError(text: text, reason: "N must be at least 1") }
        guard n <= ShardRun.maximumShardCount else {
            throw ParseError(
                text: text, reason: "N must be at most \(ShardRun.maximumShardCount) (quire merge reads every shard)")
        }
        guard k >= 1, k <= n else { throw ParseError(text: text, reason: "K must be between 1 and \(n)") }
        self.index = k
        self.count = n
    }

    /// Shard `index` of `count` (1-based, `index` in 1...count).
    public init(index: Int, count: Int) {
        precondition(count >= 1 && index >= 1 && index <= count, "shard \(index)/\(count) is out of range")
        self.index = index
        self.count = count
    }

    public var description: String { "\(index)/\(count)" }

    /// True when `source` belongs to this shard.
    public func contains(source: String) -> Bool {
        Int(Self.stableHash(source) % UInt64(count)) == index - 1
    }

    /// FNV-1a over the UTF-8 bytes: stable across runs, machines and Swift versions (unlike
    /// `Hasher`, which is seeded per process).
    public static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// A `--shard` value that is not `K/N` with 1 <= K <= N.
    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public var text: String
        public var reason: String
        public var description: String { "invalid shard '\(text)': \(reason)" }
    }
}
