/// Converts a real-valued index to an `Int` clamped into `low...high` without trapping.
///
/// Swift's `Int(x)` traps on NaN, infinity and values beyond `Int`'s range; the originals
/// crash there (docs/layout-formulas.md#strip, #where-quire-differs-from-the-originals). NaN maps to `low`, so a query never traps.
/// - Complexity: O(1).
@inlinable func clampedIndex(_ x: Double, _ low: Int, _ high: Int) -> Int {
    if !(x > Double(low)) { return low }
    if x >= Double(high) { return high }
    return Int(x)
}

/// Whether two closed intervals `[a0, a1]` and `[b0, b1]` meet (touching counts, docs/layout-formulas.md#conventions).
@inlinable func closedOverlap(_ a0: Double, _ a1: Double, _ b0: Double, _ b1: Double) -> Bool {
    a0 <= b1 && b0 <= a1
}

extension Point {
    /// The point with NaN or infinite coordinates replaced by `fallback`'s.
    @inlinable func finiteOr(_ fallback: Point) -> Point {
        Point(x: x.isFinite ? x : fallback.x, y: y.isFinite ? y : fallback.y)
    }
}
