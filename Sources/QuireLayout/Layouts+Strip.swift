extension Layouts {
    /// The Photos app's thumbnail strip (docs/layout-formulas.md#strip): small cells centred under a focus line;
    /// the focused cell expands to its own aspect ratio and pushes its neighbours aside.
    public struct Strip: CollectionLayout, Hashable {
        /// Defaults from the original `Configuration`.
        public struct Parameters: Hashable, Sendable, Codable {
            /// Cell width / height at rest (and for items without a ratio).
            public var defaultAspectRatio: Double = 0.5
            /// Gap between resting cells (`distanceBetween`).
            public var spacing: Double = 4
            /// Extra gap around a focused cell (`distanceBetweenFocused`).
            public var focusedSpacing: Double = 20
            /// Declared but unused by the original; applied only when `clampsAspectRatios`.
            public var maxAspectRatio: Double = 5
            public var minAspectRatio: Double = 0.2
            public var clampsAspectRatios: Bool = false
            /// A deleted cell's followers slide by the pitch `w + d` (true, Quire's default) or by
            /// `w` as in the original (false), which leaves the 4 pt jump of docs/layout-formulas.md#where-quire-differs-from-the-originals
            /// when the item is finally removed.
            public var deletionClosesSpacing: Bool = true

            /// The strip's parameters; the defaults are the Photos app's.
            public init(
                defaultAspectRatio: Double = 0.5, spacing: Double = 4, focusedSpacing: Double = 20,
                maxAspectRatio: Double = 5, minAspectRatio: Double = 0.2, clampsAspectRatios: Bool = false,
                deletionClosesSpacing: Bool = true
            ) {
                self.deletionClosesSpacing = deletionClosesSpacing
                self.defaultAspectRatio = defaultAspectRatio
                self.spacing = spacing
                self.focusedSpacing = focusedSpacing
                self.maxAspectRatio = maxAspectRatio
                self.minAspectRatio = minAspectRatio
                self.clampsAspectRatios = clampsAspectRatios
            }
        }

        /// Which way a deleted cell's gap closes.
        public enum Direction: String, Hashable, Sendable, Codable { case left, right }

        /// A per-cell override applied after the scroll-driven state (the original's `updates`
        /// closures); each one overwrites one field of the cell's state.
        public enum CellUpdate: Hashable, Sendable, Codable {
            case expand(Double)
            case collapse(Double)
            case delete(Double, Direction)
        }

        /// A cell's animation state.
        public struct CellState: Hashable, Sendable, Codable {
            public var expanding: Double = 0
            public var collapsing: Double = 0
            public var deleting: Double = 0
            public var deletingDirection: Direction = .left
            /// A cell's animation state: how far it is expanding, collapsing and being deleted (each 0...1), and to which side.
            public init(
                expanding: Double = 0, collapsing: Double = 0, deleting: Double = 0,
                deletingDirection: Direction = .left
            ) {
                self.expanding = expanding
                self.collapsing = collapsing
                self.deleting = deleting
                self.deletingDirection = deletingDirection
            }
        }

        /// One thumbnail at an offset.
        public struct Item: LayoutItem, Hashable {
            public var attributes: LayoutAttributes
            public var state: CellState
        }

        public var viewport: Size
        public var aspectRatios: [Double?]
        public var parameters: Parameters
        /// Scales scroll-driven expansion: 0 while the strip is dragged, 1 at rest.
        public var expandingRate: Double
        /// Per-item overrides, applied in order.
        public var updates: [Int: [CellUpdate]]

        /// A strip of one cell per aspect ratio (nil takes `parameters.defaultAspectRatio`), `viewport.height` high, with per-cell `updates` applied in order.
        public init(
            viewport: Size, aspectRatios: [Double?], parameters: Parameters = Parameters(),
            expandingRate: Double = 1, updates: [Int: [CellUpdate]] = [:]
        ) {
            self.viewport = viewport
            self.aspectRatios = aspectRatios
            self.parameters = parameters
            self.expandingRate = expandingRate
            self.updates = updates
        }

        /// A strip of one cell per aspect ratio (width / height), at rest.
        public init(viewport: Size, aspectRatios: [Double], parameters: Parameters = Parameters()) {
            self.init(viewport: viewport, aspectRatios: aspectRatios.map { Optional($0) }, parameters: parameters)
        }

        private var isUsable: Bool {
            viewport.isFinite && viewport.width >= 0 && viewport.height > 0
                && parameters.defaultAspectRatio > 0 && parameters.defaultAspectRatio.isFinite
                && parameters.spacing.isFinite && parameters.focusedSpacing.isFinite
                && itemWidth + parameters.spacing > 0
        }

        public var count: Int { isUsable ? aspectRatios.count : 0 }
        /// Resting cell size `(H·defaultAspectRatio, H)`.
        public var itemSize: Size { Size(width: itemWidth, height: viewport.height) }
        var itemWidth: Double { viewport.height * parameters.defaultAspectRatio }
        /// Cell pitch `w + d`.
        var pitch: Double { itemWidth + parameters.spacing }
        /// `(W − w − d)/2`: insets that let the first and last cells reach the focus line.
        public var farInset: Double { (viewport.width - itemWidth - parameters.spacing) / 2 }
        public var contentInset: EdgeInsets { EdgeInsets(top: 0, left: farInset, bottom: 0, right: farInset) }
        public var contentSize: Size { Size(width: Double(count) * pitch, height: count > 0 ? viewport.height : 0) }

        /// The aspect ratio used for item `index` (the default for missing or invalid ones).
        public func aspectRatio(ofIndex index: Int) -> Double {
            guard aspectRatios.indices.contains(index), let r = aspectRatios[index], r.isFinite, r > 0 else {
                return parameters.defaultAspectRatio
            }
            return parameters.clampsAspectRatios ? clamp(r, parameters.minAspectRatio, parameters.maxAspectRatio) : r
        }

        /// Default centre `C_i = (i(w+d) + w/2, h/2)`.
        public func defaultCenter(ofIndex index: Int) -> Point {
            Point(x: Double(index) * pitch + itemWidth / 2, y: viewport.height / 2)
        }

        /// The resting frame of item `index` (no expansion): `w x h` centred on `C_i`.
        public func restingFrame(ofIndex index: Int) -> Rect {
            Rect(center: defaultCenter(ofIndex: index), size: itemSize)
        }

        /// The state of cell `index` at `offset`: scroll-driven expansion, then `updates`.
        public func state(ofIndex index: Int, at offset: Point) -> CellState {
            var state = CellState()
            let x = offset.x + farInset
            let left = (Double(index) * pitch + itemWidth / 2) - itemWidth / 2
            // Distances below 1e-9 pitch are rounding noise of `i(w+d) − farInset + farInset`:
            // treat them as 0 so a snapped offset gives `e = expandingRate` exactly.
            let raw = abs(left - x)
            let distance = raw < pitch * 1e-9 ? 0 : raw
            if distance < pitch {
                state.expanding = (1 - distance / pitch) * expandingRate
            }
            for update in updates[index] ?? [] {
                switch update {
                case .expand(let r): state.expanding = r
                case .collapse(let r): state.collapsing = r
                case .delete(let r, let direction):
                    state.deleting = r
                    state.deletingDirection = direction
                }
            }
            return state
        }

        /// How a cell in `state` moves its neighbours: `(leftShift, rightShift)` and its extra width.
        private func shifts(ofIndex index: Int, state: CellState) -> (
            left: Double, right: Double, additionalWidth: Double
        ) {
            let h = viewport.height, w = itemWidth, e = state.expanding, delta = state.deleting
            let additional = (h * aspectRatio(ofIndex: index) - w) * e
            let sym = (additional + parameters.focusedSpacing * e) / 2 * (1 - delta)
            let gap = parameters.deletionClosesSpacing ? pitch : w
            let towardLeft = sym, towardRight = sym - gap * delta
            // leftShift = shift(opposite of dir), rightShift = shift(dir).
            switch state.deletingDirection {
            case .left: return (towardRight, towardLeft, additional)
            case .right: return (towardLeft, towardRight, additional)
            }
        }

        /// The cells whose state is not the default at `offset`: at most the two around the
        /// focus line plus the cells with updates. Every other cell has zero shift, which is
        /// what keeps a frame's cost independent of the item count.
        private func activeCells(at offset: Point) -> [(index: Int, left: Double, right: Double)] {
            var indices = Set(updates.keys.filter { $0 >= 0 && $0 < count })
            let x = (offset.x + farInset) / pitch
            if x.isFinite && x > -2 && x < Double(count) + 1 {
                let base = Int(x.rounded(.down))
                for i in (base - 1)...(base + 1) where i >= 0 && i < count { indices.insert(i) }
            }
            return indices.sorted().compactMap { index in
                let state = state(ofIndex: index, at: offset)
                guard state != CellState() else { return nil }
                let s = shifts(ofIndex: index, state: state)
                return (index, s.left, s.right)
            }
        }

        /// The thumbnails whose transformed frame meets `rect` (closed intervals), in index order.
        ///
        /// Only the cells around the focus line and the cells with updates have a state; every
        /// other cell is a resting `ceil(w) × h` cell, and between two consecutive active cells
        /// they all share one translation. So each run's visible index range is solved directly,
        /// and the original's O(N²) neighbour sums become O(active cells) per run.
        /// Unlike the original (which returns all N items whatever the rect), only the items
        /// meeting the rect are returned.
        /// - Complexity: O(visible items + updated items · log(updated items)).
        public func items(at offset: Point, in rect: Rect? = nil) -> [Item] {
            items(at: offset, in: rect, limit: .max) ?? []
        }

        /// - Complexity: O(min(visible items, limit) + updated items · log(updated items)).
        public func items(at offset: Point, in rect: Rect?, limit: Int) -> [Item]? {
            guard count > 0, offset.isFinite else { return [] }
            let query = rect ?? Rect(x: offset.x, y: offset.y, width: viewport.width, height: viewport.height)
            guard query.isFinite, closedOverlap(0, viewport.height, query.minY, query.maxY) else { return [] }
            let active = activeCells(at: offset)
            // translationBefore[s]: the translation of resting cells in run s (before active[s]).
            var result: [Item] = []
            let restWidth = finite(itemWidth.rounded(.up))
            for run in 0...active.count {
                let lo = run == 0 ? 0 : active[run - 1].index + 1
                let hi = run == active.count ? count - 1 : active[run].index - 1
                if lo <= hi {
                    var t = 0.0
                    for cell in active { t += cell.index > lo ? -cell.left : cell.right }
                    // Cell i spans [i·pitch + w/2 + t − rw/2, … + rw]: solve for the meeting range.
                    let base = itemWidth / 2 + t
                    let a = clampedIndex(((query.minX - base - restWidth / 2) / pitch).rounded(.down), lo, hi)
                    let b = clampedIndex(((query.maxX - base + restWidth / 2) / pitch).rounded(.up), lo, hi)
                    if a <= b {
                        for index in a...b {
                            let item = restingItem(ofIndex: index, translation: t, width: restWidth)
                            guard item.attributes.frame.intersects(query) else { continue }
                            guard result.count < limit else { return nil }
                            result.append(item)
                        }
                    }
                }
                if run < active.count {
                    let item = item(ofIndex: active[run].index, at: offset, active: active)
                    if item.attributes.frame.intersects(query) {
                        guard result.count < limit else { return nil }
                        result.append(item)
                    }
                }
            }
            return result
        }

        private func restingItem(ofIndex index: Int, translation: Double, width: Double) -> Item {
            let attributes = LayoutAttributes(
                index: index, center: defaultCenter(ofIndex: index),
                size: Size(width: max(0, width), height: viewport.height),
                transform: ItemTransform(tx: finite(translation) + 0))
            return Item(attributes: attributes, state: CellState())
        }

        /// Item `index` at `offset`, whether visible or not.
        public func item(ofIndex index: Int, at offset: Point) -> Item? {
            guard index >= 0, index < count, offset.isFinite else { return nil }
            return item(ofIndex: index, at: offset, active: activeCells(at: offset))
        }

        private func item(
            ofIndex index: Int, at offset: Point,
            active: [(index: Int, left: Double, right: Double)]
        ) -> Item {
            let state = state(ofIndex: index, at: offset)
            let own = shifts(ofIndex: index, state: state)
            // t_i = Σ_{j>i} −leftShift_j + Σ_{j<i} rightShift_j, summed in index order.
            var translation = 0.0
            for cell in active where cell.index != index {
                translation += cell.index > index ? -cell.left : cell.right
            }
            let k = state.collapsing
            let width = ((itemWidth + own.additionalWidth) * (1 - k)).rounded(.up)
            let size = Size(width: finite(max(0, width)), height: finite(max(0, viewport.height * (1 - k))))
            let attributes = LayoutAttributes(
                index: index, center: defaultCenter(ofIndex: index), size: size,
                transform: ItemTransform(tx: finite(translation) + 0), alpha: clamp(finite(1 - k, or: 1), 0, 1))
            return Item(attributes: attributes, state: state)
        }

        /// The frame of item `index` when the strip rests on it (snapped, `expandingRate` 1):
        /// `h·a` wide, centred on `C_i`.
        public func focusedFrame(ofIndex index: Int) -> Rect? {
            guard let offset = offset(forIndex: index) else { return nil }
            var resting = self
            resting.expandingRate = 1
            resting.updates = [:]
            return resting.item(ofIndex: index, at: offset)?.attributes.frame
        }

        /// The scroll range UIKit allows: `[−farInset, N(w+d) − W + farInset]`.
        public var offsetRange: ClosedRange<Double> {
            let low = -farInset
            let high = Double(count) * pitch - viewport.width + farInset
            return low...max(low, high)
        }

        /// Snaps to the nearer of the two cells around the proposal, ties to the right
        /// (docs/layout-formulas.md#strip). The proposal is clamped to the scroll range first, and both
        /// candidate indices to `0...N−1`, where the original relied on UIKit to clamp.
        public func targetOffset(forProposed proposed: Point, velocity: Point) -> Point {
            guard count > 0 else { return Point(x: finite(-farInset), y: 0) }
            let p = clamp(finite(proposed.x, or: -farInset), offsetRange.lowerBound, offsetRange.upperBound)
            let q = (p + farInset) / pitch
            let l = clamp(q.rounded(.down), 0, Double(count - 1))
            let r = clamp(q.rounded(.up), 0, Double(count - 1))
            let xl = l * pitch - farInset, xr = r * pitch - farInset
            return Point(x: abs(xl - p) < abs(xr - p) ? xl : xr, y: 0)
        }

        /// `N(w+d)·(idx/N) − farInset`; nil (the original gives NaN) when there are no items.
        public func offset(forIndex index: Int) -> Point? {
            guard count > 0 else { return nil }
            let i = Double(clamp(index, 0, count - 1)), n = Double(count)
            return Point(x: n * pitch * (i / n) - farInset, y: 0)
        }

        /// `clamp(floor(relativeOffset·N + 0.5), 0, N−1)`; nil (the original traps) when empty.
        public func nearestIndex(at offset: Point) -> Int? {
            guard count > 0 else { return nil }
            let n = Double(count)
            let relative = (offset.x + farInset) / (n * pitch)
            let raw = (relative * n + 0.5).rounded(.down)
            guard raw.isFinite else { return raw > 0 ? count - 1 : 0 }
            return Int(clamp(raw, 0, n - 1))
        }
    }
}
