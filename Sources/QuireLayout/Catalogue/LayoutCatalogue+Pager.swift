extension LayoutName {
    /// The photo pager (docs/layout-formulas.md#pager).
    public static let pager = LayoutName(entry: "pager")
}

extension LayoutCatalogue {
    /// The photo pager: one page per screen with the 44 pt gap and the image parallax.
    public enum Pager: LayoutCatalogueEntry {
        public typealias Parameters = Layouts.Pager.Parameters

        public static let name = LayoutName.pager
        public static var defaultParameters: Parameters { Parameters() }
        public static let parameterSpecs = [
            LayoutParameter("offsetBetweenCells", .number),
            LayoutParameter("imageParallaxFactor", .number)
        ]

        public static func parameters(from p: LayoutFields) throws -> Parameters {
            var parameters = Parameters()
            parameters.offsetBetweenCells =
                try p.number("offsetBetweenCells", required: false) ?? parameters.offsetBetweenCells
            parameters.imageParallaxFactor =
                try p.number("imageParallaxFactor", required: false) ?? parameters.imageParallaxFactor
            return parameters
        }

        /// Pages without a ratio fill their cell (`viewport.width / viewport.height`).
        public static func answer(_ query: LayoutQuery, parameters: Parameters) throws -> [String: LayoutJSON] {
            let viewport = query.viewport
            let layout = Layouts.Pager(
                viewport: viewport, aspectRatios: query.filled(viewport.width / viewport.height),
                parameters: parameters)
            var out = common(layout, query, offset: query.offset)
            out["items"] = try encodedItems(layout, at: query.offset, query) { item in
                [
                    "parallax": item.parallax.map { .number($0) } ?? .null,
                    "mask": .rect(item.mask),
                    "imageTranslation": .number(item.imageTranslation),
                    "visibleImageRect": item.visibleImageRect.map { .rect($0) } ?? .null
                ]
            }
            return out
        }

        public static func renderLayout(viewport: Size, aspectRatios: [Double]) -> AnyRenderLayout {
            AnyRenderLayout(Layouts.Pager(viewport: viewport, aspectRatios: aspectRatios), axis: .horizontal)
        }
    }
}
