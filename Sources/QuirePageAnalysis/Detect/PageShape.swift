#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The upright size of a page seen as a quad in a photo.
///
/// Averaging edge lengths underestimates the side that is foreshortened by the tilt of the
/// camera. With the principal point at the image centre and square pixels, the page's true
/// aspect ratio follows from the quad alone (Zhang and He, "Whiteboard scanning and image
/// enhancement", 2007): the focal length is recovered from the two vanishing points. When the
/// quad has no measurable perspective (or the focal length comes out implausible) the ratio of
/// mean edge lengths is used.
package enum PageShape {
    /// Estimated width / height of the page in `quad` (reading order) photographed in an image of
    /// `imageWidth` x `imageHeight`.
    /// - Complexity: O(1).
    package static func aspectRatio(of quad: Quad, imageWidth: Double, imageHeight: Double) -> Double {
        let e = quad.edgeLengths
        let fallback = (e.top + e.bottom) / max(1e-9, e.left + e.right)
        let u0 = imageWidth / 2, v0 = imageHeight / 2
        func h(_ p: Point) -> (Double, Double, Double) { (p.x - u0, p.y - v0, 1) }
        func cross(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> (Double, Double, Double) {
            (a.1 * b.2 - a.2 * b.1, a.2 * b.0 - a.0 * b.2, a.0 * b.1 - a.1 * b.0)
        }
        func dot(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
            a.0 * b.0 + a.1 * b.1 + a.2 * b.2
        }
        let m1 = h(quad.topLeft), m2 = h(quad.topRight), m3 = h(quad.bottomLeft), m4 = h(quad.bottomRight)
        let c14 = cross(m1, m4)
        let d2 = dot(cross(m2, m4), m3), d3 = dot(cross(m3, m4), m2)
        guard abs(d2) > 1e-9, abs(d3) > 1e-9 else { return fallback }
        let k2 = dot(c14, m3) / d2, k3 = dot(c14, m2) / d3
        let n2 = (k2 * m2.0 - m1.0, k2 * m2.1 - m1.1, k2 * m2.2 - m1.2)
        let n3 = (k3 * m3.0 - m1.0, k3 * m3.1 - m1.1, k3 * m3.2 - m1.2)
        let diag = (imageWidth * imageWidth + imageHeight * imageHeight).squareRoot()
        let pp = n2.2 * n3.2
        // Nearly affine: the ratio of the image of the two page axes is the answer.
        if abs(pp) < 1e-6 || abs(k2 - 1) < 1e-3 && abs(k3 - 1) < 1e-3 {
            let r = (n2.0 * n2.0 + n2.1 * n2.1).squareRoot() / max(1e-9, (n3.0 * n3.0 + n3.1 * n3.1).squareRoot())
            return r.isFinite && r > 0 ? r : fallback
        }
        let f2 = -(n2.0 * n3.0 + n2.1 * n3.1) / pp
        guard f2.isFinite, f2 > 0 else { return fallback }
        let f = f2.squareRoot()
        // Phone lenses span about 0.6 (wide) to 2 (tele) image diagonals; outside that the quad is
        // not a pinhole view of a rectangle (or too noisy to tell), so trust the edges instead.
        guard f > 0.5 * diag, f < 3 * diag else { return fallback }
        let num = (n2.0 * n2.0 + n2.1 * n2.1) / f2 + n2.2 * n2.2
        let den = (n3.0 * n3.0 + n3.1 * n3.1) / f2 + n3.2 * n3.2
        let r = (num / den).squareRoot()
        // Guard against wild answers from nearly degenerate vanishing points.
        guard r.isFinite, r > 0, r / fallback < 1.6, fallback / r < 1.6 else { return fallback }
        return r
    }

    /// Output pixel size for the page in `quad`: the aspect ratio (estimated, or the named
    /// paper's in the orientation the estimate suggests) at the resolution of the longer edges.
    /// - Parameter paperRatio: the named paper's short side / long side, nil to estimate.
    package static func outputSize(
        for quad: Quad, imageWidth: Int, imageHeight: Int,
        paperRatio: Double?
    ) -> (width: Int, height: Int) {
        let e = quad.edgeLengths
        var aspect = aspectRatio(of: quad, imageWidth: Double(imageWidth), imageHeight: Double(imageHeight))
        if let r = paperRatio { aspect = aspect >= 1 ? 1 / r : r }
        var w = max(e.top, e.bottom), h = max(e.left, e.right)
        if w / h > aspect { h = w / aspect } else { w = h * aspect }
        return (pixels(w), pixels(h))
    }

    /// The largest side `outputSize` returns: beyond any page (and `--max-pixels` refuses far
    /// less), and small enough that width x height cannot overflow an `Int`.
    static let maxOutputSide = 1_000_000_000

    /// `value` rounded to whole pixels in 1...`maxOutputSide` (NaN gives 1), so a quad with
    /// corners far apart never traps in the conversion to `Int`.
    static func pixels(_ value: Double) -> Int {
        guard value.isFinite else { return value == .infinity ? maxOutputSide : 1 }
        return Int(min(max(value.rounded(), 1), Double(maxOutputSide)))
    }
}
