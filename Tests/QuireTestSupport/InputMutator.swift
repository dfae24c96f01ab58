/// Seeded mutations of image files for fuzz testing the pipeline: truncation, bit flips, header
/// edits and chunk duplication — the damage real files suffer (cut downloads, bad media) and the
/// shapes of the fuzz reproducers in other projects' suites.
public struct InputMutator: Sendable {
    /// A kind of damage.
    public enum Mutation: String, Sendable, CaseIterable {
        case truncate, flipBits, overwriteHeader, duplicateChunk, zeroRun, hugeDimensions
    }

    private var state: UInt64

    /// A mutator whose sequence is fixed by `seed` (0 is replaced by a fixed non-zero seed).
    public init(seed: UInt64) {
        state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
    }

    /// xorshift64*: deterministic across platforms for a given seed.
    public mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A number in `0..<bound` (0 when `bound` <= 1).
    public mutating func next(below bound: Int) -> Int {
        bound <= 1 ? 0 : Int(next() % UInt64(bound))
    }

    /// Applies one mutation to a copy of `bytes`; returns the damaged bytes.
    public mutating func mutate(_ bytes: [UInt8], with mutation: Mutation) -> [UInt8] {
        guard !bytes.isEmpty else { return bytes }
        var out = bytes
        switch mutation {
        case .truncate:
            out.removeSubrange(next(below: bytes.count)...)
        case .flipBits:
            for _ in 0..<(1 + next(below: 16)) {
                let i = next(below: out.count)
                out[i] ^= UInt8(1 << next(below: 8))
            }
        case .overwriteHeader:
            let limit = min(out.count, 256)
            for _ in 0..<(1 + next(below: 6)) {
                out[next(below: limit)] = UInt8(truncatingIfNeeded: next())
            }
        case .duplicateChunk:
            let start = next(below: out.count)
            let length = min(out.count - start, 1 + next(below: 4096))
            out.insert(contentsOf: out[start..<(start + length)], at: next(below: out.count))
        case .zeroRun:
            let start = next(below: out.count)
            let length = min(out.count - start, 1 + next(below: 2048))
            out.replaceSubrange(start..<(start + length), with: repeatElement(0, count: length))
        case .hugeDimensions:
            // Pattern-agnostic: set 0xFF over a few bytes early in the header, where width and
            // height fields live in JPEG SOF, PNG IHDR, GIF and TIFF headers of small files.
            let limit = min(out.count, 64)
            let start = next(below: limit)
            for i in start..<min(limit, start + 2 + next(below: 3)) { out[i] = 0xFF }
        }
        return out
    }

    /// A random mutation.
    public mutating func mutate(_ bytes: [UInt8]) -> (mutation: Mutation, bytes: [UInt8]) {
        let mutation = Mutation.allCases[next(below: Mutation.allCases.count)]
        return (mutation, mutate(bytes, with: mutation))
    }
}
