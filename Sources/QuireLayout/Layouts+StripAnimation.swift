extension Layouts.Strip {
    /// The animatable part of a strip at one instant: where it is scrolled, how much scrolling
    /// expands cells, and the per-cell overrides.
    public struct AnimationFrame: Hashable, Sendable {
        public var offset: Point
        public var expandingRate: Double
        public var updates: [Int: [CellUpdate]]

        /// One instant of a strip: its offset, its expanding rate and the cell updates in force.
        public init(offset: Point, expandingRate: Double, updates: [Int: [CellUpdate]] = [:]) {
            self.offset = offset
            self.expandingRate = expandingRate
            self.updates = updates
        }
    }

    /// This strip with a frame's `expandingRate` and `updates` (query it at `frame.offset`).
    public func applying(_ frame: AnimationFrame) -> Self {
        var copy = self
        copy.expandingRate = frame.expandingRate
        copy.updates = frame.updates
        return copy
    }

    /// The strip after item `index` is removed (updates cleared), and the offset that keeps
    /// the same screen position for the remaining cells: unchanged when a later item takes
    /// the slot, one pitch back when the last item went. Nil when `index` is out of range.
    /// - Complexity: O(N) (the ratio array is copied).
    public func removingItem(at index: Int, offset: Point) -> (strip: Self, offset: Point)? {
        guard index >= 0, index < count else { return nil }
        var copy = self
        copy.aspectRatios.remove(at: index)
        copy.updates = [:]
        let last = index == count - 1
        let newOffset = last ? Point(x: offset.x - pitch, y: offset.y) : offset
        return (copy, newOffset)
    }
}

/// The thumbnail strip's animations (docs/layout-formulas.md#sync-and-animations) as pure functions of linear progress
/// `p ∈ [0, 1]` (clamped), so a viewer drives them from any clock and a test evaluates them.
///
/// Quire departs from the sample in two documented, tested places: the deleted cell's
/// followers slide by the full pitch (see `Parameters.deletionClosesSpacing`), so the removal
/// shows no 4 pt jump, and deletion works for any count ≥ 1 (the sample refuses N ≤ 2).
public enum StripAnimation: Hashable, Sendable {
    /// Animates `expandingRate` from `from` to `to` (0 when a drag begins, 1 when it ends).
    case scroll(from: Double, to: Double)
    /// Focus change by tap: scrolls from `startOffset` to item `to`'s offset while item `to`
    /// expands and item `from` collapses.
    case move(from: Int, to: Int, startOffset: Point)
    /// Delete, first phase: item `index` shrinks about its centre and fades out.
    case collapse(index: Int)
    /// Delete, second phase: the gap closes toward `direction` while the neighbour expands.
    case delete(index: Int, direction: Layouts.Strip.Direction)

    /// The scroll animation that starts when the user begins dragging (target rate 0).
    public static func scrollBegin(currentRate: Double) -> StripAnimation { .scroll(from: currentRate, to: 0) }
    /// The scroll animation that starts when dragging or deceleration ends (target rate 1).
    public static func scrollEnd(currentRate: Double) -> StripAnimation { .scroll(from: currentRate, to: 1) }

    /// The move animation for a tap on item `index` while the strip rests at `offset`;
    /// nil when the strip is empty or `index` is out of range.
    public static func move(in strip: Layouts.Strip, at offset: Point, to index: Int) -> StripAnimation? {
        guard let from = strip.nearestIndex(at: offset), index >= 0, index < strip.count else { return nil }
        return .move(from: from, to: index, startOffset: offset)
    }

    /// The two delete phases for item `index`: the gap closes to the left when it is the last
    /// item, else to the right. Nil when `index` is out of range.
    public static func deletion(in strip: Layouts.Strip, index: Int) -> (
        collapse: StripAnimation, delete: StripAnimation
    )? {
        guard index >= 0, index < strip.count else { return nil }
        let direction: Layouts.Strip.Direction = index == strip.count - 1 ? .left : .right
        return (.collapse(index: index), .delete(index: index, direction: direction))
    }

    /// Seconds: `0.15·|from − to|` for scroll, 0.3 for move, 0.15 for each delete phase.
    public var duration: Double {
        switch self {
        case .scroll(let from, let to): return 0.15 * abs(finite(from) - finite(to))
        case .move: return 0.3
        case .collapse, .delete: return 0.15
        }
    }

    /// easeInOut for scroll and move, linear for the delete phases.
    public var easing: Easing {
        switch self {
        case .scroll, .move: return .easeInOut
        case .collapse, .delete: return .linear
        }
    }

    /// The strip's animatable state at linear `progress` (clamped to `[0, 1]`), starting from
    /// `offset` and `expandingRate` where the animation does not set them.
    ///
    /// Progress 1 of `move` is the completed state (rate 1, no updates), which shows the same
    /// frames as the last tick. The `delete` phase at progress 1 shows the frames the strip
    /// has after `removingItem(at:offset:)`.
    /// - Complexity: O(1).
    public func frame(
        in strip: Layouts.Strip, progress: Double, offset: Point,
        expandingRate: Double = 1
    ) -> Layouts.Strip.AnimationFrame {
        let eased = easing(progress)
        switch self {
        case .scroll(let from, let to):
            let r0 = finite(from), target = finite(to)
            return .init(offset: offset, expandingRate: r0 + (target - r0) * eased)
        case .move(let from, let to, let start):
            let x1 = strip.offset(forIndex: to)?.x ?? start.x
            let x = start.x + (x1 - start.x) * eased
            let target = Point(x: x, y: start.y)
            if progress >= 1 { return .init(offset: Point(x: x1, y: start.y), expandingRate: 1) }
            var updates: [Int: [Layouts.Strip.CellUpdate]] = [:]
            updates[to, default: []].append(.expand(eased))
            updates[from, default: []].append(.expand(1 - eased))
            return .init(offset: target, expandingRate: 0, updates: updates)
        case .collapse(let index):
            return .init(offset: offset, expandingRate: expandingRate, updates: [index: [.collapse(eased)]])
        case .delete(let index, let direction):
            var updates: [Int: [Layouts.Strip.CellUpdate]] = [index: [.collapse(1), .delete(eased, direction)]]
            let neighbour = direction == .left ? index - 1 : index + 1
            if neighbour >= 0, neighbour < strip.count { updates[neighbour] = [.expand(eased)] }
            return .init(offset: offset, expandingRate: expandingRate, updates: updates)
        }
    }
}
