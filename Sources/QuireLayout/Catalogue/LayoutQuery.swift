/// What a `quire layout` request asks of a layout once its items are resolved: the viewport,
/// the page ratios, the offset, the query rect, and the snap or animation question.
public struct LayoutQuery {
    /// A snapping question: where does scrolling that would end at `proposedOffset` rest?
    public struct Snap: Equatable, Sendable {
        public var proposedOffset: Point
        public var velocity: Point

        /// A snapping question at `proposedOffset` with the gesture's `velocity` (points per ms).
        public init(proposedOffset: Point, velocity: Point) {
            self.proposedOffset = proposedOffset
            self.velocity = velocity
        }
    }

    /// A strip animation sampled at one `progress`.
    public struct Animation: Equatable, Sendable {
        /// Which animation: tap-to-move, delete, or the start or end of a scroll.
        public typealias Kind = LayoutRequestDocument.Animation.Kind
        /// The phase of a delete animation: the cell collapsing, or the cell leaving.
        public typealias Phase = LayoutRequestDocument.Animation.Phase
        public var kind: Kind
        public var index: Int?
        public var phase: Phase?
        public var progress: Double

        /// Animation `kind` at `progress`; `index` for move and delete, `phase` for delete.
        public init(kind: Kind, index: Int?, phase: Phase?, progress: Double) {
            self.kind = kind
            self.index = index
            self.phase = phase
            self.progress = progress
        }
    }

    /// The collection's bounds in points.
    public var viewport: Size
    /// Per-item aspect ratio (nil: the layout's default).
    public var ratios: [Double?]
    /// The content offset.
    public var offset: Point
    /// The query rect in content coordinates; the viewport at the offset when nil.
    public var rect: Rect?
    public var snap: Snap?
    public var animation: Animation?
    /// The ratios with missing ones filled with the given ratio (the pager's cell aspect);
    /// a caller that keeps the pages between requests answers it from its cache.
    public var filled: (Double) -> [Double]

    /// A query of `ratios` in `viewport` at `offset`.
    public init(
        viewport: Size, ratios: [Double?], offset: Point, rect: Rect? = nil, snap: Snap? = nil,
        animation: Animation? = nil, filled: ((Double) -> [Double])? = nil
    ) {
        self.viewport = viewport
        self.ratios = ratios
        self.offset = offset
        self.rect = rect
        self.snap = snap
        self.animation = animation
        self.filled = filled ?? { fill in ratios.map { $0 ?? fill } }
    }
}

/// The reply fields every layout shares.
extension LayoutCatalogue {
    /// The items of `layout` meeting the query's rect (the viewport at `offset` without one).
    /// - Throws: `LayoutRequestError` when more meet it than one reply may hold
    ///   (`LayoutLimits.maximumReplyItems`); they are not built, so a reply's memory is bounded.
    static func visibleItems<L: CollectionLayout>(_ layout: L, at offset: Point, _ query: LayoutQuery) throws -> [L
        .Item]
    {
        let limit = LayoutLimits.maximumReplyItems
        guard let items = layout.items(at: offset, in: query.rect, limit: limit) else {
            throw LayoutRequestError(
                field: query.rect == nil ? "viewport" : "rect",
                message: "meets more than \(limit) items, the most one reply holds; query a smaller rect")
        }
        return items
    }

    /// The fields every response has: count, content size and inset, offset, nearest index and snap.
    static func common<L: CollectionLayout>(_ layout: L, _ query: LayoutQuery, offset: Point) -> [String: LayoutJSON] {
        var out: [String: LayoutJSON] = [:]
        out["count"] = .number(Double(layout.count))
        out["contentSize"] = .size(layout.contentSize)
        out["contentInset"] = .insets(layout.contentInset)
        out["offset"] = .point(offset)
        out["nearestIndex"] = layout.nearestIndex(at: offset).map { .number(Double($0)) } ?? .null
        if let snap = query.snap {
            let target = layout.targetOffset(forProposed: snap.proposedOffset, velocity: snap.velocity)
            out["snap"] = .object([
                "targetOffset": .point(target),
                "index": layout.nearestIndex(at: target).map { .number(Double($0)) } ?? .null
            ])
        }
        return out
    }

    /// The geometry every item has, as the reply encodes it.
    static func attributes(_ a: LayoutAttributes) -> [String: LayoutJSON] {
        [
            "index": .number(Double(a.index)),
            "center": .point(a.center),
            "size": .size(a.size),
            "transform": .object([
                "tx": .number(a.transform.tx), "ty": .number(a.transform.ty), "scale": .number(a.transform.scale)
            ]),
            "alpha": .number(a.alpha),
            "zIndex": .number(Double(a.zIndex)),
            "frame": .rect(a.frame)
        ]
    }

    /// The items of `layout` at `offset`, each its geometry plus what `extra` adds.
    static func encodedItems<L: CollectionLayout>(
        _ layout: L, at offset: Point, _ query: LayoutQuery,
        extra: (L.Item) -> [String: LayoutJSON]
    ) throws -> LayoutJSON {
        .array(
            try visibleItems(layout, at: offset, query).map { item in
                .object(attributes(item.attributes).merging(extra(item)) { _, new in new })
            })
    }
}

extension LayoutJSON {
    /// `{x, y}`.
    package static func point(_ p: Point) -> LayoutJSON { .object(["x": .number(p.x), "y": .number(p.y)]) }
    /// `{width, height}`.
    package static func size(_ s: Size) -> LayoutJSON {
        .object(["width": .number(s.width), "height": .number(s.height)])
    }
    /// `{x, y, width, height}`.
    package static func rect(_ r: Rect) -> LayoutJSON {
        .object(["x": .number(r.x), "y": .number(r.y), "width": .number(r.width), "height": .number(r.height)])
    }
    /// `{top, left, bottom, right}`.
    package static func insets(_ e: EdgeInsets) -> LayoutJSON {
        .object(["top": .number(e.top), "left": .number(e.left), "bottom": .number(e.bottom), "right": .number(e.right)]
        )
    }
}
