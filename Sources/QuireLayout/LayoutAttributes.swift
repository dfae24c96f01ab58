/// The transform a layout applies to an item about its centre: a translation and a uniform
/// scale (no layout of docs/layout-formulas.md needs more).
public struct ItemTransform: Hashable, Sendable, Codable {
    public var tx: Double
    public var ty: Double
    public var scale: Double

    /// A translation by (`tx`, `ty`) then a uniform `scale`; the defaults are the identity.
    public init(tx: Double = 0, ty: Double = 0, scale: Double = 1) {
        self.tx = tx
        self.ty = ty
        self.scale = scale
    }

    public static let identity = ItemTransform()
    public var isIdentity: Bool { self == .identity }
}

/// What every layout says about one item (UIKit's `UICollectionViewLayoutAttributes`):
/// centre and bounds size in content coordinates, a transform applied about the centre,
/// alpha and zIndex. Values are never NaN or infinite.
public struct LayoutAttributes: Hashable, Sendable, Codable {
    public var index: Int
    public var center: Point
    public var size: Size
    public var transform: ItemTransform
    public var alpha: Double
    public var zIndex: Int

    /// The attributes of item `index`: where its centre is, its size, and how it is drawn.
    public init(
        index: Int, center: Point, size: Size, transform: ItemTransform = .identity,
        alpha: Double = 1, zIndex: Int = 0
    ) {
        self.index = index
        self.center = center
        self.size = size
        self.transform = transform
        self.alpha = alpha
        self.zIndex = zIndex
    }

    /// Attributes for an untransformed frame (setting `frame` with an identity transform).
    public init(index: Int, frame: Rect, alpha: Double = 1, zIndex: Int = 0) {
        self.init(index: index, center: frame.center, size: frame.size, alpha: alpha, zIndex: zIndex)
    }

    /// The untransformed frame: `size` centred on `center`.
    public var bounds: Rect { Rect(center: center, size: size) }

    /// The transformed bounding box (the visual frame of docs/layout-formulas.md#conventions): the centre moved by
    /// the translation, the size multiplied by the scale.
    public var frame: Rect {
        Rect(
            center: Point(x: center.x + transform.tx, y: center.y + transform.ty),
            size: Size(width: size.width * transform.scale, height: size.height * transform.scale))
    }
}
