/// A quadrilateral given by its corners in reading order: top-left, top-right, bottom-right,
/// bottom-left of the page as read (not necessarily of the image).
public struct Quad: Hashable, Sendable, Codable {
    public var topLeft: Point
    public var topRight: Point
    public var bottomRight: Point
    public var bottomLeft: Point

    /// The quadrilateral with these corners, named in the page's reading order.
    public init(topLeft: Point, topRight: Point, bottomRight: Point, bottomLeft: Point) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
    }

    /// The quad covering a whole `width` x `height` frame.
    public init(rect: Rect) {
        self.init(
            topLeft: Point(x: rect.minX, y: rect.minY), topRight: Point(x: rect.maxX, y: rect.minY),
            bottomRight: Point(x: rect.maxX, y: rect.maxY), bottomLeft: Point(x: rect.minX, y: rect.maxY))
    }

    /// Corners in order TL, TR, BR, BL.
    public var corners: [Point] { [topLeft, topRight, bottomRight, bottomLeft] }

    /// Builds a quad from four corners in order TL, TR, BR, BL; nil unless exactly four.
    public init?(corners: [Point]) {
        guard corners.count == 4 else { return nil }
        self.init(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
    }

    public var isFinite: Bool { corners.allSatisfy(\.isFinite) }

    /// One side of a quad: from corner `start` to the next corner, the step between them and
    /// the unit normal pointing away from the quad's centre.
    public struct Side: Hashable, Sendable {
        public var start: Point
        public var step: Point
        public var outward: Point
        /// The point a share `t` of the way along the side, moved `distance` outward.
        public func point(at t: Double, out distance: Double) -> Point {
            Point(x: start.x + step.x * t + outward.x * distance, y: start.y + step.y * t + outward.y * distance)
        }
    }

    /// The four sides, side i from corner i to corner i+1 (top, right, bottom, left for a quad
    /// in reading order); nil when a side is shorter than a pixel.
    public var sides: [Side]? {
        let c = corners
        let cx = c.map(\.x).reduce(0, +) / 4, cy = c.map(\.y).reduce(0, +) / 4
        var out: [Side] = []
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4]
            let ex = b.x - a.x, ey = b.y - a.y
            let length = (ex * ex + ey * ey).squareRoot()
            guard length > 1 else { return nil }
            var nx = ey / length, ny = -ex / length
            if nx * ((a.x + b.x) / 2 - cx) + ny * ((a.y + b.y) / 2 - cy) < 0 { nx = -nx; ny = -ny }
            out.append(Side(start: a, step: Point(x: ex, y: ey), outward: Point(x: nx, y: ny)))
        }
        return out
    }

    /// Signed area by the shoelace formula (positive when the corners run clockwise on a
    /// y-down screen, as TL, TR, BR, BL do).
    public var signedArea: Double { Polygon(corners).signedArea }
    public var area: Double { abs(signedArea) }

    /// True when all four turns go the same way (a convex, non-self-intersecting quad).
    public var isConvex: Bool {
        let c = corners
        var sign = 0.0
        for i in 0..<4 {
            let a = c[i], b = c[(i + 1) % 4], d = c[(i + 2) % 4]
            let cross = (b.x - a.x) * (d.y - b.y) - (b.y - a.y) * (d.x - b.x)
            if cross == 0 { return false }
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
        }
        return true
    }

    /// Lengths of the top, right, bottom and left edges.
    public var edgeLengths: (top: Double, right: Double, bottom: Double, left: Double) {
        (
            topLeft.distance(to: topRight), topRight.distance(to: bottomRight),
            bottomRight.distance(to: bottomLeft), bottomLeft.distance(to: topLeft)
        )
    }

    /// The axis-aligned bounding box.
    public var boundingBox: Rect {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = xs.min()!, y0 = ys.min()!
        return Rect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
    }

    /// Jaccard index (intersection over union) with another convex quad, as scored in the
    /// SmartDoc 2015 competition; 0 when either quad is degenerate.
    public func intersectionOverUnion(with other: Quad) -> Double {
        Polygon(corners).intersectionOverUnion(with: Polygon(other.corners))
    }

    /// The largest distance between corresponding corners.
    public func worstCornerDistance(to other: Quad) -> Double {
        zip(corners, other.corners).map { $0.distance(to: $1) }.max() ?? 0
    }

    /// Every corner mapped through a function (scaling between image sizes, transforms).
    public func map(_ transform: (Point) -> Point) -> Quad {
        Quad(
            topLeft: transform(topLeft), topRight: transform(topRight),
            bottomRight: transform(bottomRight), bottomLeft: transform(bottomLeft))
    }
}
