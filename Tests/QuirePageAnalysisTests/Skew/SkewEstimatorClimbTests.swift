import Testing

@testable import QuirePageAnalysis

/// The 1 px refinement follows its own curve to its peak: the 2 px coarse curve can peak half a
/// degree away from it (a two-column page read -1.16 against its columns' -1.02 and -0.86, the
/// refinement stopped on the edge of its window around the coarse peak at -1.5).
@Suite struct SkewEstimatorClimbTests {
    /// A coarse curve whose only peak lies `offset` degrees from the page's true angle, beyond
    /// the refinement's window (6 steps of 0.05): the estimate must still be the one the page's
    /// own coarse curve leads to (without the climb: 2.65, 1.84 and 3.41).
    @Test(arguments: [0.75, -0.75, 1.5])
    func refinementClimbsPastItsWindowToTheFinePeak(offset: Double) {
        let (width, height, degrees) = (520, 680, 2.3)
        let gray = SkewEstimatorSearchTests.page(width: width, height: height, degrees: degrees, columns: [0.1...0.9])
        let (xs, ys, ws) = SkewEstimator.inkPoints(gray: gray, width: width, height: height)
        let (found, own) = xs.withUnsafeBufferPointer { xp in
            ys.withUnsafeBufferPointer { yp in
                ws.withUnsafeBufferPointer { wp in
                    let rows = SkewEstimator.Projection(
                        xs: xp, ys: yp, weights: wp, count: xs.count, width: width, height: height)
                    let peak = degrees + offset
                    let coarse = SkewEstimator.Projection.coarseAngles.map { 100 - abs($0 - peak) }
                    return (rows.estimate(coarse: coarse), rows.estimate(coarse: rows.coarseCurve()))
                }
            }
        }
        #expect(found == own, "coarse peak \(degrees + offset): read \(found), own curve \(own)")
        #expect(abs(found.degrees - degrees) <= 0.1)
    }
}
