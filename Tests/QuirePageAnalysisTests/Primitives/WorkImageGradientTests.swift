import Testing

@testable import QuirePageAnalysis

/// `WorkImage.blur` and `computeGradient` run on raw row pointers with a select instead of a
/// branch: they must give the element-by-element loops' planes, gradient and threshold to the
/// last bit.
@Suite struct WorkImageGradientTests {
    /// The original blur: two passes of [1 2 1]/4 across then down, element by element.
    static func blurred(_ plane: [Float], width w: Int, height h: Int) -> [Float] {
        var p = plane
        var t = [Float](repeating: 0, count: w * h)
        for _ in 0..<2 {
            for y in 0..<h {
                let r = y * w
                t[r] = p[r]; t[r + w - 1] = p[r + w - 1]
                for x in 1..<(w - 1) { t[r + x] = 0.25 * p[r + x - 1] + 0.5 * p[r + x] + 0.25 * p[r + x + 1] }
            }
            for x in 0..<w { p[x] = t[x]; p[(h - 1) * w + x] = t[(h - 1) * w + x] }
            for y in 1..<(h - 1) {
                let r = y * w
                for x in 0..<w { p[r + x] = 0.25 * t[r - w + x] + 0.5 * t[r + x] + 0.25 * t[r + w + x] }
            }
        }
        return p
    }

    /// The original Sobel of the strongest channel, with a branch.
    static func gradient(_ planes: [[Float]], width w: Int, height h: Int) -> (gx: [Float], gy: [Float], m: [Float]) {
        var gx = [Float](repeating: 0, count: w * h), gy = gx, m = gx
        for p in planes {
            for y in 1..<(h - 1) {
                for x in 1..<(w - 1) {
                    let i = y * w + x
                    let a = p[i - w - 1], b = p[i - w], cc = p[i - w + 1]
                    let d = p[i - 1], f = p[i + 1]
                    let g = p[i + w - 1], hh = p[i + w], k = p[i + w + 1]
                    let sx = (cc + 2 * f + k) - (a + 2 * d + g)
                    let sy = (g + 2 * hh + k) - (a + 2 * b + cc)
                    let s = sx * sx + sy * sy
                    if s > m[i] { m[i] = s; gx[i] = sx; gy[i] = sy }
                }
            }
        }
        return (gx, gy, m.map { $0.squareRoot() })
    }

    @Test(arguments: [1, 3])
    func rowPointerLoopsEqualTheElementLoops(bands: Int) {
        var rng = SystemRandomNumberGenerator()
        for (width, height) in [(61, 47), (2, 5), (33, 3)] {
            // Flat areas (ties between channels, zero gradients) and noise.
            let pixels = (0..<(width * height * bands)).map { i in
                i % 7 < 3 ? UInt8(128) : UInt8.random(in: 0...255, using: &rng)
            }
            var work = WorkImage(pixels: pixels, width: width, height: height, bands: bands, factor: 1)
            let expected = work.planes.map { Self.blurred($0, width: width, height: height) }
            work.blur()
            #expect(work.planes.map { $0.map(\.bitPattern) } == expected.map { $0.map(\.bitPattern) })
            work.computeGradient()
            let (gx, gy, m) = Self.gradient(expected, width: width, height: height)
            #expect(work.gx.map(\.bitPattern) == gx.map(\.bitPattern))
            #expect(work.gy.map(\.bitPattern) == gy.map(\.bitPattern))
            #expect(work.mag.map(\.bitPattern) == m.map(\.bitPattern))
        }
    }
}
