extension Layouts {
    /// The Ultravisual list (docs/layout-formulas.md#featured): a vertical list where the item at the top is
    /// featured (tall), the next one grows as the user scrolls toward it, and later items slide
    /// over earlier ones (zIndex = index).
    ///
    /// Robust where the original is not (docs/layout-formulas.md#featured, #where-quire-differs-from-the-originals): the featured index is clamped to
    /// `0...N−1` (the original lets it run past the end, where the last cell suddenly collapses
    /// during the bottom bounce); snapping is clamped to the scroll range `[0, (N−1)·G]`; the
    /// cell appearance values are clamped to `[0, 1]`; no items gives content height 0.
    /// The top bounce keeps the original's negative progress (the featured cell lags the offset).
    public struct Featured: CollectionLayout, Hashable {
        /// Defaults from `UltravisualLayout`.
        public struct Parameters: Hashable, Sendable, Codable {
            /// Height `S` of a standard cell.
            public var standardHeight: Double = 100
            /// Height `F` of the featured cell.
            public var featuredHeight: Double = 280
            /// Scroll distance `G` that moves the next item into the featured position.
            public var dragOffset: Double = 180
            public var coverAlphaMax: Double = 0.75
            public var coverAlphaMin: Double = 0.3
            public var minimumTitleScale: Double = 0.5

            /// The list's parameters; the defaults are the Ultravisual tutorial's (100 pt rows, 280 pt featured).
            public init(
                standardHeight: Double = 100, featuredHeight: Double = 280, dragOffset: Double = 180,
                coverAlphaMax: Double = 0.75, coverAlphaMin: Double = 0.3, minimumTitleScale: Double = 0.5
            ) {
                self.standardHeight = standardHeight
                self.featuredHeight = featuredHeight
                self.dragOffset = dragOffset
                self.coverAlphaMax = coverAlphaMax
                self.coverAlphaMin = coverAlphaMin
                self.minimumTitleScale = minimumTitleScale
            }
        }

        /// An item's part in the list at an offset.
        public enum Role: String, Hashable, Sendable, Codable { case featured, next, standard }

        /// One cell at an offset, with the cell's appearance values.
        public struct Item: LayoutItem, Hashable {
            public var attributes: LayoutAttributes
            public var role: Role
            /// `δ = (h − S)/(F − S)` clamped to `[0, 1]`: 1 featured, 0 standard.
            public var delta: Double
            /// Image cover alpha `max − (max − min)·δ`.
            public var coverAlpha: Double
            /// Title scale `max(δ, minimumTitleScale)`.
            public var titleScale: Double
            /// Time/room and speaker label alpha `δ`.
            public var detailAlpha: Double
        }

        public var viewport: Size
        public var itemCount: Int
        public var parameters: Parameters

        /// A featured list of `count` items, as wide as `viewport`.
        public init(viewport: Size, count: Int, parameters: Parameters = Parameters()) {
            self.viewport = viewport
            self.itemCount = max(0, count)
            self.parameters = parameters
        }

        private var isUsable: Bool {
            let p = parameters
            return viewport.isFinite && viewport.width >= 0 && viewport.height >= 0
                && p.standardHeight.isFinite && p.standardHeight >= 0 && p.featuredHeight.isFinite
                && p.dragOffset.isFinite && p.dragOffset > 0 && p.coverAlphaMax.isFinite && p.coverAlphaMin.isFinite
                && p.minimumTitleScale.isFinite
        }

        public var count: Int { isUsable ? itemCount : 0 }

        /// `(W, N·G + (H − G))`, never negative; `(W, 0)` with no items.
        public var contentSize: Size {
            guard count > 0 else { return Size(width: isUsable ? viewport.width : 0, height: 0) }
            let g = parameters.dragOffset
            return Size(width: viewport.width, height: max(0, Double(count) * g + viewport.height - g))
        }

        public var contentInset: EdgeInsets { .zero }

        /// The featured index `clamp(Int(o_y/G), 0, N−1)` and progress `π = o_y/G − f`.
        public func featuredState(at offset: Point) -> (index: Int, progress: Double)? {
            guard count > 0 else { return nil }
            let y = finite(offset.y)
            let q = y / parameters.dragOffset
            let f = clampedIndex(q.rounded(.towardZero), 0, count - 1)
            return (f, finite(q - Double(f)))
        }

        /// Geometry of the featured and next cells at an offset, shared by all per-item queries.
        private struct Frame {
            var f: Int
            var progress: Double
            var featuredY: Double
            var nextHeight: Double
            /// `y` of the first cell after the next one.
            var tailY: Double
        }

        private func frameState(at offset: Point) -> Frame? {
            guard let (f, pi) = featuredState(at: offset) else { return nil }
            let s = parameters.standardHeight, big = parameters.featuredHeight
            let featuredY = finite(offset.y) - s * pi
            let nextHeight = s + max((big - s) * pi, 0)
            return Frame(
                f: f, progress: pi, featuredY: featuredY, nextHeight: nextHeight,
                tailY: featuredY + big + s)
        }

