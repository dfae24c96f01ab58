import Testing

@testable import QuirePageAnalysis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The skew search computes the coarse curve only around the peaks of a cheaper first pass
/// (`SkewEstimator.Projection.narrowedCurve`): it must find the angle the whole curve finds, at
/// any angle, and compute well under half of that curve.
@Suite struct SkewEstimatorSearchTests {
    /// A grey page `width` x `height` of text lines (dark dashes 4 px high every 14 px, gaps
    /// between words) in `columns` (shares of the width), turned `degrees` counter-clockwise
    /// about its centre; sampled per pixel, so nothing outside this file draws it.
    static func page(width: Int, height: Int, degrees: Double, columns: [ClosedRange<Double>]) -> [UInt8] {
        let a = degrees * .pi / 180
        let (c, s) = (cos(a), sin(a))
        let (cx, cy) = (Double(width) / 2, Double(height) / 2)
        var gray = [UInt8](repeating: 235, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                // The unturned page's point shown at (x, y): turn back clockwise on screen.
                let dx = Double(x) - cx, dy = Double(y) - cy
                let u = dx * c - dy * s + cx, v = dx * s + dy * c + cy
                let share = u / Double(width)
                guard v > 60, v < Double(height) - 60, columns.contains(where: { $0.contains(share) }) else { continue }
                let (row, col) = (Int(v.rounded(.down)), Int(u.rounded(.down)))
                if row % 14 < 4, (col / 9 + row / 14) % 7 != 6 { gray[y * width + x] = 30 }
            }
        }
        return gray
    }

    @Test(arguments: [-44.0, -27.5, -9.3, -2.05, -0.4, 0.0, 0.17, 1.3, 6.8, 18.25, 38.0])
    func narrowedSearchFindsTheWholeCurvesAngle(degrees: Double) {
        for (width, height, columns) in [(520, 680, [0.1...0.9]), (700, 500, [0.08...0.46, 0.54...0.92])] {
            let gray = Self.page(width: width, height: height, degrees: degrees, columns: columns)
            let narrowed = SkewEstimator.estimate(gray: gray, width: width, height: height)
            let full = SkewEstimator.estimate(gray: gray, width: width, height: height, fullSearch: true)
            #expect(narrowed == full, "\(width)x\(height) at \(degrees): \(narrowed) against \(full)")
            // The portrait page is read within 0.15 degree; the landscape one's two columns of
            // baselines, sampled on whole pixels, read 0 at 0.17 by either search.
            if height > width {
                #expect(abs(narrowed.degrees - degrees) <= 0.15, "\(width)x\(height) at \(degrees): \(narrowed)")
            }
        }
    }

    /// Whether a page's lines run down (the spread check's question) is answered the same by
    /// the narrowed curves, for pages upright and lying a quarter turn round.
    @Test(arguments: [-12.0, -1.1, 0.0, 0.4, 3.7, 30.0])
    func linesRunDownAnswersAsTheWholeCurves(degrees: Double) {
        for turn in [0.0, 90.0] {
            let gray = Self.page(width: 700, height: 500, degrees: degrees + turn, columns: [0.1...0.9])
            let narrowed = SkewEstimator.linesRunDown(gray: gray, width: 700, height: 500, margin: 1.5)
            let full = SkewEstimator.linesRunDown(gray: gray, width: 700, height: 500, margin: 1.5, fullSearch: true)
            #expect(narrowed == full, "at \(degrees) + \(turn)")
            #expect(narrowed == (turn != 0), "at \(degrees) + \(turn)")
        }
    }

    /// The first pass reads at most `firstPoints` ink points, whatever their count (rounded
    /// down, the stride let it read up to twice as many), and no fewer than half of them.
    @Test(arguments: [1, 64, 4_999, 5_000, 5_001, 9_999, 10_000, 14_999, 60_001, 123_457])
    func firstPassReadsAtMostItsPoints(count: Int) {
        let limit = SkewEstimator.Projection.firstPoints
        let stride = SkewEstimator.Projection.firstStride(count: count)
        let read = (count + stride - 1) / stride
        #expect(read <= limit, "\(count) points: reads \(read)")
        #expect(read >= min(count, limit / 2), "\(count) points: reads \(read)")
    }

    @Test func narrowedCurveComputesUnderHalfTheAnglesAndKeepsTheirValues() {
        let (width, height) = (520, 680)
        let gray = Self.page(width: width, height: height, degrees: 3.4, columns: [0.1...0.9])
        let (xs, ys, ws) = SkewEstimator.inkPoints(gray: gray, width: width, height: height)
        xs.withUnsafeBufferPointer { xp in
            ys.withUnsafeBufferPointer { yp in
                ws.withUnsafeBufferPointer { wp in
                    let rows = SkewEstimator.Projection(
                        xs: xp, ys: yp, weights: wp, count: xs.count, width: width, height: height)
                    let full = rows.coarseCurve()
                    let narrowed = rows.narrowedCurve()
                    #expect(narrowed.count == full.count)
                    let computed = narrowed.indices.filter { narrowed[$0].isFinite }
                    #expect(computed.count * 2 < full.count, "\(computed.count) of \(full.count) angles")
                    #expect(computed.allSatisfy { narrowed[$0] == full[$0] })
                    #expect(narrowed.max() == full.max())
                }
            }
        }
    }
}
