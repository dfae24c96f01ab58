/// A 2-D affine transform `[a b 0; c d 0; tx ty 1]` in Core Graphics' row-vector convention:
/// `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
public struct AffineTransform: Hashable, Sendable, Codable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    /// The transform `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty` (Core Graphics' layout).
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by (`x`, `y`).
    public static func translation(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// A scale by `x` across and `y` down, about the origin.
    public static func scale(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// A rotation by `radians`, counter-clockwise in a y-up space (clockwise on a y-down screen).
    public static func rotation(_ radians: Double) -> AffineTransform {
        let cs = _cos(radians), sn = _sin(radians)
        return AffineTransform(a: cs, b: sn, c: -sn, d: cs, tx: 0, ty: 0)
    }

    /// A turn by `degrees` (clockwise on a y-down image) about the centre of a `width` x `height`
    /// image, onto the canvas grown to hold all of the turned image, as libvips' `rotate` lays
    /// it out: how a deskewed scan's pixels relate to the scan's. Returns the canvas size too.
    public static func turn(degrees: Double, width: Double, height: Double) -> (
        transform: AffineTransform, canvas: Size
    ) {
        let radians = degrees * Double.pi / 180
        let cs = abs(_cos(radians)), sn = abs(_sin(radians))
        let canvas = Size(width: width * cs + height * sn, height: width * sn + height * cs)
        let transform = translation(x: -width / 2, y: -height / 2)
            .concatenating(rotation(radians))
            .concatenating(translation(x: canvas.width / 2, y: canvas.height / 2))
        return (transform, canvas)
    }

    public var isIdentity: Bool { self == .identity }

    /// `self` followed by `other`.
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }

    /// The inverse, or nil when the transform is singular.
    public func inverted() -> AffineTransform? {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return nil }
        return AffineTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// The image of `p` under this transform.
    public func apply(to p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }
}
