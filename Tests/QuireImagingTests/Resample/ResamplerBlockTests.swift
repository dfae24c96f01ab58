import Testing

@testable import QuireImaging

/// `Resampler.blockAverage` (one multiply a mean, `ExactDivisor`) against the division loop it
/// replaced, and `ExactDivisor` against `/`.
@Suite struct ResamplerBlockTests {
    /// Noise with a fixed seed (a plain LCG: the same bytes on every run).
    static func noise(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// Every factor a thumbnail or a capture can take, on sizes that leave partial last blocks
    /// (and on whole white, where every sum is the largest), for 1-4 bands.
    @Test(arguments: [1, 2, 3, 4])
    func blockAverageEqualsTheDivisionLoop(bands: Int) {
        for (w, h) in [(37, 23), (64, 48), (101, 77)] {
            for white in [false, true] {
                let src =
                    white
                    ? [UInt8](repeating: 255, count: w * h * bands)
                    : Self.noise(count: w * h * bands, seed: UInt64(w * 7 + bands))
                for (kx, ky) in [(1, 1), (2, 2), (3, 3), (3, 2), (4, 5), (7, 7), (8, 8), (12, 9)] {
                    let (bw, bh) = ((w + kx - 1) / kx, (h + ky - 1) / ky)
                    var fast = [UInt8](repeating: 0, count: bw * bh * bands)
                    var slow = fast
                    src.withUnsafeBufferPointer { s in
                        fast.withUnsafeMutableBufferPointer { d in
                            Resampler.blockAverage(
                                s.baseAddress!, width: w, height: h, bands: bands, kx: kx, ky: ky,
                                into: d.baseAddress!)
                        }
                        slow.withUnsafeMutableBufferPointer { d in
                            Resampler.blockAverageByDivision(
                                s.baseAddress!, width: w, height: h, bands: bands, kx: kx, ky: ky,
                                into: d.baseAddress!)
                        }
                    }
                    #expect(fast == slow, "\(w)x\(h)x\(bands) in \(kx)x\(ky) blocks, white \(white)")
                }
            }
        }
    }

    /// The quotient is exact at the ends of the range and around every multiple tried.
    @Test func exactDivisorEqualsDivision() {
        var divisors: [UInt32] = Array(1...300) + [641, 1 << 16, 65_537, 1 << 31, UInt32.max - 1, UInt32.max]
        divisors += Self.noise(count: 64, seed: 9).map { UInt32($0) * 16_777_259 + 3 }
        for d in divisors {
            let divisor = ExactDivisor(d)
            var numerators: [UInt32] = [0, 1, d - 1, d, UInt32.max, UInt32.max - 1, UInt32.max / 2]
            for q: UInt32 in [1, 2, 255, 1000, 65_535] where q <= UInt32.max / d {
                numerators += [q * d - 1, q * d, q * d + min(1, UInt32.max - q * d)]
            }
            for n in numerators {
                #expect(divisor.quotient(n) == n / d, "\(n) / \(d)")
            }
        }
    }
}
