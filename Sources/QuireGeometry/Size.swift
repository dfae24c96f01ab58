/// A width and a height.
public struct Size: Hashable, Sendable, Codable {
    public var width: Double
    public var height: Double

    /// A size of `width` x `height` (points or pixels, as the caller uses it).
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    /// width / height, or nil when either side is zero, negative or not finite.
    public var aspectRatio: Double? {
        guard isFinite, width > 0, height > 0 else { return nil }
        return width / height
    }

    public var isFinite: Bool { width.isFinite && height.isFinite }
    /// True when either side is zero or negative (or NaN).
    public var isEmpty: Bool { !(width > 0 && height > 0) }
}

/// `Size` under a name no Apple framework uses (MacTypes.h declares `Size` as an integer).
public typealias QuireSize = Size
