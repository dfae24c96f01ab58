import Testing

@testable import QuirePageAnalysis

/// The last pass of the skew search reads `finestReach` steps of 0.01 degree either side of the
/// best 0.05 degree angle and goes on only while its best lies on an end: it must land on the
/// angle that reading every step to `finestLimit` lands on.
@Suite struct SkewEstimatorFinestTests {
    /// Pages of one and two columns at angles between the 0.05 degree grid's steps: the short
    /// read and the whole read give the same angle, to the last bit (and near the page's: the
    /// raw peak, before the estimate's checks; a page within a few hundredths of 0 reads up to
    /// 0.11 off on this synthetic grid).
    @Test(arguments: [0.0, 0.013, 0.037, -0.71, 1.262, 2.3, -3.148, 7.024])
    func shortReadFindsTheWholeReadsAngle(degrees: Double) {
        for columns in [[0.1...0.9], [0.08...0.46, 0.54...0.92]] {
            let (width, height) = (640, 820)
            let gray = SkewEstimatorSearchTests.page(width: width, height: height, degrees: degrees, columns: columns)
            let (xs, ys, ws) = SkewEstimator.inkPoints(gray: gray, width: width, height: height)
            let (short, whole) = xs.withUnsafeBufferPointer { xp in
                ys.withUnsafeBufferPointer { yp in
                    ws.withUnsafeBufferPointer { wp in
                        let rows = SkewEstimator.Projection(
                            xs: xp, ys: yp, weights: wp, count: xs.count, width: width, height: height)
                        let coarse = rows.coarseCurve()
                        let top = coarse.max()!
                        var bins: [Float] = []
                        let stride = max(1, xs.count / 60_000)
                        return (
                            rows.finePeak(coarse: coarse, coarseMax: top, stride: stride, bins: &bins),
                            rows.finePeak(
                                coarse: coarse, coarseMax: top, stride: stride,
                                reach: SkewEstimator.Projection.finestLimit, bins: &bins)
                        )
                    }
                }
            }
            #expect(
                short.bitPattern == whole.bitPattern, "\(columns.count) columns at \(degrees): \(short) vs \(whole)")
            #expect(abs(short - degrees) <= 0.2)
        }
    }
}
