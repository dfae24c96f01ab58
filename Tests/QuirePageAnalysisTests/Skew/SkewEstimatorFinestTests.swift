import Testing

@testable import QuirePageAnalysis

/// The last pass of the skew search reads `finestReach` steps of 0.01 degree either side of the
/// best `fineStep` angle and goes on only while its best lies on an end: it must land on the
/// angle that reading every step to `finestLimit` lands on, and on the angle a second pass at
/// half the step (0.05 degree) leads it to.
@Suite struct SkewEstimatorFinestTests {
    /// The peak `finePeak` finds on a synthetic page of `columns` turned `degrees`, with the
    /// last pass's `reach` and the second pass's `step`.
    static func peak(
        degrees: Double, columns: [ClosedRange<Double>], reach: Int = SkewEstimator.Projection.finestReach,
        step: Double = SkewEstimator.Projection.fineStep
    ) -> Double {
        let (width, height) = (640, 820)
        let gray = SkewEstimatorSearchTests.page(width: width, height: height, degrees: degrees, columns: columns)
        let (xs, ys, ws) = SkewEstimator.inkPoints(gray: gray, width: width, height: height)
        return xs.withUnsafeBufferPointer { xp in
            ys.withUnsafeBufferPointer { yp in
                ws.withUnsafeBufferPointer { wp in
                    let rows = SkewEstimator.Projection(
                        xs: xp, ys: yp, weights: wp, count: xs.count, width: width, height: height)
                    let coarse = rows.coarseCurve()
                    var bins: [Float] = []
                    return rows.finePeak(
                        coarse: coarse, coarseMax: coarse.max()!, stride: max(1, xs.count / 60_000), reach: reach,
                        step: step, bins: &bins)
                }
            }
        }
    }

    /// The second pass at `fineStep` (0.1 degree) leads the last pass to the top that one at
    /// half the step leads it to, on pages whose top lies anywhere between two 0.1 degree
    /// steps, within half a 0.01 degree step (the two reach the same 0.01 degree angles by
    /// different sums, and the parabola through them may move a little). A step too coarse
    /// for the last pass's `finestLimit` to make up lands a whole step or more away.
    @Test(arguments: [0.0, 0.013, 0.037, 0.05, 0.072, -0.71, 1.262, 2.3, -3.148, 7.024])
    func secondPassAtATenthLandsWhereAtAHalfTenth(degrees: Double) {
        for columns in [[0.1...0.9], [0.08...0.46, 0.54...0.92]] {
            let tenth = Self.peak(degrees: degrees, columns: columns)
            let halfTenth = Self.peak(degrees: degrees, columns: columns, step: 0.05)
            #expect(abs(tenth - halfTenth) <= 0.005, "\(columns.count) columns at \(degrees): \(tenth) vs \(halfTenth)")
        }
    }

    /// Pages of one and two columns at angles between the 0.05 degree grid's steps: the short
    /// read and the whole read give the same angle, to the last bit (and near the page's: the
    /// raw peak, before the estimate's checks; a page within a few hundredths of 0 reads up to
    /// 0.11 off on this synthetic grid).
    @Test(arguments: [0.0, 0.013, 0.037, -0.71, 1.262, 2.3, -3.148, 7.024])
    func shortReadFindsTheWholeReadsAngle(degrees: Double) {
        for columns in [[0.1...0.9], [0.08...0.46, 0.54...0.92]] {
            let short = Self.peak(degrees: degrees, columns: columns)
            let whole = Self.peak(degrees: degrees, columns: columns, reach: SkewEstimator.Projection.finestLimit)
            #expect(
                short.bitPattern == whole.bitPattern, "\(columns.count) columns at \(degrees): \(short) vs \(whole)")
            #expect(abs(short - degrees) <= 0.2)
        }
    }
}
