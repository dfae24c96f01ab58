/// A point in a plane, in points or pixels depending on the caller's space.
public struct Point: Hashable, Sendable, Codable {
    public var x: Double
    public var y: Double

    /// The point (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    /// True when both coordinates are finite (not NaN, not infinite).
    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// The component-wise sum: `a` moved by `b`.
    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    /// The component-wise difference: the vector from `b` to `a`.
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    /// Both components scaled by `s`.
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }

    /// Euclidean distance to another point.
    public func distance(to other: Point) -> Double {
        let dx = other.x - x, dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }
}

/// `Point` under a name no Apple framework uses: on Apple platforms Foundation also brings in
/// QuickDraw's `Point` (MacTypes.h), and a bare `Point` is then ambiguous.
public typealias QuirePoint = Point
