import QuireGeometry

/// A `quire layout` request as a typed value (`Schemas/quire.layout-request-1.schema.json`), for
/// an app or a web backend that asks Quire's layout engine over JSON: encode it with any JSON
/// encoder and send one per line to `quire layout --lines`.
///
/// Give exactly one of `aspectRatios`, `count` and `pagesFrom`. Absent fields are left out of
/// the JSON and take the engine's defaults. Parameters are named as in docs/layouts.md
/// (`LayoutJSON` values, e.g. `["spacing": .number(4)]`).
public struct LayoutRequestDocument: Codable, Sendable, Equatable {
    /// A layout name from `LayoutCatalogue`.
    public typealias Layout = LayoutName

    /// Where a scroll that would end at `proposedOffset` comes to rest.
    public struct Snap: Codable, Sendable, Equatable {
        public var proposedOffset: Point
        public var velocity: Point?

        /// A snapping question at `proposedOffset`, with the gesture's `velocity` (points per ms).
        public init(proposedOffset: Point, velocity: Point? = nil) {
            self.proposedOffset = proposedOffset
            self.velocity = velocity
        }
    }

    /// A strip animation sampled at `progress` (0...1).
    public struct Animation: Codable, Sendable, Equatable {
        public enum Kind: String, Codable, Sendable, CaseIterable { case move, delete, scrollBegin, scrollEnd }
        public enum Phase: String, Codable, Sendable, CaseIterable { case collapse, delete }
        public var kind: Kind
        public var index: Int?
        public var phase: Phase?
        public var progress: Double

        /// Animation `kind` at `progress`; `index` for move and delete, `phase` for delete.
        public init(kind: Kind, index: Int? = nil, phase: Phase? = nil, progress: Double) {
            self.kind = kind
            self.index = index
            self.phase = phase
            self.progress = progress
        }
    }

    /// Any JSON value, echoed in the response.
    public var id: LayoutJSON?
    public var layout: Layout
    /// The collection's bounds in points (required unless `pagesFrom` gives the report's).
    public var viewport: Size?
    /// Item aspect ratios (width / height); nil entries take the layout's default.
    public var aspectRatios: [Double?]?
    public var count: Int?
    /// A path to an OUT/layout.json whose pages are the items.
    public var pagesFrom: String?
    /// The content offset; (0, 0) when absent.
    public var offset: Point?
    /// The query rect in content coordinates; the viewport at `offset` when absent.
    public var rect: LayoutReport.RectValue?
    public var parameters: [String: LayoutJSON]?
    public var snap: Snap?
    public var animation: Animation?

    /// A request for `layout`; set the items and whatever else is needed.
    public init(
        id: LayoutJSON? = nil, layout: Layout, viewport: Size? = nil, aspectRatios: [Double?]? = nil,
        count: Int? = nil, pagesFrom: String? = nil, offset: Point? = nil, rect: LayoutReport.RectValue? = nil,
        parameters: [String: LayoutJSON]? = nil, snap: Snap? = nil, animation: Animation? = nil
    ) {
        self.id = id
        self.layout = layout
        self.viewport = viewport
        self.aspectRatios = aspectRatios
        self.count = count
        self.pagesFrom = pagesFrom
        self.offset = offset
        self.rect = rect
        self.parameters = parameters
        self.snap = snap
        self.animation = animation
    }
}
