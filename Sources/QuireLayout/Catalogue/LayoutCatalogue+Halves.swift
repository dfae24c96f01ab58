extension LayoutName {
    /// The two-halves selector (docs/layout-formulas.md#halves).
    public static let halves = LayoutName(entry: "halves")
}

extension LayoutCatalogue {
    /// The two-halves selector: one half of the pizza selector, scaled by distance from centre,
    /// with section headers.
    public enum Halves: LayoutCatalogueEntry {
        /// The selector's parameters plus which half a request lays out.
        public struct Parameters: Codable, Sendable, Equatable {
            public var orientation: Layouts.Halves.Orientation = .left
            public var layout = Layouts.Halves.Parameters()

            /// The left half with the selector's defaults.
            public init() {}
        }

        public static let name = LayoutName.halves
        public static var defaultParameters: Parameters { Parameters() }
        public static let parameterSpecs = [
            LayoutParameter("orientation", .choice(["left", "right"])),
            LayoutParameter("pizzaSize", .number, positive: true),
            LayoutParameter("criticalOffsetFromCenter", .number), LayoutParameter("scaleFactor", .number),
            LayoutParameter("spaceBetweenHalves", .number), LayoutParameter("headerHeight", .number),
            LayoutParameter("headerVerticalOffset", .number), LayoutParameter("headerTranslationFactor", .number),
            LayoutParameter("layoutMargin", .number), LayoutParameter("cellZIndex", .integer),
            LayoutParameter("headerZIndex", .integer)
        ]

        /// Reads the numbers first, then checks `pizzaSize` and reads `orientation` (the order
        /// in which errors are reported).
        public static func parameters(from p: LayoutFields) throws -> Parameters {
            var parameters = Parameters()
            parameters.layout.pizzaSize = try p.number("pizzaSize", required: false)
            if let v = try p.number("criticalOffsetFromCenter", required: false) {
                parameters.layout.criticalOffsetFromCenter = v
            }
            if let v = try p.number("scaleFactor", required: false) { parameters.layout.scaleFactor = v }
            if let v = try p.number("spaceBetweenHalves", required: false) { parameters.layout.spaceBetweenHalves = v }
            if let v = try p.number("headerHeight", required: false) { parameters.layout.headerHeight = v }
            if let v = try p.number("headerVerticalOffset", required: false) {
                parameters.layout.headerVerticalOffset = v
            }
            if let v = try p.number("headerTranslationFactor", required: false) {
                parameters.layout.headerTranslationFactor = v
            }
            if let v = try p.number("layoutMargin", required: false) { parameters.layout.layoutMargin = v }
            if let v = try p.integer("cellZIndex", required: false) { parameters.layout.cellZIndex = v }
            if let v = try p.integer("headerZIndex", required: false) { parameters.layout.headerZIndex = v }
            if let size = parameters.layout.pizzaSize, size <= 0 {
                throw p.error("pizzaSize", "must be greater than 0")
            }
            if let name = try p.string("orientation", required: false) {
                guard let o = Layouts.Halves.Orientation(rawValue: name) else {
                    throw p.error("orientation", "must be left or right")
                }
                parameters.orientation = o
            }
            return parameters
        }

        /// Snapping answers with the selector's own rule (same-cell, immediate offset).
        public static func answer(_ query: LayoutQuery, parameters: Parameters) throws -> [String: LayoutJSON] {
            let layout = Layouts.Halves(
                viewport: query.viewport, count: query.ratios.count,
                orientation: parameters.orientation, parameters: parameters.layout)
            var out = common(layout, query, offset: query.offset)
            out["items"] = try encodedItems(layout, at: query.offset, query) { item in
                [
                    "role": .string(item.role.rawValue), "normalizedDistance": .number(item.normalizedDistance),
                    "scale": .number(item.scale)
                ]
            }
            if let snap = query.snap,
                let s = layout.snap(proposed: snap.proposedOffset, velocity: snap.velocity, current: query.offset)
            {
                out["snap"] = .object([
                    "targetOffset": .point(s.restingOffset), "index": .number(Double(s.index)),
                    "immediateOffset": .point(s.immediateOffset), "sameCell": .bool(s.sameCell)
                ])
            }
            return out
        }

        /// The left half of the pizza selector; its section headers carry no page and are not drawn.
        public static func renderLayout(viewport: Size, aspectRatios: [Double]) -> AnyRenderLayout {
            AnyRenderLayout(
                Layouts.Halves(viewport: viewport, count: aspectRatios.count),
                axis: .vertical, keep: { $0.role == .cell })
        }
    }
}
