import Testing

@testable import QuirePageAnalysis

/// The ink points are written into arrays made at their largest size and summed in 32 bits
/// when the image allows: they must be the points the plain loop appends one by one with
/// 64-bit sums, bit for bit and in the same order, since the skew search's float sums follow
/// that order.
@Suite struct SkewEstimatorInkPointsTests {
    @Test(arguments: [(520, 680, 2.3), (1000, 707, -0.8), (64, 40, 0.0)])
    func inkPointsAreThoseOfThePlainLoop(width: Int, height: Int, degrees: Double) {
        var gray = SkewEstimatorSearchTests.page(width: width, height: height, degrees: degrees, columns: [0.1...0.9])
        // A soft gradient and a dark band: sums of every size, ink against light and dark.
        for y in 0..<height {
            for x in 0..<width where x < width / 8 { gray[y * width + x] = UInt8(40 + (x * 3 + y) % 60) }
        }
        let made = SkewEstimator.inkPoints(gray: gray, width: width, height: height)
        let wide = SkewEstimator.inkPoints(
            gray: gray, width: width, height: height, contrast: SkewEstimator.inkContrast, weightCap: .infinity,
            sums: Int.self)
        let plain = Self.plainInkPoints(gray: gray, width: width, height: height)
        #expect(!plain.xs.isEmpty)
        for found in [made, wide] {
            #expect(found.xs.map(\.bitPattern) == plain.xs.map(\.bitPattern))
            #expect(found.ys.map(\.bitPattern) == plain.ys.map(\.bitPattern))
            #expect(found.weights.map(\.bitPattern) == plain.weights.map(\.bitPattern))
        }
        let capped = SkewEstimator.inkPoints(gray: gray, width: width, height: height, weightCap: 30)
        let plainCapped = Self.plainInkPoints(gray: gray, width: width, height: height, weightCap: 30)
        #expect(capped.weights.map(\.bitPattern) == plainCapped.weights.map(\.bitPattern))
    }

    /// The loop as it was written first: 64-bit integral image, points appended.
    static func plainInkPoints(gray: [UInt8], width: Int, height: Int, weightCap: Float = .infinity)
        -> (xs: [Float], ys: [Float], weights: [Float])
    {
        let radius = max(4, min(width, height) / 48)
        let stride = width + 1
        var s = [Int](repeating: 0, count: stride * (height + 1))
        for y in 0..<height {
            var row = 0
            for x in 0..<width {
                row += Int(gray[y * width + x])
                s[(y + 1) * stride + x + 1] = s[y * stride + x + 1] + row
            }
        }
        var xs: [Float] = [], ys: [Float] = [], weights: [Float] = []
        for y in 3..<(height - 3) {
            let y0 = max(0, y - radius), y1 = min(height, y + radius + 1)
            for x in 3..<(width - 3) {
                let x0 = max(0, x - radius), x1 = min(width, x + radius + 1)
                let area = (y1 - y0) * (x1 - x0)
                let sum = s[y1 * stride + x1] - s[y0 * stride + x1] - s[y1 * stride + x0] + s[y0 * stride + x0]
                let darkness = sum - Int(gray[y * width + x]) * area
                guard darkness > SkewEstimator.inkContrast * area else { continue }
                let n = Double(xs.count + 1)
                let fy = Float(n * 0.6180339887), fx = Float(n * 0.4142135624)
                xs.append(Float(x) + (fx - fx.rounded(.towardZero)) - 0.5)
                ys.append(Float(y) + (fy - fy.rounded(.towardZero)) - 0.5)
                weights.append(min(weightCap, Float(darkness) / Float(area)))
            }
        }
        return (xs, ys, weights)
    }
}
