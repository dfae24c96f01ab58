/// A plane projective transform (3x3 matrix, row-major, `m[8]` normalised to 1 when possible):
/// `x' = (m0·x + m1·y + m2) / w`, `y' = (m3·x + m4·y + m5) / w`, `w = m6·x + m7·y + m8`.
///
/// Perspective correction maps each pixel of the upright output page back into the photo, so
/// the warp uses the homography from output rect to source quad.
public struct Homography: Hashable, Sendable, Codable {
    public var m: [Double]

    /// A homography from its 9 matrix entries, row-major (`matrix.count` must be 9).
    public init(matrix: [Double]) {
        precondition(matrix.count == 9, "a homography has 9 entries")
        self.m = matrix
    }

    public static let identity = Homography(matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// The homography mapping `source[i]` to `destination[i]` for four point pairs, found by
    /// solving the 8x8 direct linear system with partial pivoting.
    /// - Returns: nil when the points are degenerate (three collinear, repeated, not finite).
    public init?(from source: [Point], to destination: [Point]) {
        guard source.count == 4, destination.count == 4,
            source.allSatisfy(\.isFinite), destination.allSatisfy(\.isFinite)
        else { return nil }
        var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for i in 0..<4 {
            let (x, y) = (source[i].x, source[i].y)
            let (u, v) = (destination[i].x, destination[i].y)
            a[2 * i] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
            a[2 * i + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
        }
        guard let h = Homography.solve(&a) else { return nil }
        self.init(matrix: h + [1])
    }

    /// The homography taking the rect `(0, 0, width, height)` onto `quad` (TL, TR, BR, BL):
    /// what a warp needs to look up source pixels for each output pixel.
    public init?(rectWidth width: Double, height: Double, to quad: Quad) {
        let rect = [Point(x: 0, y: 0), Point(x: width, y: 0), Point(x: width, y: height), Point(x: 0, y: height)]
        self.init(from: rect, to: quad.corners)
    }

    /// Maps a point; nil when it maps to infinity (w = 0).
    public func apply(_ p: Point) -> Point? {
        let w = m[6] * p.x + m[7] * p.y + m[8]
        guard w != 0 else { return nil }
        let r = Point(x: (m[0] * p.x + m[1] * p.y + m[2]) / w, y: (m[3] * p.x + m[4] * p.y + m[5]) / w)
        return r.isFinite ? r : nil
    }

    /// The inverse transform, or nil when singular.
    public func inverted() -> Homography? {
        let (a, b, c, d, e, f, g, h, i) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
        let det = a * A + b * B + c * C
        guard det != 0, det.isFinite else { return nil }
        var inv = [
            A, -(b * i - c * h), b * f - c * e,
            B, a * i - c * g, -(a * f - c * d),
            C, -(a * h - b * g), a * e - b * d
        ].map { $0 / det }
        if inv[8] != 0 { inv = inv.map { $0 / inv[8] } }
        return Homography(matrix: inv)
    }

    /// Gaussian elimination with partial pivoting on an n x (n+1) augmented matrix.
    private static func solve(_ a: inout [[Double]]) -> [Double]? {
        let n = a.count
        for col in 0..<n {
            var pivot = col
            for row in col + 1..<n where abs(a[row][col]) > abs(a[pivot][col]) { pivot = row }
            guard abs(a[pivot][col]) > 1e-12 else { return nil }
            a.swapAt(col, pivot)
            for row in 0..<n where row != col {
                let factor = a[row][col] / a[col][col]
                if factor == 0 { continue }
                for k in col...n { a[row][k] -= factor * a[col][k] }
            }
        }
        let x = (0..<n).map { a[$0][n] / a[$0][$0] }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}
