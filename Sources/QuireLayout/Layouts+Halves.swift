extension Layouts {
    /// Dodo Pizza's half selector (docs/layout-formulas.md#halves): one of two vertical columns of pizza halves
    /// where the centred pizza is full size and the others shrink, fade and are pulled toward
    /// the centre like a drum; a header above the centre cross-fades between pizza names.
    ///
    /// Robust where the original is not (docs/layout-formulas.md#halves, #where-quire-differs-from-the-originals): a pizza size of 0 or an invalid
    /// viewport gives no items instead of dividing by zero; snapping clamps its index to
    /// `0...N−1` instead of trusting UIKit's clamped proposals; and a cell that the pull brings
    /// into the query rect is returned even when its default frame misses it.
    public struct Halves: CollectionLayout, Hashable {
        /// Which half of the pizza this column shows.
        public enum Orientation: String, Hashable, Sendable, Codable {
            /// The left column: halves pinned to its right (inner) edge.
            case left
            /// The right column: halves pinned to its left (inner) edge.
            case right
        }

        /// Whether an element is a pizza cell or the name header above the centred pizza.
        public enum Role: String, Hashable, Sendable, Codable { case cell, header }

        /// Defaults from the original `PizzaHalfSelectorLayout` and storyboard.
        public struct Parameters: Hashable, Sendable, Codable {
            /// Pizza size `P`; nil picks the original's rule: 300 when the screen (`2W + 1`) is wider than 320, else 230.
            public var pizzaSize: Double?
            /// Distance from the centre at which a pizza reaches its smallest scale.
            public var criticalOffsetFromCenter: Double = 200
            /// How much a far pizza shrinks: scale `1 − scaleFactor·|n|` (minimum 0.4 by default).
            public var scaleFactor: Double = 0.6
            /// Gap between the two halves; each half sits half of it inside its inner edge.
            public var spaceBetweenHalves: Double = 4
            public var headerHeight: Double = 60
            /// Raises the header band: its top is `headerVerticalOffset + headerHeight/2` above the centred pizza (see `headerFrame`).
            public var headerVerticalOffset: Double = 30
            /// How far a header slides (points) as its pizza leaves the centre.
            public var headerTranslationFactor: Double = 20
            /// Layout margin `m` used for the header's horizontal inset (UIKit's 16 by default).
            public var layoutMargin: Double = 16
            public var cellZIndex: Int = 0
            public var headerZIndex: Int = 2

            /// The selector's parameters; the defaults are Dodo Pizza's.
            public init(
                pizzaSize: Double? = nil, criticalOffsetFromCenter: Double = 200, scaleFactor: Double = 0.6,
                spaceBetweenHalves: Double = 4, headerHeight: Double = 60, headerVerticalOffset: Double = 30,
                headerTranslationFactor: Double = 20, layoutMargin: Double = 16,
                cellZIndex: Int = 0, headerZIndex: Int = 2
            ) {
                self.pizzaSize = pizzaSize
                self.criticalOffsetFromCenter = criticalOffsetFromCenter
                self.scaleFactor = scaleFactor
                self.spaceBetweenHalves = spaceBetweenHalves
                self.headerHeight = headerHeight
                self.headerVerticalOffset = headerVerticalOffset
                self.headerTranslationFactor = headerTranslationFactor
                self.layoutMargin = layoutMargin
                self.cellZIndex = cellZIndex
                self.headerZIndex = headerZIndex
            }
        }

        /// One cell or header at an offset.
        public struct Item: LayoutItem, Hashable {
            public var attributes: LayoutAttributes
            public var role: Role
            /// `n = clamp(Δ/critical, −1, 1)`: signed distance of the pizza from the centre.
            public var normalizedDistance: Double
            /// The pizza's scale `1 − scaleFactor·|n|` (also the cell's alpha).
            public var scale: Double
        }

        /// The snapping decision with the same-cell rule (docs/layout-formulas.md#halves).
        public struct Snap: Hashable, Sendable {
            /// Where the deceleration should stop now: the current offset when the proposal stays
            /// on the current pizza (the original's "backward scroll" hack), else `restingOffset`.
            public var immediateOffset: Point
            /// Where the column finally rests: pizza `index` centred.
            public var restingOffset: Point
            public var index: Int
            /// True when the same-cell rule applied (the viewer then animates to `restingOffset`).
            public var sameCell: Bool
        }

        public var viewport: Size
        public var itemCount: Int
        public var orientation: Orientation
        public var parameters: Parameters

        /// A half selector of `count` items in `viewport`, its items on the `orientation` side.
        public init(viewport: Size, count: Int, orientation: Orientation = .left, parameters: Parameters = Parameters())
        {
            self.viewport = viewport
            self.itemCount = max(0, count)
            self.orientation = orientation
            self.parameters = parameters
        }

        /// `P`: the parameter, or 300/230 by the screen width `2W + 1`.
        public var pizzaSize: Double {
            parameters.pizzaSize ?? (2 * viewport.width + 1 > 320 ? 300 : 230)
        }

        private var isUsable: Bool {
            let p = pizzaSize
            return viewport.isFinite && viewport.width >= 0 && viewport.height >= 0 && p.isFinite && p > 0
                && parameters.criticalOffsetFromCenter.isFinite && parameters.scaleFactor.isFinite
                && parameters.spaceBetweenHalves.isFinite && parameters.headerHeight.isFinite
                && parameters.headerVerticalOffset.isFinite && parameters.headerTranslationFactor.isFinite
                && parameters.layoutMargin.isFinite
        }

        public var count: Int { isUsable ? itemCount : 0 }

        /// `(W, P·N)`; `(W, 0)` with no items.
        public var contentSize: Size {
            Size(width: isUsable ? viewport.width : 0, height: Double(count) * (isUsable ? pizzaSize : 0))
        }

        /// `top = bottom = (H − P)/2`, from the real height (the original froze the storyboard's).
        public var contentInset: EdgeInsets {
            guard isUsable else { return .zero }
            let v = (viewport.height - pizzaSize) / 2
            return EdgeInsets(top: v, left: 0, bottom: v, right: 0)
        }

        /// Default frame `F_i = (0, P·i, W, P)` (full column width).
        public func defaultFrame(ofIndex index: Int) -> Rect {
            Rect(x: 0, y: pizzaSize * Double(index), width: viewport.width, height: pizzaSize)
        }

        /// `(o_y + H/2)/P`: `k + 0.5` when pizza `k` is centred.
        public func pizzaIndex(at offset: Point) -> Double {
            guard isUsable else { return 0 }
            return finite((offset.y + viewport.height / 2) / pizzaSize)
        }

        /// Normalised distance `n` and scale `s` for a row whose default mid is `Δ` from the screen centre.
        private func distanceAndScale(delta: Double) -> (n: Double, s: Double) {
            let critical = parameters.criticalOffsetFromCenter
            let n: Double
            if critical > 0 {
                n = clamp(delta / critical, -1, 1)
            } else {
                n = delta == 0 ? 0 : (delta > 0 ? 1 : -1)
            }
            let s = clamp(1 - clamp(parameters.scaleFactor, 0, 1) * abs(n), 0, 1)
            return (n, s)
        }

        /// Cell `index` at `offset`, whether visible or not.
        /// - Complexity: O(1).
        public func cell(ofIndex index: Int, at offset: Point) -> Item? {
            guard index >= 0, index < count, offset.isFinite else { return nil }
            return cell(index: index, screenCenterY: offset.y + viewport.height / 2)
        }

        private func cell(index: Int, screenCenterY: Double) -> Item {
            let frame = defaultFrame(ofIndex: index)
            let delta = frame.midY - screenCenterY
            let (n, s) = distanceAndScale(delta: delta)
            let w = viewport.width
            let hOff = (w - w * s) / 2
            let vOff = (-delta / 4) * s
            let inner = parameters.spaceBetweenHalves / 2
            let dx = orientation == .left ? hOff - inner : -hOff + inner
            let center = Point(x: frame.midX + dx, y: finite(frame.midY + vOff))
            let attributes = LayoutAttributes(
                index: index, center: center, size: frame.size, transform: ItemTransform(scale: s),
                alpha: s, zIndex: parameters.cellZIndex)
            return Item(attributes: attributes, role: .cell, normalizedDistance: n + 0, scale: s)
        }

        /// The band above the centred pizza: `(m, o_y + (H − P)/2 − headerVerticalOffset − headerHeight/2, W − 2m, headerHeight)`,
        /// which with the defaults is `(m, o_y + (H − P)/2 − 30 − 30, W − 2m, 60)`.
        public func headerFrame(at offset: Point) -> Rect {
            let m = parameters.layoutMargin, p = parameters
            let y = offset.y + (viewport.height - pizzaSize) / 2 - p.headerVerticalOffset - p.headerHeight / 2
            return Rect(x: m, y: y, width: max(0, viewport.width - 2 * m), height: p.headerHeight)
        }

        /// Cells (by row), then the headers with alpha > 0 (docs/layout-formulas.md#halves order).
        ///
        /// A cell is returned when its default frame (the original's rule) or its transformed
        /// frame meets `rect` (closed intervals). The pull toward the centre moves a cell by at
        /// most a quarter of its distance, so the candidate rows come from the rect widened
        /// by that bound rather than from a scan.
        /// - Complexity: O(visible rows + log N).
        public func items(at offset: Point, in rect: Rect? = nil) -> [Item] {
            items(at: offset, in: rect, limit: .max) ?? []
        }

        /// - Complexity: O(min(visible rows, limit) + log N); cells and headers both count.
        public func items(at offset: Point, in rect: Rect?, limit: Int) -> [Item]? {
            guard count > 0, offset.isFinite else { return [] }
            let query = rect ?? Rect(x: offset.x, y: offset.y, width: viewport.width, height: viewport.height)
            guard query.isFinite else { return [] }
            let p = pizzaSize
            let centerY = offset.y + viewport.height / 2
            // A cell's visual centre is `c + Δ(1 − s/4)`, between 3/4 of Δ and Δ from the
            // screen centre `c` (scale s ∈ [0, 1]), and its half height is at most P/2. So a
            // cell can meet [minY, maxY] only if its default mid is within [c + L, c + U]:
            let up = query.maxY - centerY + p / 2
            let down = query.minY - centerY - p / 2
            let upper = centerY + (up >= 0 ? up / 0.75 : up)
            let lower = centerY + (down <= 0 ? down / 0.75 : down)
            // ...or (the original's rule) its default frame meets the rect.
            let first = clampedIndex(
                min((lower / p - 0.5).rounded(.up), (query.minY / p).rounded(.up) - 1), 0, count - 1)
            let last = clampedIndex(
                max((upper / p - 0.5).rounded(.down), (query.maxY / p).rounded(.down)), 0, count - 1)
            guard first <= last else { return [] }
            var cells: [Item] = []
            var headers: [Item] = []
            let header = headerFrame(at: offset)
            for index in first...last {
                let item = cell(index: index, screenCenterY: centerY)
                guard defaultFrame(ofIndex: index).intersects(query) || item.attributes.frame.intersects(query) else {
                    continue
                }
                guard cells.count + headers.count < limit else { return nil }
                cells.append(item)
                let alpha = 1 - abs(item.normalizedDistance)
                if alpha > 0 {
                    let attributes = LayoutAttributes(
                        index: index, center: header.center, size: header.size,
                        transform: ItemTransform(ty: parameters.headerTranslationFactor * item.normalizedDistance + 0),
                        alpha: clamp(alpha, 0, 1), zIndex: parameters.headerZIndex)
                    guard cells.count + headers.count < limit else { return nil }
                    headers.append(
                        Item(
                            attributes: attributes, role: .header,
                            normalizedDistance: item.normalizedDistance, scale: 1))
                }
            }
            return cells + headers
        }

        /// `offsetFor(k) = (0, P·k + P/2 − H/2)` with `k` clamped to `0...N−1`; nil with no items.
        public func offset(forIndex index: Int) -> Point? {
            guard count > 0 else { return nil }
            let k = Double(clamp(index, 0, count - 1))
            return Point(x: 0, y: pizzaSize * k + pizzaSize / 2 - viewport.height / 2)
        }

        /// The centred pizza: `Int(pizzaIndex)` (truncation, as `currentIndexInt`) clamped to `0...N−1`.
        public func nearestIndex(at offset: Point) -> Int? {
            guard count > 0 else { return nil }
            return clampedIndex(pizzaIndex(at: offset.finiteOr(.zero)).rounded(.towardZero), 0, count - 1)
        }

        /// Snapping with the same-cell rule: `k = Int(pizzaIndex(proposed))`, clamped to `0...N−1`
        /// (the original does not clamp). When `k` is the current pizza the deceleration stops
        /// at `current` and the column then animates to `offsetFor(k)`.
        /// - Complexity: O(1).
        public func snap(proposed: Point, velocity: Point, current: Point) -> Snap? {
            guard count > 0, let currentIndex = nearestIndex(at: current) else { return nil }
            let k = clampedIndex(pizzaIndex(at: proposed.finiteOr(current)).rounded(.towardZero), 0, count - 1)
            let resting = offset(forIndex: k)!
            let same = k == currentIndex
            return Snap(
                immediateOffset: same ? Point(x: current.x, y: current.y).finiteOr(resting) : resting,
                restingOffset: resting, index: k, sameCell: same)
        }

        /// Where the column finally rests for a proposal: `offsetFor(clamp(Int(pizzaIndex(p)), 0, N−1))`.
        public func targetOffset(forProposed proposed: Point, velocity: Point) -> Point {
            snap(proposed: proposed, velocity: velocity, current: proposed)?.restingOffset ?? Point(x: 0, y: 0)
        }
    }
}
