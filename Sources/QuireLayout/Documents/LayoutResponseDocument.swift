import QuireGeometry

/// A `quire layout` reply as a typed value (`Schemas/quire.layout-response-1.schema.json`):
/// decode each reply line with any JSON decoder. Either `error` is set (the request was refused,
/// naming the bad field) or the answer fields are: the content size and inset, the items meeting
/// the query rect with their geometry, and the snap or animation asked for.
public struct LayoutResponseDocument: Codable, Sendable, Equatable {
    /// Why a request was refused.
    public struct Failure: Codable, Sendable, Equatable {
        /// Dotted path of the bad field (`viewport.width`, `parameters.updates[2].kind`); empty
        /// when the line was not JSON.
        public var field: String
        public var message: String
    }

    /// A strip animation as sampled.
    public struct Animation: Codable, Sendable, Equatable {
        public var kind: LayoutRequestDocument.Animation.Kind
        public var progress: Double
        /// `progress` through the animation's easing curve.
        public var eased: Double
        /// The animation's length in seconds.
        public var duration: Double
    }

    /// Where a scroll comes to rest.
    public struct Snap: Codable, Sendable, Equatable {
        public var targetOffset: Point
        /// The item at rest there (nil with no items).
        public var index: Int?
        /// halves: where deceleration stops now, under the same-cell rule.
        public var immediateOffset: Point?
        /// halves: whether the target stays on the current cell.
        public var sameCell: Bool?
        /// carousel: `left`, `center` or `right`.
        public var slot: String?
        /// carousel: the offset after recentring at the target, and the data index in the centre.
        public var restingOffset: Point?
        public var restingCenterIndex: Int?
    }

    /// An item's transform relative to its `center` and `size`.
    public struct Transform: Codable, Sendable, Equatable {
        public var tx: Double
        public var ty: Double
        public var scale: Double
    }

    /// One item meeting the query rect: the common geometry, then each layout's own values
    /// (nil where the layout has none; docs/layouts.md says which layout sets which).
    public struct Item: Codable, Sendable, Equatable {
        public var index: Int
        public var center: Point
        public var size: Size
        public var transform: Transform
        public var alpha: Double
        public var zIndex: Int
        /// The item's frame with its transform applied.
        public var frame: LayoutReport.RectValue
        // pager
        public var parallax: Double?
        public var mask: LayoutReport.RectValue?
        public var imageTranslation: Double?
        public var visibleImageRect: LayoutReport.RectValue?
        // strip
        public var expanding: Double?
        public var collapsing: Double?
        public var deleting: Double?
        public var deletingDirection: String?
        // halves, featured
        public var role: String?
        public var normalizedDistance: Double?
        public var scale: Double?
        // carousel
        public var slot: String?
        public var cornerRadius: Double?
        // featured
        public var delta: Double?
        public var coverAlpha: Double?
        public var titleScale: Double?
        public var detailAlpha: Double?
    }

    /// The request's `id`, when it had one.
    public var id: LayoutJSON?
    /// Set when the request was refused; the answer fields are then nil.
    public var error: Failure?
    public var layout: LayoutRequestDocument.Layout?
    public var count: Int?
    public var contentSize: Size?
    public var contentInset: EdgeInsets?
    /// The offset the items are for: the request's, the animated one, or the recentred one.
    public var offset: Point?
    public var nearestIndex: Int?
    /// carousel: the data index in the centre slot after recentring.
    public var centerIndex: Int?
    /// strip: the expanding rate used.
    public var expandingRate: Double?
    public var animation: Animation?
    public var snap: Snap?
    public var items: [Item]?
}
