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

    /// The window sums run down the page (a row added, a row taken away): pages of noise and
    /// flat blocks whose windows are clipped at the top and bottom, or wider and taller than
    /// the page, at both contrasts the search uses, must give the plain loop's points.
    @Test(arguments: [(9, 9, 1), (7, 40, 2), (40, 7, 3), (13, 200, 4), (300, 97, 5), (1024, 60, 6), (257, 513, 7)])
    func variedPagesGiveThePlainLoopsPoints(width: Int, height: Int, seed: UInt64) {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        var gray = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Int(state >> 58)  // 0..<64
                // Flat blocks of light and dark with noise on them: some rows blank, some all ink.
                let block = ((x / 11 + y / 7) % 3 == 0) ? 60 : 190
                gray[y * width + x] = UInt8(clamping: block + noise - (y % 5 == 0 ? 50 : 0))
            }
        }
        for (contrast, cap) in [(SkewEstimator.inkContrast, Float.infinity), (SkewEstimator.ruledContrast, 12)] {
            let plain = Self.plainInkPoints(
                gray: gray, width: width, height: height, contrast: contrast, weightCap: cap)
            #expect(!plain.xs.isEmpty)
            let narrow = SkewEstimator.inkPoints(
                gray: gray, width: width, height: height, contrast: contrast, weightCap: cap, sums: Int32.self)
            let wide = SkewEstimator.inkPoints(
                gray: gray, width: width, height: height, contrast: contrast, weightCap: cap, sums: Int.self)
            for found in [narrow, wide] {
                #expect(found.xs.map(\.bitPattern) == plain.xs.map(\.bitPattern), "\(width)x\(height) \(contrast)")
                #expect(found.ys.map(\.bitPattern) == plain.ys.map(\.bitPattern))
                #expect(found.weights.map(\.bitPattern) == plain.weights.map(\.bitPattern))
            }
        }
    }

    /// Pixels exactly `inkContrast` under their window's mean are not ink: a page of two
    /// levels 81 apart (the 9 x 9 window's area), where a dark pixel with 20 light ones in its
    /// window lies exactly on the bar, must give the plain loop's points.
    @Test func pixelsOnTheBarAreNotInk() {
        let (width, height) = (120, 100)
        var state: UInt64 = 12345
        var gray = [UInt8](repeating: 100, count: width * height)
        for i in gray.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            if state >> 62 == 0 { gray[i] = 181 }  // a quarter of the pixels
        }
        let plain = Self.plainInkPoints(gray: gray, width: width, height: height)
        let found = SkewEstimator.inkPoints(gray: gray, width: width, height: height)
        #expect(!plain.xs.isEmpty)
        #expect(found.xs.count == plain.xs.count)
        #expect(found.xs.map(\.bitPattern) == plain.xs.map(\.bitPattern))
        #expect(found.weights.map(\.bitPattern) == plain.weights.map(\.bitPattern))
    }

    /// The loop as it was written first: 64-bit integral image, points appended.
    static func plainInkPoints(
        gray: [UInt8], width: Int, height: Int, contrast: Int = SkewEstimator.inkContrast,
        weightCap: Float = .infinity
    ) -> (xs: [Float], ys: [Float], weights: [Float]) {
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
                guard darkness > contrast * area else { continue }
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
