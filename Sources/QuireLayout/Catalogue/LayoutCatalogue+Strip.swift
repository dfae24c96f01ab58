extension LayoutName {
    /// The thumbnail strip (docs/layout-formulas.md#strip).
    public static let strip = LayoutName(entry: "strip")
}

extension LayoutCatalogue {
    /// The thumbnail strip under the pager, the one layout that animates.
    public enum Strip: LayoutCatalogueEntry {
        /// The strip's parameters plus its state inputs: the expanding rate and per-cell updates.
        public struct Parameters: Codable, Sendable, Equatable {
            /// One per-cell update, applied in request order.
            public struct Update: Codable, Sendable, Equatable {
                public var index: Int
                public var update: Layouts.Strip.CellUpdate
            }

            public var layout = Layouts.Strip.Parameters()
            /// nil: 1 for the layout and the start of a scroll, 0 for the end of one.
            public var expandingRate: Double?
            public var updates: [Update] = []

            /// The strip at rest with the Photos app's defaults.
            public init() {}
        }

        public static let name = LayoutName.strip
        public static var animates: Bool { true }
        public static var defaultParameters: Parameters { Parameters() }
        public static let parameterSpecs = [
            LayoutParameter("defaultAspectRatio", .number, positive: true), LayoutParameter("spacing", .number),
            LayoutParameter("focusedSpacing", .number), LayoutParameter("maxAspectRatio", .number),
            LayoutParameter("minAspectRatio", .number), LayoutParameter("clampsAspectRatios", .boolean),
            LayoutParameter("deletionClosesSpacing", .boolean), LayoutParameter("expandingRate", .number),
            LayoutParameter("updates", .list)
        ]

        /// A `pagesFrom` request without a viewport, and `quire render`, use the strip height.
        public static func defaultViewport(_ reference: LayoutReport.Viewport) -> Size {
            Size(width: reference.width, height: reference.stripHeight)
        }

        public static func parameters(from p: LayoutFields) throws -> Parameters {
            var parameters = Parameters()
            if let v = try p.number("defaultAspectRatio", required: false) {
                guard v > 0 else { throw p.error("defaultAspectRatio", "must be greater than 0") }
                parameters.layout.defaultAspectRatio = v
            }
            if let v = try p.number("spacing", required: false) { parameters.layout.spacing = v }
            if let v = try p.number("focusedSpacing", required: false) { parameters.layout.focusedSpacing = v }
            if let v = try p.number("maxAspectRatio", required: false) { parameters.layout.maxAspectRatio = v }
            if let v = try p.number("minAspectRatio", required: false) { parameters.layout.minAspectRatio = v }
            if let v = try p.bool("clampsAspectRatios") { parameters.layout.clampsAspectRatios = v }
            if let v = try p.bool("deletionClosesSpacing") { parameters.layout.deletionClosesSpacing = v }
            parameters.expandingRate = try p.number("expandingRate", required: false)
            parameters.updates = try updates(p)
            return parameters
        }

        /// The `updates` array: at most `LayoutLimits.maximumUpdates` of `{index, kind, value, direction}`.
        static func updates(_ p: LayoutFields) throws -> [Parameters.Update] {
            guard case .array(let list)? = p.raw("updates") else {
                if p.has("updates") { throw p.error("updates", "must be an array of {index, kind, value, direction}") }
                return []
            }
            guard list.count <= LayoutLimits.maximumUpdates else {
                throw p.error("updates", "has more than \(LayoutLimits.maximumUpdates) entries")
            }
            return try list.enumerated().map { i, entry in
                let u = try LayoutFields(entry, path: "parameters.updates[\(i)]")
                let index = try u.integer("index", required: true)!
                let kind = try u.string("kind", required: true)!
                let value = try u.number("value", required: true)!
                let update: Layouts.Strip.CellUpdate
                switch kind {
                case "expand": update = .expand(value)
                case "collapse": update = .collapse(value)
                case "delete":
                    let name = try u.string("direction", required: false) ?? "left"
                    guard let d = Layouts.Strip.Direction(rawValue: name) else {
                        throw u.error("direction", "must be left or right")
                    }
                    update = .delete(value, d)
                default: throw u.error("kind", "must be expand, collapse or delete")
                }
                try u.rejectUnknown()
                return Parameters.Update(index: index, update: update)
            }
        }

        /// With an animation, the reply is its frame at the sampled progress.
        public static func answer(_ query: LayoutQuery, parameters: Parameters) throws -> [String: LayoutJSON] {
            var layout = Layouts.Strip(
                viewport: query.viewport, aspectRatios: query.ratios, parameters: parameters.layout,
                expandingRate: parameters.expandingRate ?? 1)
            for u in parameters.updates { layout.updates[u.index, default: []].append(u.update) }
            var offset = query.offset
            var animationReply: LayoutJSON?
            if let a = query.animation {
                let animation = try animation(a, in: layout, at: query.offset, expandingRate: parameters.expandingRate)
                let frame = animation.frame(
                    in: layout, progress: a.progress, offset: query.offset,
                    expandingRate: layout.expandingRate)
                var updates = layout.updates
                for (k, v) in frame.updates { updates[k, default: []].append(contentsOf: v) }
                layout.expandingRate = frame.expandingRate
                layout.updates = updates
                offset = frame.offset
                animationReply = .object([
                    "kind": .string(a.kind.rawValue), "progress": .number(a.progress),
                    "eased": .number(animation.easing(a.progress)),
                    "duration": .number(animation.duration)
                ])
            }
            var out = common(layout, query, offset: offset)
            if let animationReply { out["animation"] = animationReply }
            out["expandingRate"] = .number(layout.expandingRate)
            out["items"] = try encodedItems(layout, at: offset, query) { item in
                [
                    "expanding": .number(item.state.expanding), "collapsing": .number(item.state.collapsing),
                    "deleting": .number(item.state.deleting),
                    "deletingDirection": .string(item.state.deletingDirection.rawValue)
                ]
            }
            return out
        }

        /// The animation a request samples.
        /// - Throws: `LayoutRequestError` for an index outside the items or a delete without its phase.
        static func animation(
            _ a: LayoutQuery.Animation, in layout: Layouts.Strip, at offset: Point,
            expandingRate rate: Double?
        ) throws -> StripAnimation {
            switch a.kind {
            case .scrollBegin: return .scrollBegin(currentRate: rate ?? 1)
            case .scrollEnd: return .scrollEnd(currentRate: rate ?? 0)
            case .move:
                guard let m = StripAnimation.move(in: layout, at: offset, to: a.index ?? -1) else {
                    throw LayoutRequestError(
                        field: "animation.index", message: "must be an item index in 0..<\(layout.count)")
                }
                return m
            case .delete:
                let index = a.index ?? layout.nearestIndex(at: offset) ?? -1
                guard let phases = StripAnimation.deletion(in: layout, index: index) else {
                    throw LayoutRequestError(
                        field: "animation.index", message: "must be an item index in 0..<\(layout.count)")
                }
                guard let phase = a.phase else {
                    throw LayoutRequestError(
                        field: "animation.phase", message: "is required for delete (collapse or delete)")
                }
                return phase == .collapse ? phases.collapse : phases.delete
            }
        }

        public static func renderLayout(viewport: Size, aspectRatios: [Double]) -> AnyRenderLayout {
            AnyRenderLayout(Layouts.Strip(viewport: viewport, aspectRatios: aspectRatios), axis: .horizontal)
        }
    }
}
