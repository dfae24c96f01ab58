import QuireGeometry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the frame around a page looks like, from the detection copy alone: whether a quad is the
/// axis-aligned rectangle a scanner lid makes, and whether the frame's outer strips are textured
/// (a desk, a carpet, a cloth) or flat (a scanner lid, the glass edge).
package enum FrameChecks {
    /// Right angles within 1 degree, opposite sides equal within 1.5 %, rotation under 20 degrees.
    package static func isScanRectangle(_ quad: Quad) -> Bool {
        let c = quad.corners
        for i in 0..<4 {
            let a = c[(i + 3) % 4], b = c[i], d = c[(i + 1) % 4]
            let v1 = (a.x - b.x, a.y - b.y), v2 = (d.x - b.x, d.y - b.y)
            let cosAngle =
                (v1.0 * v2.0 + v1.1 * v2.1)
                / ((v1.0 * v1.0 + v1.1 * v1.1).squareRoot() * (v2.0 * v2.0 + v2.1 * v2.1).squareRoot())
            if abs(cosAngle) > sin(1.0 * Double.pi / 180) { return false }
        }
        let e = quad.edgeLengths
        if abs(e.top - e.bottom) > 0.015 * max(e.top, e.bottom) { return false }
        if abs(e.left - e.right) > 0.015 * max(e.left, e.right) { return false }
        let rotation = atan2(quad.topRight.y - quad.topLeft.y, quad.topRight.x - quad.topLeft.x) * 180 / Double.pi
        return abs(rotation) < 20
    }

    /// True when at least three of the four outer strips (2 % of the size) are textured: their
    /// neighbouring pixels differ by 1.5 levels or more on average along the strip, as the grain
    /// of a desk, a carpet or a cloth does. A scanner lid, even with the page crossing it, is a
    /// few flat runs (0.0-1.0 on the real and generated scans; a desk 1.8-5.2).
    package static func hasTexturedFrame(pixels: [UInt8], width w: Int, height h: Int, bands b: Int) -> Bool {
        let depth = min(min(w, h), max(2, min(w, h) / 50))
        func level(_ x: Int, _ y: Int) -> Int {
            let o = (y * w + x) * b
            var m = Int(pixels[o])
            for c in 1..<min(b, 3) { m = max(m, Int(pixels[o + c])) }
            return m
        }
        /// Mean absolute step between neighbours along a strip `along` x (or y).
        func roughness(_ xs: Range<Int>, _ ys: Range<Int>, alongX: Bool) -> Double {
            var sum = 0, n = 0
            for y in ys {
                for x in xs {
                    let (nx, ny) = alongX ? (x + 1, y) : (x, y + 1)
                    guard nx < w, ny < h, xs.contains(nx) || !alongX, ys.contains(ny) || alongX else { continue }
                    sum += abs(level(nx, ny) - level(x, y)); n += 1
                }
            }
            return n > 0 ? Double(sum) / Double(n) : 0
        }
        let strips = [
            roughness(0..<w, 0..<depth, alongX: true), roughness(0..<w, (h - depth)..<h, alongX: true),
            roughness(0..<depth, 0..<h, alongX: false), roughness((w - depth)..<w, 0..<h, alongX: false)
        ]
        return strips.filter { $0 >= 1.5 }.count >= 3
    }

    /// True when at least two of the four outer strips (2 % of the size) are flat: one colour with
    /// little variation, as a scanner lid or the glass edge is.
    package static func hasFlatFrame(pixels: [UInt8], width w: Int, height h: Int, bands b: Int) -> Bool {
        let depth = min(min(w, h), max(2, min(w, h) / 50))
        func flatness(_ xs: Range<Int>, _ ys: Range<Int>) -> Bool {
            var sum = 0.0, sumSq = 0.0, n = 0.0
            for y in ys {
                for x in xs {
                    let o = (y * w + x) * b
                    for c in 0..<min(b, 3) {
                        let v = Double(pixels[o + c])
                        sum += v; sumSq += v * v; n += 1
                    }
                }
            }
            guard n > 0 else { return false }
            let mean = sum / n
            return (sumSq / n - mean * mean).squareRoot() < 6
        }
        let strips = [
            flatness(0..<w, 0..<depth), flatness(0..<w, (h - depth)..<h),
            flatness(0..<depth, 0..<h), flatness((w - depth)..<w, 0..<h)
        ]
        return strips.filter { $0 }.count >= 2
    }
}
