/// Insets from each edge of a rectangle (UIKit's `UIEdgeInsets` order).
public struct EdgeInsets: Hashable, Sendable, Codable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    /// Insets of each edge, 0 unless given.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = EdgeInsets()
}
