extension Layouts {
    /// The preview pager of the Photos app (docs/layout-formulas.md#pager): full-viewport pages side by side,
    /// a parallax gap between moving pages, and each image aspect-fit inside its cell.
    public struct Pager: CollectionLayout, Hashable {
        /// Defaults from the original `PreviewLayout`.
        public struct Parameters: Hashable, Sendable, Codable {
            /// The most a page moves apart from its neighbour while scrolling (points).
            public var offsetBetweenCells: Double = 44
            /// How far the image moves inside its cell relative to the cell width.
            public var imageParallaxFactor: Double = 0.3

            /// The pager's parameters; the defaults are the Photos app's (44 pt gap, 0.3 parallax).
            public init(offsetBetweenCells: Double = 44, imageParallaxFactor: Double = 0.3) {
                self.offsetBetweenCells = offsetBetweenCells
                self.imageParallaxFactor = imageParallaxFactor
            }
        }

        /// One page at an offset.
        public struct Item: LayoutItem, Hashable {
            public var attributes: LayoutAttributes
            /// `i − o_x/W` while the page is within one page of the centre, else nil.
            public var parallax: Double?
            /// The aspect-fit rect of the image in cell coordinates; the cell's layer mask.
            public var mask: Rect
            /// Horizontal translation of the image inside the cell.
            public var imageTranslation: Double
            /// The part of the image that shows: `mask ∩ (mask shifted by imageTranslation)`,
            /// cell coordinates; nil when nothing shows.
            public var visibleImageRect: Rect?
        }

        public var viewport: Size
        /// Page aspect ratios (width / height); invalid entries give an empty mask.
        public var aspectRatios: [Double]
        public var parameters: Parameters

        /// A pager of one page per aspect ratio (width / height), each filling `viewport`.
        public init(viewport: Size, aspectRatios: [Double], parameters: Parameters = Parameters()) {
            self.viewport = viewport
            self.aspectRatios = aspectRatios
            self.parameters = parameters
        }

        public var count: Int { isUsable ? aspectRatios.count : 0 }
        private var width: Double { viewport.width }
        private var isUsable: Bool { viewport.isFinite && viewport.width > 0 && viewport.height >= 0 }

        public var contentSize: Size {
            Size(width: Double(count) * viewport.width, height: isUsable ? viewport.height : 0)
        }

        public var contentInset: EdgeInsets { .zero }

        /// Page `i`'s cell frame `(i·W, 0, W, H)`.
        public func frame(ofIndex index: Int) -> Rect {
            Rect(x: Double(index) * width, y: 0, width: width, height: viewport.height)
        }

        /// Page `i`'s aspect-fit mask in cell coordinates.
        public func mask(ofIndex index: Int) -> Rect {
            let box = Rect(x: 0, y: 0, width: viewport.width, height: viewport.height)
            guard aspectRatios.indices.contains(index) else { return Rect(center: box.center, size: .zero) }
            return AspectFit.rectOrEmpty(for: Size(width: aspectRatios[index], height: 1), in: box)
        }

        /// - Complexity: O(visible pages): the page range comes from the rect, not a scan.
        public func items(at offset: Point, in rect: Rect? = nil) -> [Item] {
            items(at: offset, in: rect, limit: .max) ?? []
        }

        /// - Complexity: O(min(visible pages, limit)).
        public func items(at offset: Point, in rect: Rect?, limit: Int) -> [Item]? {
            guard count > 0, offset.isFinite else { return [] }
            let query = rect ?? Rect(x: offset.x, y: offset.y, width: viewport.width, height: viewport.height)
            guard query.isFinite else { return [] }
            // Closed intervals: page i covers [iW, (i+1)W] and touches count (docs/layout-formulas.md#conventions).
            let first = clampedIndex((query.minX / width).rounded(.up) - 1, 0, count - 1)
            let last = clampedIndex((query.maxX / width).rounded(.down), 0, count - 1)
            guard first <= last, query.minY <= viewport.height, query.maxY >= 0 else { return [] }
            var result: [Item] = []
            for index in first...last {
                let frame = frame(ofIndex: index)
                guard frame.intersects(query) else { continue }
                guard result.count < limit else { return nil }
                result.append(item(index: index, frame: frame, offsetX: offset.x))
            }
            return result
        }

        /// Page `index` at `offset` with its parallax values, whether visible or not (the
        /// original's per-item query omits parallax; Quire gives the same values as `items`).
        /// - Complexity: O(1).
        public func item(ofIndex index: Int, at offset: Point) -> Item? {
            guard index >= 0, index < count, offset.isFinite else { return nil }
            return item(index: index, frame: frame(ofIndex: index), offsetX: offset.x)
        }

        private func item(index: Int, frame: Rect, offsetX: Double) -> Item {
            // Evaluated in the original's order: distance to the offset, minus half, over W.
            // |ρ| below 1e-9 is rounding noise of `i·W + W/2 − i·W`: treat it as 0 so a
            // snapped page always rests exactly (parallax 0, identity transform).
            let raw = ((frame.midX - offsetX) - width / 2) / width
            let rho = abs(raw) < 1e-9 ? 0 : raw
            let parallax: Double? = abs(rho) < 1 ? rho : nil
            var attributes = LayoutAttributes(index: index, frame: frame)
            if let parallax {
                attributes.transform = ItemTransform(tx: parallax * parameters.offsetBetweenCells)
            }
            let imageTranslation = finite(-(width * parameters.imageParallaxFactor * (parallax ?? 0)))
            let mask = mask(ofIndex: index)
            let visible = mask.intersection(mask.offsetBy(dx: imageTranslation, dy: 0))
                .flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }
            return Item(
                attributes: attributes, parallax: parallax, mask: mask,
                imageTranslation: imageTranslation + 0, visibleImageRect: visible)
        }

        /// Paging: the nearest page to the proposal (velocity is already in the proposal).
        public func targetOffset(forProposed proposed: Point, velocity: Point) -> Point {
            guard let index = nearestIndex(at: proposed) else { return Point(x: 0, y: 0) }
            return Point(x: Double(index) * width, y: 0)
        }

        /// The content offset that shows page `index` (clamped to the pages), or nil when there are none.
        public func offset(forIndex index: Int) -> Point? {
            guard count > 0 else { return nil }
            return Point(x: Double(clamp(index, 0, count - 1)) * width, y: 0)
        }

        /// `clamp(floor(o_x/W + 0.5), 0, N−1)`.
        public func nearestIndex(at offset: Point) -> Int? {
            guard count > 0 else { return nil }
            return clampedIndex((offset.x / width + 0.5).rounded(.down), 0, count - 1)
        }
    }
}
