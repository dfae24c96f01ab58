/// An integer pixel size.
public struct PixelSize: Hashable, Sendable, Codable {
    public var width: Int
    public var height: Int

    /// A size of `width` x `height` whole pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var size: Size { Size(width: Double(width), height: Double(height)) }
    public var pixelCount: Int { width * height }
    /// width / height (0 for an empty size).
    public var aspectRatio: Double { height > 0 ? Double(width) / Double(height) : 0 }
}

/// Snapping of layout geometry to a display's pixel grid, done once, last (layout math stays
/// in unrounded Doubles until then).
public struct PixelGrid: Hashable, Sendable {
    /// Device pixels per point (1, 2 or 3 on phones).
    public var scale: Double

    /// A grid of `scale` device pixels per point; a non-positive or non-finite scale counts as 1.
    public init(scale: Double) {
        self.scale = scale > 0 && scale.isFinite ? scale : 1
    }

    /// Rounds a coordinate to the nearest device pixel (halves away from zero).
    public func snap(_ value: Double) -> Double {
        (value * scale).rounded(.toNearestOrAwayFromZero) / scale
    }

    /// Snaps a rect's edges (not its size) so adjacent rects stay adjacent.
    public func snap(_ rect: Rect) -> Rect {
        let x0 = snap(rect.minX), y0 = snap(rect.minY)
        let x1 = snap(rect.maxX), y1 = snap(rect.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The integer pixel rect covering `rect` (in points) at this scale.
    public func pixelRect(_ rect: Rect) -> (x: Int, y: Int, width: Int, height: Int) {
        let s = snap(rect)
        let x = Int((s.minX * scale).rounded()), y = Int((s.minY * scale).rounded())
        let w = Int((s.maxX * scale).rounded()) - x, h = Int((s.maxY * scale).rounded()) - y
        return (x, y, w, h)
    }
}
