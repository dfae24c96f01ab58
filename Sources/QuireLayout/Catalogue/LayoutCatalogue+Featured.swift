extension LayoutName {
    /// The featured list (docs/layout-formulas.md#featured).
    public static let featured = LayoutName(entry: "featured")
}

extension LayoutCatalogue {
    /// The featured list: the top row grows into the featured cell as the list scrolls.
    public enum Featured: LayoutCatalogueEntry {
        public typealias Parameters = Layouts.Featured.Parameters

        public static let name = LayoutName.featured
        public static var defaultParameters: Parameters { Parameters() }
        public static let parameterSpecs = [
            LayoutParameter("standardHeight", .number), LayoutParameter("featuredHeight", .number),
            LayoutParameter("dragOffset", .number, positive: true), LayoutParameter("coverAlphaMax", .number),
            LayoutParameter("coverAlphaMin", .number), LayoutParameter("minimumTitleScale", .number)
        ]

        public static func parameters(from p: LayoutFields) throws -> Parameters {
            var parameters = Parameters()
            if let v = try p.number("standardHeight", required: false) { parameters.standardHeight = v }
            if let v = try p.number("featuredHeight", required: false) { parameters.featuredHeight = v }
            if let v = try p.number("dragOffset", required: false) {
                guard v > 0 else { throw p.error("dragOffset", "must be greater than 0") }
                parameters.dragOffset = v
            }
            if let v = try p.number("coverAlphaMax", required: false) { parameters.coverAlphaMax = v }
            if let v = try p.number("coverAlphaMin", required: false) { parameters.coverAlphaMin = v }
            if let v = try p.number("minimumTitleScale", required: false) { parameters.minimumTitleScale = v }
            return parameters
        }

        public static func answer(_ query: LayoutQuery, parameters: Parameters) throws -> [String: LayoutJSON] {
            let layout = Layouts.Featured(viewport: query.viewport, count: query.ratios.count, parameters: parameters)
            var out = common(layout, query, offset: query.offset)
            out["items"] = try encodedItems(layout, at: query.offset, query) { item in
                [
                    "role": .string(item.role.rawValue), "delta": .number(item.delta),
                    "coverAlpha": .number(item.coverAlpha), "titleScale": .number(item.titleScale),
                    "detailAlpha": .number(item.detailAlpha)
                ]
            }
            return out
        }

        public static func renderLayout(viewport: Size, aspectRatios: [Double]) -> AnyRenderLayout {
            AnyRenderLayout(Layouts.Featured(viewport: viewport, count: aspectRatios.count), axis: .vertical)
        }
    }
}