        private func item(index i: Int, state st: Frame) -> Item {
            let s = parameters.standardHeight, big = parameters.featuredHeight
            let y: Double, h: Double, role: Role
            if i < st.f {
                (y, h, role) = (Double(i) * s, s, .standard)
            } else if i == st.f {
                (y, h, role) = (st.featuredY, big, .featured)
            } else if i == st.f + 1 {
                (y, h, role) = (st.tailY - st.nextHeight, st.nextHeight, .next)
            } else {
                (y, h, role) = (st.tailY + Double(i - st.f - 2) * s, s, .standard)
            }
            let p = parameters
            let span = big - s
            let delta = span != 0 ? clamp(finite(1 - (big - h) / span), 0, 1) : (role == .featured ? 1 : 0)
            let frame = Rect(x: 0, y: finite(y), width: viewport.width, height: finite(h))
            return Item(
                attributes: LayoutAttributes(index: i, frame: frame, zIndex: i), role: role, delta: delta,
                coverAlpha: clamp(p.coverAlphaMax - (p.coverAlphaMax - p.coverAlphaMin) * delta, 0, 1),
                titleScale: max(delta, p.minimumTitleScale), detailAlpha: delta)
        }

        /// Item `index` at `offset`, whether visible or not.
        /// - Complexity: O(1).
        public func item(ofIndex index: Int, at offset: Point) -> Item? {
            guard index >= 0, index < count, let st = frameState(at: offset) else { return nil }
            return item(index: index, state: st)
        }

        /// The cells whose frame meets `rect` (closed intervals), in index order.
        ///
        /// Three runs are contiguous stacks (before the featured cell, the featured and next
        /// cells, after them), so each run's visible range is solved directly.
        /// - Complexity: O(visible items).
        public func items(at offset: Point, in rect: Rect? = nil) -> [Item] {
            items(at: offset, in: rect, limit: .max) ?? []
        }

        /// - Complexity: O(min(visible items, limit)).
        public func items(at offset: Point, in rect: Rect?, limit: Int) -> [Item]? {
            guard count > 0, offset.isFinite, let st = frameState(at: offset) else { return [] }
            let query = rect ?? Rect(x: offset.x, y: offset.y, width: viewport.width, height: viewport.height)
            guard query.isFinite, closedOverlap(0, viewport.width, query.minX, query.maxX) else { return [] }
            let s = parameters.standardHeight
            // Index ranges, not indices: a rect over a million cells costs nothing until built.
            var runs: [ClosedRange<Int>] = []
            func run(_ lo: Int, _ hi: Int, origin: Double) {
                // Cells lo...hi at y = origin + (i − lo)·S.
                guard lo <= hi else { return }
                var a = lo, b = hi
                if s > 0 {
                    a = max(lo, clampedIndex(((query.minY - origin) / s).rounded(.up) - 1, 0, hi - lo) + lo)
                    b = min(hi, clampedIndex(((query.maxY - origin) / s).rounded(.down), 0, hi - lo) + lo)
                }
                if a <= b { runs.append(a...b) }
            }
            run(0, st.f - 1, origin: 0)
            runs.append(st.f...min(st.f + 1, count - 1))
            run(st.f + 2, count - 1, origin: st.tailY)
            var result: [Item] = []
            for i in runs.joined() {
                let item = item(index: i, state: st)
                guard item.attributes.frame.intersects(query) else { continue }
                guard result.count < limit else { return nil }
                result.append(item)
            }
            return result
        }

        /// `round(p_y/G)·G` (halves away from zero), clamped to `[0, (N−1)·G]` (the original does not clamp).
        public func targetOffset(forProposed proposed: Point, velocity: Point) -> Point {
            guard count > 0 else { return Point(x: 0, y: 0) }
            let g = parameters.dragOffset
            let k = clampedIndex((finite(proposed.y) / g).rounded(.toNearestOrAwayFromZero), 0, count - 1)
            return Point(x: 0, y: Double(k) * g)
        }

        /// `(0, G·i)` with `i` clamped to `0...N−1`: item `i` featured.
        public func offset(forIndex index: Int) -> Point? {
            guard count > 0 else { return nil }
            return Point(x: 0, y: Double(clamp(index, 0, count - 1)) * parameters.dragOffset)
        }

        /// The item snapping would feature: `clamp(round(o_y/G), 0, N−1)`.
        public func nearestIndex(at offset: Point) -> Int? {
            guard count > 0 else { return nil }
            return clampedIndex(
                (finite(offset.y) / parameters.dragOffset).rounded(.toNearestOrAwayFromZero), 0, count - 1)
        }
    }
}
