import QuireLayout

/// A layout with its item type erased, as the renderer sees it: items at an offset, the
/// resting offset for an index, and which way it scrolls.
public struct AnyRenderLayout: Sendable {
    /// The axis offsets move along (a sweep's FROM:TO runs along it).
    public enum Axis: String, Sendable { case horizontal, vertical }

    public let axis: Axis
    public let count: Int
    private let itemsAt: @Sendable (Point) -> [any LayoutItem]
    private let offsetFor: @Sendable (Int) -> Point?

    /// Wraps any `CollectionLayout`; its items are drawn as the engine returns them.
    public init<L: CollectionLayout>(_ layout: L, axis: Axis) {
        self.axis = axis
        self.count = layout.count
        itemsAt = { offset in layout.items(at: offset, in: nil) }
        offsetFor = { layout.offset(forIndex: $0) }
    }

    /// The items visible at `offset` (the layout's default query rect: its viewport).
    public func items(at offset: Point) -> [any LayoutItem] { itemsAt(offset) }
    /// The resting offset that shows item `index`.
    public func offset(forIndex index: Int) -> Point? { offsetFor(index) }
}

/// What a table entry gets to build its layout from.
public struct RenderLayoutContext: Sendable {
    /// The viewport of the picture, in points.
    public var viewport: Size
    /// Page aspect ratios (width / height), in batch order.
    public var aspectRatios: [Double]
    /// The reference viewport of layout.json.
    public var reference: LayoutReport.Viewport

    public init(viewport: Size, aspectRatios: [Double], reference: LayoutReport.Viewport) {
        self.viewport = viewport
        self.aspectRatios = aspectRatios
        self.reference = reference
    }
}

/// One layout state to draw: the layout (possibly mid-animation) and the offset it is seen at.
public struct RenderLayoutState: Sendable {
    public var layout: AnyRenderLayout
    public var offset: Point

    public init(layout: AnyRenderLayout, offset: Point) {
        self.layout = layout
        self.offset = offset
    }
}

/// The renderer's table of layouts and animations: every layout and animation plugs in here,
/// by name, and nothing else in the renderer knows which layouts exist.
///
/// Adding a layout is one `LayoutEntry` whose `make` builds it from the context; adding an
/// animation is one `AnimationEntry` whose `state` returns the layout and offset at a progress.
/// Entries whose `make`/`state` is nil are known names reported as "not yet available".
public enum RenderLayouts {
    public struct LayoutEntry: Sendable {
        public var name: String
        /// The picture's viewport when `--viewport` is not given.
        public var defaultViewport: @Sendable (LayoutReport.Viewport) -> Size
        public var make: (@Sendable (RenderLayoutContext) throws -> AnyRenderLayout)?
    }

    public struct AnimationEntry: Sendable {
        public var name: String
        /// The layout names the animation applies to.
        public var layouts: [String]
        /// The state at eased progress `progress` of the animation acting on item `index`.
        public var state: (@Sendable (_ context: RenderLayoutContext, _ index: Int, _ progress: Double) throws -> RenderLayoutState)?
    }

    private static let full: @Sendable (LayoutReport.Viewport) -> Size = { Size(width: $0.width, height: $0.height) }

    public static let layouts: [LayoutEntry] = [
        LayoutEntry(name: "pager", defaultViewport: full) { context in
            AnyRenderLayout(Layouts.Pager(viewport: context.viewport, aspectRatios: context.aspectRatios), axis: .horizontal)
        },
        LayoutEntry(name: "strip", defaultViewport: { Size(width: $0.width, height: $0.stripHeight) }) { context in
            AnyRenderLayout(Layouts.Strip(viewport: context.viewport, aspectRatios: context.aspectRatios), axis: .horizontal)
        },
        // Seams for the layout engine's Layouts.Halves / .Carousel / .Featured: replace nil by
        // `{ context in AnyRenderLayout(Layouts.Halves(...), axis: .vertical) }`.
        LayoutEntry(name: "halves", defaultViewport: full, make: nil),
        LayoutEntry(name: "carousel", defaultViewport: full, make: nil),
        LayoutEntry(name: "featured", defaultViewport: full, make: nil),
    ]

    public static let animations: [AnimationEntry] = [
        // Seams for the layout engine's move and delete animations (LAYOUTS.md §4).
        AnimationEntry(name: "move", layouts: ["strip"], state: nil),
        AnimationEntry(name: "delete", layouts: ["strip"], state: nil),
    ]

    /// The entry for a layout name.
    /// - Throws: `OutputFolderError.unknownLayout` for names outside the table.
    public static func layout(named name: String) throws -> LayoutEntry {
        guard let entry = layouts.first(where: { $0.name == name.lowercased() }) else {
            throw OutputFolderError.unknownLayout(name: name, known: layouts.map(\.name))
        }
        return entry
    }

    /// The entry for an animation name.
    public static func animation(named name: String) throws -> AnimationEntry {
        guard let entry = animations.first(where: { $0.name == name.lowercased() }) else {
            throw OutputFolderError.invalidOption(
                "unknown animation '\(name)': expected one of \(animations.map(\.name).joined(separator: ", "))")
        }
        return entry
    }
}
