extension Layouts {
    /// Youla's infinite banner carousel (docs/layout-formulas.md#carousel): three reusable slots in a scroll view;
    /// the centre slot rests with 8 pt "ears" of its neighbours showing, and when the offset
    /// passes a third of a banner the offset and the data shift by one slot, so the user can
    /// scroll forever in both directions.
    ///
    /// Robust where the reconstruction is not: no items (the original crashes) gives no slots;
    /// recentring is applied until stable in O(1) (the number of slot steps is computed, not
    /// looped); a configuration whose recentring would oscillate (large insets, or views
    /// narrower than `3(2·sideOffset + inset.left − spacing)`) is refused with `Problem.oscillates`;
    /// snapping measures from the viewport's own mid (`W/2`) instead of the view's frame in
    /// its superview.
    public struct Carousel: CollectionLayout, Hashable {
        /// Defaults of the reconstructed `BannersView`.
        public struct Parameters: Hashable, Sendable, Codable {
            /// Inset of the centred banner from each side of the view: banner width is `W − 2·sideOffset`.
            public var sideOffset: Double = 16
            /// Gap between slots.
            public var spacing: Double = 8
            /// Scroll view content inset (left and right).
            public var insetLeft: Double = 16
            public var insetRight: Double = 16
            /// Corner radius of each banner (its mask).
            public var cornerRadius: Double = 8

            /// The carousel's parameters; the defaults are Youla's banners.
            public init(
                sideOffset: Double = 16, spacing: Double = 8, insetLeft: Double = 16, insetRight: Double = 16,
                cornerRadius: Double = 8
            ) {
                self.sideOffset = sideOffset
                self.spacing = spacing
                self.insetLeft = insetLeft
                self.insetRight = insetRight
                self.cornerRadius = cornerRadius
            }
        }

        /// The three slots, in subview (z) order.
        public enum Slot: String, Hashable, Sendable, Codable, CaseIterable { case left, center, right }

        /// Why a carousel cannot run.
        public enum Problem: Hashable, Sendable {
            /// The banner width `W − 2·sideOffset` is not positive (the original skips layout).
            case noBannerWidth
            /// Recentring would move the offset back and forth forever.
            case oscillates
            /// A parameter or the viewport is NaN or infinite.
            case notFinite
        }

        /// One slot at an offset.
        public struct Item: LayoutItem, Hashable {
            /// `index` is the data index the slot shows.
            public var attributes: LayoutAttributes
            public var slot: Slot
            public var cornerRadius: Double
        }

        public var viewport: Size
        public var itemCount: Int
        /// The data index shown in the centre slot.
        public var centerIndex: Int
        public var parameters: Parameters

        /// A carousel of `count` banners in `viewport`, data item `centerIndex` in the centre slot.
        public init(viewport: Size, count: Int, centerIndex: Int = 0, parameters: Parameters = Parameters()) {
            self.viewport = viewport
            self.itemCount = max(0, count)
            self.parameters = parameters
            self.centerIndex = 0
            self.centerIndex = wrapped(centerIndex)
        }

        /// `index` wrapped into `0..<N` (0 when empty).
        public func wrapped(_ index: Int) -> Int {
            guard itemCount > 0 else { return 0 }
            let r = index % itemCount
            return r < 0 ? r + itemCount : r
        }

        /// Banner width `iw = W − 2·sideOffset`.
        public var bannerWidth: Double { viewport.width - 2 * parameters.sideOffset }
        /// One slot step `iw + spacing`: how far recentring moves the offset.
        public var step: Double { bannerWidth + parameters.spacing }

        /// The problem that stops this configuration, if any.
        ///
        /// Recentring forward happens past `T = 3iw + 2s − g − W − inset.left`, backward below
        /// `g = iw/3`; after a step forward the offset must not trigger a step back, which holds
        /// for every offset exactly when `T ≥ g + step`.
        public var problem: Problem? {
            let p = parameters
            guard viewport.isFinite, p.sideOffset.isFinite, p.spacing.isFinite, p.insetLeft.isFinite,
                p.insetRight.isFinite, p.cornerRadius.isFinite
            else { return .notFinite }
            guard bannerWidth > 0, viewport.height >= 0 else { return .noBannerWidth }
            if forwardThreshold < backwardThreshold + step { return .oscillates }
            return nil
        }

        /// Offsets above this recentre forward (`maxX(right) − g < o + W + inset.left`).
        public var forwardThreshold: Double {
            3 * bannerWidth + 2 * parameters.spacing - bannerWidth / 3 - viewport.width - parameters.insetLeft
        }
        /// Offsets below this recentre backward (`minX(left) + g > o`).
        public var backwardThreshold: Double { bannerWidth / 3 }

        public var count: Int { problem == nil ? itemCount : 0 }

        /// `(3iw + 2s, H)`.
        public var contentSize: Size {
            guard count > 0 else { return .zero }
            return Size(width: 3 * bannerWidth + 2 * parameters.spacing, height: viewport.height)
        }

