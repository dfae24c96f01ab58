/// The capability every Quire layout has (after UIKit's `UICollectionViewLayout`), as pure
/// functions of the layout's value and a content offset.
///
/// Offsets are content offsets as UIKit reports them: with a left inset the first item is
/// at the screen edge when `offset.x == -contentInset.left`.
public protocol CollectionLayout: Sendable {
    /// The layout's per-item result: `LayoutAttributes` plus the layout's own values.
    associatedtype Item: LayoutItem

    /// Number of items.
    var count: Int { get }
    /// The scrollable content size.
    var contentSize: Size { get }
    /// Insets around the content (the scroll range extends by them).
    var contentInset: EdgeInsets { get }
    /// The items whose frame intersects `rect` (content coordinates; the viewport at
    /// `offset` when nil), in index order.
    func items(at offset: Point, in rect: Rect?) -> [Item]
    /// `items(at:in:)`, or nil as soon as more than `limit` items meet `rect`: a caller that
    /// must bound its memory refuses a huge query without building it.
    func items(at offset: Point, in rect: Rect?, limit: Int) -> [Item]?
    /// Where scrolling that would end at `proposed` with `velocity` (points/ms) should rest.
    func targetOffset(forProposed proposed: Point, velocity: Point) -> Point
    /// The resting offset that shows item `index`; nil when there are no items.
    func offset(forIndex index: Int) -> Point?
    /// The item the viewer treats as current at `offset`; nil when there are no items.
    func nearestIndex(at offset: Point) -> Int?
}

/// A layout's result for one item.
public protocol LayoutItem: Sendable {
    var attributes: LayoutAttributes { get }
}

extension LayoutAttributes: LayoutItem {
    public var attributes: LayoutAttributes { self }
}

/// Namespace of Quire's layouts: `Layouts.Pager`, `Layouts.Strip`, and the rest of the family.
public enum Layouts {}

/// Clamps to a closed range (`clamp(v, a, b) = min(b, max(a, v))` of docs/layout-formulas.md).
@inlinable func clamp<T: Comparable>(_ value: T, _ low: T, _ high: T) -> T {
    min(high, max(low, value))
}

/// Replaces NaN or infinity by a fallback, so no attribute ever holds one.
@inlinable func finite(_ value: Double, or fallback: Double = 0) -> Double {
    value.isFinite ? value : fallback
}
