extension LayoutName {
    /// The infinite carousel (docs/layout-formulas.md#carousel).
    public static let carousel = LayoutName(entry: "carousel")
}

extension LayoutCatalogue {
    /// The three-view infinite carousel, recentred as it scrolls.
    public enum Carousel: LayoutCatalogueEntry {
        /// The carousel's parameters plus the data index a request starts in the centre slot.
        public struct Parameters: Codable, Sendable, Equatable {
            /// Wrapped into `0..<count` by the layout.
            public var centerIndex = 0
            public var layout = Layouts.Carousel.Parameters()

            /// Item 0 in the centre with the banners' defaults.
            public init() {}
        }

        public static let name = LayoutName.carousel
        public static var defaultParameters: Parameters { Parameters() }
        public static let parameterSpecs = [
            LayoutParameter("centerIndex", .integer), LayoutParameter("sideOffset", .number),
            LayoutParameter("spacing", .number), LayoutParameter("insetLeft", .number),
            LayoutParameter("insetRight", .number), LayoutParameter("cornerRadius", .number)
        ]

        public static func parameters(from p: LayoutFields) throws -> Parameters {
            var parameters = Parameters()
            if let v = try p.number("sideOffset", required: false) { parameters.layout.sideOffset = v }
            if let v = try p.number("spacing", required: false) { parameters.layout.spacing = v }
            if let v = try p.number("insetLeft", required: false) { parameters.layout.insetLeft = v }
            if let v = try p.number("insetRight", required: false) { parameters.layout.insetRight = v }
            if let v = try p.number("cornerRadius", required: false) { parameters.layout.cornerRadius = v }
            parameters.centerIndex = try p.integer("centerIndex", required: false) ?? 0
            return parameters
        }

        /// The reply is for the recentred offset; a snap proposal moves with the recentring.
        /// - Throws: `LayoutRequestError` for a carousel that cannot run (no banner width, or
        ///   one that would recentre back and forth forever).
        public static func answer(_ query: LayoutQuery, parameters: Parameters) throws -> [String: LayoutJSON] {
            let initial = Layouts.Carousel(
                viewport: query.viewport, count: query.ratios.count,
                centerIndex: parameters.centerIndex, parameters: parameters.layout)
            switch initial.problem {
            case .oscillates?:
                throw LayoutRequestError(
                    field: "parameters.insetLeft",
                    message:
                        "this carousel would recentre back and forth forever (banner width \(LayoutJSON.format(initial.bannerWidth)) pt is less than 3 × (2·sideOffset + insetLeft − spacing)); use smaller insets or a wider viewport"
                )
            case .noBannerWidth?:
                throw LayoutRequestError(
                    field: "parameters.sideOffset",
                    message: "leaves no banner width (viewport.width − 2·sideOffset must be > 0)")
            case .notFinite?, nil: break
            }
            let (layout, offset) = initial.recentred(at: query.offset)
            var out = common(layout, query, offset: offset)
            out["centerIndex"] = .number(Double(layout.centerIndex))
            out["items"] = try encodedItems(layout, at: offset, query) { item in
                ["slot": .string(item.slot.rawValue), "cornerRadius": .number(item.cornerRadius)]
            }
            if let snap = query.snap, layout.count > 0 {
                // The proposal moves with the recentring, like the scroll view's deceleration.
                let proposed = Point(x: snap.proposedOffset.x + offset.x - query.offset.x, y: snap.proposedOffset.y)
                let slot = layout.targetSlot(forProposed: proposed)
                let target = layout.targetOffset(forProposed: proposed, velocity: snap.velocity)
                let settled = layout.recentred(at: target)
                out["snap"] = .object([
                    "targetOffset": .point(target), "index": .number(Double(layout.dataIndex(of: slot))),
                    "slot": .string(slot.rawValue), "restingOffset": .point(settled.offset),
                    "restingCenterIndex": .number(Double(settled.carousel.centerIndex))
                ])
            }
            return out
        }

        public static func renderLayout(viewport: Size, aspectRatios: [Double]) -> AnyRenderLayout {
            AnyRenderLayout(Layouts.Carousel(viewport: viewport, count: aspectRatios.count), axis: .horizontal)
        }
    }
}
