/// The tests' one seeded generator (SplitMix64, Steele et al. 2014): a seed replays the same
/// sequence on every platform, so a failing fuzz iteration or random layout replays exactly.
/// Every copy it replaces used this same step, so existing seeds give the same inputs.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The state; it advances by the golden-ratio increment on every draw.
    public var state: UInt64

    /// A generator starting at `seed` (any value, 0 included).
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` by modulo (0 when `bound` <= 1): the fuzz mutators' draw, kept
    /// as it was so their seeds replay.
    public mutating func next(below bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }

    /// A number in `range` by modulo (the synthesised scans' draw, kept as it was).
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