        public var contentInset: EdgeInsets {
            EdgeInsets(top: 0, left: parameters.insetLeft, bottom: 0, right: parameters.insetRight)
        }

        /// Slot frame: left `(0,0,iw,H)`, centre `(iw+s,0,iw,H)`, right `(2iw+2s,0,iw,H)`.
        public func frame(of slot: Slot) -> Rect {
            let x: Double
            switch slot {
            case .left: x = 0
            case .center: x = step
            case .right: x = 2 * step
            }
            return Rect(x: x, y: 0, width: bannerWidth, height: viewport.height)
        }

        /// The data index a slot shows: `[c−1, c, c+1]` wrapping around.
        public func dataIndex(of slot: Slot) -> Int {
            switch slot {
            case .left: return wrapped(centerIndex - 1)
            case .center: return centerIndex
            case .right: return wrapped(centerIndex + 1)
            }
        }

        /// The offset at which the centre slot rests: `midX(centre) − W/2` (`iw − 8` by default).
        public var restOffset: Point { Point(x: frame(of: .center).midX - viewport.width / 2, y: 0) }

        /// Applies recentring until stable: each forward step moves the offset back by one slot
        /// and advances the centre index (wrapping), each backward step the reverse.
        /// - Returns: the recentred carousel and offset; `self` and `offset` unchanged when the
        ///   configuration has a `problem` or no items.
        /// - Complexity: O(1): the number of steps is computed, not iterated.
        public func recentred(at offset: Point) -> (carousel: Carousel, offset: Point) {
            guard count > 0, offset.isFinite else { return (self, offset) }
            var steps = 0.0
            if offset.x > forwardThreshold {
                steps = ((offset.x - forwardThreshold) / step).rounded(.up)
            } else if offset.x < backwardThreshold {
                steps = -((backwardThreshold - offset.x) / step).rounded(.up)
            }
            guard steps != 0, steps.isFinite else { return (self, offset) }
            var next = self
            let shift = Int(steps.truncatingRemainder(dividingBy: Double(itemCount)))
            next.centerIndex = wrapped(centerIndex + shift)
            return (next, Point(x: offset.x - steps * step, y: offset.y))
        }

        /// The three slots (in z order left < centre < right) meeting `rect`; no recentring is applied.
        /// - Complexity: O(1).
        public func items(at offset: Point, in rect: Rect? = nil) -> [Item] {
            items(at: offset, in: rect, limit: .max) ?? []
        }

        /// At most three items, so the limit only matters below 3.
        /// - Complexity: O(1).
        public func items(at offset: Point, in rect: Rect?, limit: Int) -> [Item]? {
            guard count > 0, offset.isFinite else { return [] }
            let query = rect ?? Rect(x: offset.x, y: offset.y, width: viewport.width, height: viewport.height)
            guard query.isFinite else { return [] }
            let result: [Item] = Slot.allCases.enumerated().compactMap { z, slot in
                let frame = frame(of: slot)
                guard frame.intersects(query) else { return nil }
                return Item(
                    attributes: LayoutAttributes(index: dataIndex(of: slot), frame: frame, zIndex: z),
                    slot: slot, cornerRadius: parameters.cornerRadius)
            }
            return result.count <= limit ? result : nil
        }

        /// The slot the one-third rule snaps to for a drag ending at `proposed`.
        public func targetSlot(forProposed proposed: Point) -> Slot {
            let g = bannerWidth / 3
            let t = proposed.x
            if frame(of: .right).minX + g < t + viewport.width { return .right }
            if frame(of: .left).maxX - g > t { return .left }
            return .center
        }

        /// One-third snapping: the right slot when more than a third of it would show, the left
        /// slot likewise, else the centre; the target centres that slot (`2iw`, `−16`, `iw − 8`
        /// by default). After reaching a side target, `recentred(at:)` returns to `restOffset`.
        public func targetOffset(forProposed proposed: Point, velocity: Point) -> Point {
            guard count > 0 else { return Point(x: 0, y: 0) }
            let slot = targetSlot(forProposed: proposed.finiteOr(restOffset))
            return Point(x: frame(of: slot).midX - viewport.width / 2, y: 0)
        }

        /// The rest offset; the carousel shows item `index` there once `centerIndex` is set to it
        /// (see `showing(_:)`). Nil with no items.
        public func offset(forIndex index: Int) -> Point? {
            count > 0 ? restOffset : nil
        }

        /// This carousel with `index` (wrapped) in the centre slot.
        public func showing(_ index: Int) -> Carousel {
            var copy = self
            copy.centerIndex = wrapped(index)
            return copy
        }

        /// The data index of the slot whose centre is nearest the viewport's centre.
        public func nearestIndex(at offset: Point) -> Int? {
            guard count > 0 else { return nil }
            let mid = offset.finiteOr(restOffset).x + viewport.width / 2
            let best = Slot.allCases.min { abs(frame(of: $0).midX - mid) < abs(frame(of: $1).midX - mid) } ?? .center
            return dataIndex(of: best)
        }
    }
}
