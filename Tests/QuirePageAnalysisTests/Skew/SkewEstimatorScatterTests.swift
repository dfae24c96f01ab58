import Foundation
import Testing

@testable import QuirePageAnalysis

/// `sharpness` scatters the points into `SkewEstimator.scatterLanes` profiles and sums them:
/// the profile and score must be those of the plain loop that adds every point in order, up to
/// the rounding of sums made in another order, for every point count (lanes left part-filled)
/// and stride.
@Suite struct SkewEstimatorScatterTests {
    @Test(arguments: [(1, 1.3), (1, -7.0), (3, 0.0), (2, 22.5)])
    func lanesGiveThePlainLoopsProfile(pointStride: Int, degrees: Double) {
        let width = 300, height = 200
        let gray = SkewEstimatorSearchTests.page(width: width, height: height, degrees: 1.5, columns: [0.1...0.9])
        let (xs, ys, weights) = SkewEstimator.inkPoints(gray: gray, width: width, height: height)
        #expect(xs.count > 1000)
        // Every remainder of the point count by the lanes: the last points fill some lanes only.
        for count in (xs.count - 7)...xs.count {
            var bins: [Float] = []
            let score = xs.withUnsafeBufferPointer { xp in
                ys.withUnsafeBufferPointer { yp in
                    weights.withUnsafeBufferPointer { wp in
                        SkewEstimator.sharpness(
                            xs: xp, ys: yp, weights: wp, count: count, pointStride: pointStride, degrees: degrees,
                            binSize: 1, width: width, height: height, bins: &bins)
                    }
                }
            }
            let plain = Self.plainProfile(
                xs: xs, ys: ys, weights: weights, count: count, pointStride: pointStride, degrees: degrees,
                width: width, height: height)
            #expect(bins.count == plain.bins.count)
            let worst = zip(bins, plain.bins).map { abs($0 - $1) / max(1, abs($1)) }.max() ?? 0
            #expect(worst < 1e-5, "count \(count): bins off by \(worst)")
            #expect(abs(score - plain.score) <= 1e-5 * plain.score, "count \(count): \(score) vs \(plain.score)")
        }
    }

    /// The loop as it was written first: one profile, the points added in order.
    static func plainProfile(
        xs: [Float], ys: [Float], weights: [Float], count: Int, pointStride: Int, degrees: Double,
        width: Int, height: Int
    ) -> (bins: [Float], score: Double) {
        let radians = degrees * .pi / 180
        let c = Float(cos(radians)), s = Float(sin(radians))
        let offset = -min(0, s * Float(width - 1)) + 4
        let binCount = Int((Float(height) * abs(c) + Float(width) * abs(s)).rounded(.up)) + 10
        var b = [Float](repeating: 0, count: binCount)
        for i in Swift.stride(from: 0, to: count, by: pointStride) {
            let f = ys[i] * c + xs[i] * s + offset
            let k = Int(f)
            let frac = (f - Float(k)) * weights[i]
            b[k] += weights[i] - frac
            b[k + 1] += frac
        }
        var sum: Float = 0, previous: Float = 0
        for v in b {
            sum += (v - previous) * (v - previous)
            previous = v
        }
        return (b, Double(sum))
    }
}
