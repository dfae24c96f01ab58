import QuireGeometry

/// The detector's geometry in QuireGeometry's `Point`, for code that would otherwise pass
/// `(Double, Double)` pairs about.
///
/// `Line.intersection`, `corners(of:)` and `centroid(_:)` in PageDetector.swift still give pairs;
/// these wrap them (same arithmetic, so the same bits) until that file moves over too.
extension PageDetector.Line {
    /// Signed distance of `p` from the line: positive on the side its normal points to.
    func distance(to p: Point) -> Double { distance(p.x, p.y) }

    /// Where the line meets `other`, or nil when the two are parallel.
    func meeting(_ other: PageDetector.Line) -> Point? {
        intersection(other).map { Point(x: $0.0, y: $0.1) }
    }
}

extension PageDetector {
    /// `corners(of:)` as points: corner i joins sides i and i+1; nil when two do not meet.
    static func cornerPoints(of sides: [Line]) -> [Point]? {
        corners(of: sides)?.map { Point(x: $0.0, y: $0.1) }
    }

    /// The mean of `points` (their centroid as a vertex set, not as an area).
    static func centroid(_ points: [Point]) -> Point {
        Point(
            x: points.reduce(0) { $0 + $1.x } / Double(points.count),
            y: points.reduce(0) { $0 + $1.y } / Double(points.count))
    }

    /// The quad through four corners in order (as `cornerPoints(of:)` gives them).
    static func quad(_ corners: [Point]) -> Quad {
        Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
    }
}
