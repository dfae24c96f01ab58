/// A simple polygon, used for areas and for clipping convex shapes against each other.
public struct Polygon: Hashable, Sendable {
    public var vertices: [Point]

    /// The polygon through `vertices`, in order (closed back to the first).
    public init(_ vertices: [Point]) {
        self.vertices = vertices
    }

    /// Shoelace area, positive for clockwise vertices on a y-down screen.
    public var signedArea: Double {
        guard vertices.count >= 3 else { return 0 }
        var sum = 0.0
        for i in vertices.indices {
            let a = vertices[i], b = vertices[(i + 1) % vertices.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }

    public var area: Double { abs(signedArea) }

    /// The intersection with a convex polygon (Sutherland–Hodgman clipping).
    /// - Complexity: O(n·m) for n and m vertices.
    public func clipped(toConvex clip: Polygon) -> Polygon {
        guard vertices.count >= 3, clip.vertices.count >= 3 else { return Polygon([]) }
        let orientation: Double = clip.signedArea >= 0 ? 1 : -1
        var output = vertices
        let c = clip.vertices
        for i in c.indices {
            let a = c[i], b = c[(i + 1) % c.count]
            let input = output
            output = []
            guard !input.isEmpty else { break }
            func inside(_ p: Point) -> Bool {
                ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) * orientation >= 0
            }
            func crossing(_ p: Point, _ q: Point) -> Point {
                let d1 = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
                let d2 = (b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x)
                let t = d1 / (d1 - d2)
                return Point(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t)
            }
            var previous = input[input.count - 1]
            for current in input {
                if inside(current) {
                    if !inside(previous) { output.append(crossing(previous, current)) }
                    output.append(current)
                } else if inside(previous) {
                    output.append(crossing(previous, current))
                }
                previous = current
            }
        }
        return Polygon(output)
    }

    /// Intersection over union with another convex polygon; 0 when the union is empty.
    public func intersectionOverUnion(with other: Polygon) -> Double {
        let a = area, b = other.area
        guard a > 0, b > 0, a.isFinite, b.isFinite else { return 0 }
        let overlap = clipped(toConvex: other).area
        let union = a + b - overlap
        return union > 0 ? Swift.min(1, Swift.max(0, overlap / union)) : 0
    }
}
