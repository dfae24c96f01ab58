import Testing

@testable import QuirePageAnalysis

/// `WorkImage.edgePixels` passes over four pixels under the threshold at once: it must find the
/// element-by-element loop's edge pixels and bars, in the same order.
@Suite struct WorkImageEdgePixelsTests {
    /// The original loop: every pixel of the inner rows and columns tested on its own.
    static func elementLoop(_ work: WorkImage) -> (edges: [Int32], bars: [Bool]) {
        let (w, h) = (work.width, work.height)
        let (M, GX, GY, t) = (work.mag, work.gx, work.gy, work.threshold)
        var edges: [Int32] = [], bars: [Bool] = []
        guard h > 4, w > 4 else { return (edges, bars) }
        for y in 2..<(h - 2) {
            for x in 2..<(w - 2) {
                let i = y * w + x
                let m = M[i]
                if m < t { continue }
                let ax = abs(GX[i]), ay = abs(GY[i])
                let o: Int
                if ax > WorkImage.octantSlope * ay {
                    o = 1
                } else if ay > WorkImage.octantSlope * ax {
                    o = w
                } else if (GX[i] > 0) == (GY[i] > 0) {
                    o = w + 1
                } else {
                    o = w - 1
                }
                guard m >= M[i - o] && m > M[i + o] else { continue }
                let ux = GX[i] / m, uy = GY[i] / m
                var bar = false
                var k = WorkImage.barWidths.lowerBound
                while k <= WorkImage.barWidths.upperBound && !bar {
                    let ox = (k * ux).roundedInt, oy = (k * uy).roundedInt
                    k += 1
                    for (xc, yc) in [(x + ox, y + oy), (x - ox, y - oy)] where xc >= 0 && yc >= 0 && xc < w && yc < h {
                        let j = yc * w + xc
                        if GX[j] * ux + GY[j] * uy < -WorkImage.opposingGradientShare * m { bar = true }
                    }
                }
                edges.append(Int32(i))
                bars.append(bar)
            }
        }
        return (edges, bars)
    }

    @Test(arguments: [(61, 47), (5, 9), (7, 6), (130, 40)])
    func skippingFourAtOnceFindsTheSameEdges(width: Int, height: Int) {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<6 {
            // Flat areas, rectangles (long edges, bars) and noise, with runs of every length
            // under the threshold before each edge pixel.
            var pixels = [UInt8](repeating: 90, count: width * height * 3)
            for _ in 0..<(1 + round * 2) {
                let x0 = Int.random(in: 0..<width, using: &rng), y0 = Int.random(in: 0..<height, using: &rng)
                let x1 = Int.random(in: x0..<width, using: &rng), y1 = Int.random(in: y0..<height, using: &rng)
                let value = UInt8.random(in: 0...255, using: &rng)
                for y in y0...y1 { for x in x0...x1 { for c in 0..<3 { pixels[(y * width + x) * 3 + c] = value } } }
            }
            for i in pixels.indices where Int.random(in: 0..<10, using: &rng) < round {
                pixels[i] = UInt8.random(in: 0...255, using: &rng)
            }
            var work = WorkImage(pixels: pixels, width: width, height: height, bands: 3, factor: 1)
            work.blur()
            work.computeGradient()
            let found = work.edgePixels()
            let expected = Self.elementLoop(work)
            #expect(found.edges == expected.edges)
            #expect(found.bars == expected.bars)
        }
    }
}
