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
    /// - Parameters:
    ///   - layout: the layout to draw.
    ///   - axis: the axis a single `--offset` number runs along.
    ///   - keep: which items are pages to draw (e.g. not the halves' section headers).
    public init<L: CollectionLayout>(
        _ layout: L, axis: Axis, keep: @escaping @Sendable (L.Item) -> Bool = { _ in true }
    ) {
        self.axis = axis
        self.count = layout.count
        itemsAt = { offset in layout.items(at: offset, in: nil).filter(keep) }
        offsetFor = { layout.offset(forIndex: $0) }
    }

    /// The items visible at `offset` (the layout's default query rect: its viewport).
    public func items(at offset: Point) -> [any LayoutItem] { itemsAt(offset) }
    /// The resting offset that shows item `index`.
    public func offset(forIndex index: Int) -> Point? { offsetFor(index) }
}
