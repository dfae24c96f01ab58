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

    /// `sharpness` works out a block of points' bins and shares at once and then adds them
    /// (`SkewEstimator.scatter`): its profile and score must be bit for bit those of adding
    /// each point as it is worked out (`laneLoopProfile`), whatever the angle, bin size,
    /// stride and count, and for points landing on, just under and just over a bin's edge.
    @Test(arguments: [1, 2, 3, 7, 15])
    func blocksAddAsTheLaneLoopBitForBit(pointStride: Int) {
        let width = 300, height = 200
        let gray = SkewEstimatorSearchTests.page(width: width, height: height, degrees: -2.5, columns: [0.1...0.9])
        var (xs, ys, weights) = SkewEstimator.inkPoints(gray: gray, width: width, height: height)
        // Points on whole rows and a hair either side: at 0 degrees their position in the
        // profile is their row plus the offset, exactly.
        for row in 5..<60 {
            let y = Float(row)
            for (x, y) in [(10, y), (11, y.nextDown), (12, y.nextUp), (13, y + 0.5), (14, (y + 0.5).nextDown)] {
                xs.append(Float(x))
                ys.append(y)
                weights.append(Float(row % 7) + 0.25)
            }
        }
        #expect(xs.count > 3 * SkewEstimator.scatterBlock)
        for degrees in [0.0, 0.01, -0.37, 1.3, -7.0, 22.5, -44.75, 57.0] {
            for bin: Float in [1, 2, 8] {
                for count in [1, 2, 5, SkewEstimator.scatterBlock + 3, xs.count - 5, xs.count] {
                    var bins: [Float] = []
                    let score = xs.withUnsafeBufferPointer { xp in
                        ys.withUnsafeBufferPointer { yp in
                            weights.withUnsafeBufferPointer { wp in
                                SkewEstimator.sharpness(
                                    xs: xp, ys: yp, weights: wp, count: count, pointStride: pointStride,
                                    degrees: degrees, binSize: bin, width: width, height: height, bins: &bins)
                            }
                        }
                    }
                    let lanes = Self.laneLoopProfile(
                        xs: xs, ys: ys, weights: weights, count: count, pointStride: pointStride, degrees: degrees,
                        binSize: bin, width: width, height: height)
                    let same = bins.prefix(lanes.bins.count).elementsEqual(lanes.bins) {
                        $0.bitPattern == $1.bitPattern
                    }
                    #expect(same, "\(degrees) degrees, \(bin) px bins, \(count) points: profiles differ")
                    #expect(score.bitPattern == lanes.score.bitPattern, "\(degrees), \(bin), \(count)")
                }
            }
        }
    }

    /// A pass on every `stride`-th point copied together (`Projection.thinned`) scores every
    /// angle bit for bit as the pass reading them with the stride in place.
    @Test func thinnedPointsScoreAsTheStridedPass() {
        let width = 420, height = 300
        let gray = SkewEstimatorSearchTests.page(width: width, height: height, degrees: 4.2, columns: [0.1...0.9])
        let (xs, ys, weights) = SkewEstimator.inkPoints(gray: gray, width: width, height: height)
        xs.withUnsafeBufferPointer { xp in
            ys.withUnsafeBufferPointer { yp in
                weights.withUnsafeBufferPointer { wp in
                    for count in [xs.count, xs.count - 1, xs.count - 6] {
                        let rows = SkewEstimator.Projection(
                            xs: xp, ys: yp, weights: wp, count: count, width: width, height: height)
                        for stride in [1, 2, 5, 6, 13, 16] {
                            for degrees in [-30.0, -1.0, 4.2, 4.25] {
                                var bins: [Float] = []
                                let strided = rows.score(degrees, stride: stride, bin: 2, bins: &bins)
                                let thinned = rows.thinned(stride) { $0.score(degrees, stride: 1, bin: 2, bins: &bins) }
                                #expect(
                                    strided.bitPattern == thinned.bitPattern,
                                    "\(count) points, stride \(stride), \(degrees) degrees")
                            }
                        }
                    }
                }
            }
        }
    }

    /// The scatter as it was before `SkewEstimator.scatter`: each point worked out and added at
    /// once, point i of those read going to profile i mod 4.
    static func laneLoopProfile(
        xs: [Float], ys: [Float], weights: [Float], count: Int, pointStride: Int, degrees: Double, binSize: Float,
        width: Int, height: Int
    ) -> (bins: [Float], score: Double) {
        let radians = degrees * .pi / 180
        let c = Float(cos(radians)) / binSize, s = Float(sin(radians)) / binSize
        let offset = -min(0, s * Float(width - 1)) + 4
        let binCount = Int((Float(height) * abs(c) + Float(width) * abs(s)).rounded(.up)) + 10
        let lanes = 4
        var h = [Float](repeating: 0, count: binCount * lanes)
        for (read, i) in Swift.stride(from: 0, to: count, by: pointStride).enumerated() {
            let f = ys[i] * c + xs[i] * s + offset
            let k = Int(f)
            let frac = (f - Float(k)) * weights[i]
            h[k * lanes + read % lanes] += weights[i] - frac
            h[(k + 1) * lanes + read % lanes] += frac
        }
        let b = (0..<binCount).map { k in (h[k * lanes] + h[k * lanes + 1]) + (h[k * lanes + 2] + h[k * lanes + 3]) }
        var sum: Float = 0, previous: Float = 0
        for v in b {
            let step = v - previous
            sum += step * step
            previous = v
        }
        return (b, Double(sum))
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
