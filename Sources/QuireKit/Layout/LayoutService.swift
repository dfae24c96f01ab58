import Foundation
import QuireLayout

/// Answers `quire layout` requests: builds the named layout from a `LayoutRequest`, queries
/// it at the request's offset and returns the response object
/// (`Schemas/quire.layout-response-1.schema.json`).
public enum LayoutService {
    /// The response to one request document, or an error object naming the bad field.
    /// - Returns: the response and whether it is an error.
    ///   An error reply carries the request's `id` whenever the request is a JSON object with
    ///   one, so a client that pipelines requests over `--lines` can tell which one failed.
    public static func respond(toJSON data: Data, cache: LayoutCache? = nil) -> (response: LayoutJSON, isError: Bool) {
        let failure: LayoutRequestError
        do {
            return (try respond(to: LayoutRequest.parse(data), cache: cache), false)
        } catch let error as LayoutRequestError {
            failure = error
        } catch {
            failure = LayoutRequestError(field: "", message: "\(error)")
        }
        guard case .object(var reply) = failure.json else { return (failure.json, true) }
        if case .object(let request)? = try? LayoutJSON.parse(data), let id = request["id"] { reply["id"] = id }
        return (.object(reply), true)
    }

    /// The response to a parsed request.
    /// - Throws: `LayoutRequestError` for bad parameters or an unreadable `pagesFrom`.
    /// - Parameter request: the parsed request (`LayoutRequest.parse`).
    /// - Parameter cache: keeps the page list (and the pager's filled ratios) between requests
    ///   over the same pages, so a client that keeps `quire layout --lines` open pays the
    ///   linear setup once (see `LayoutCache`).
    public static func respond(to request: LayoutRequest, cache: LayoutCache? = nil) throws -> LayoutJSON {
        let resolved = try (cache ?? LayoutCache()).items(for: request)
        let ratios = resolved.ratios
        guard let viewport = request.viewport ?? resolved.viewport(request.layout) else {
            throw LayoutRequestError(field: "viewport", message: "is required")
        }
        let p = try Fields(.object(request.parameters), path: "parameters")
        var out: [String: LayoutJSON] = ["layout": .string(request.layout.rawValue)]
        if let id = request.id { out["id"] = id }
        switch request.layout {
        case .pager:
            var parameters = Layouts.Pager.Parameters()
            parameters.offsetBetweenCells = try p.number("offsetBetweenCells", required: false) ?? parameters.offsetBetweenCells
            parameters.imageParallaxFactor = try p.number("imageParallaxFactor", required: false) ?? parameters.imageParallaxFactor
            let layout = Layouts.Pager(viewport: viewport, aspectRatios: resolved.filled(viewport.width / viewport.height),
                                       parameters: parameters)
            common(layout, request, offset: request.offset, into: &out)
            out["items"] = .array(try visibleItems(layout, at: request.offset, request).map { item in
                var o = attributes(item.attributes)
                o["parallax"] = item.parallax.map { .number($0) } ?? .null
                o["mask"] = .rect(item.mask)
                o["imageTranslation"] = .number(item.imageTranslation)
                o["visibleImageRect"] = item.visibleImageRect.map { .rect($0) } ?? .null
                return .object(o)
            })
        case .strip:
            try strip(request, ratios: ratios, viewport: viewport, parameters: p, into: &out)
        case .halves:
            var parameters = Layouts.Halves.Parameters()
            parameters.pizzaSize = try p.number("pizzaSize", required: false)
            if let v = try p.number("criticalOffsetFromCenter", required: false) { parameters.criticalOffsetFromCenter = v }
            if let v = try p.number("scaleFactor", required: false) { parameters.scaleFactor = v }
            if let v = try p.number("spaceBetweenHalves", required: false) { parameters.spaceBetweenHalves = v }
            if let v = try p.number("headerHeight", required: false) { parameters.headerHeight = v }
            if let v = try p.number("headerVerticalOffset", required: false) { parameters.headerVerticalOffset = v }
            if let v = try p.number("headerTranslationFactor", required: false) { parameters.headerTranslationFactor = v }
            if let v = try p.number("layoutMargin", required: false) { parameters.layoutMargin = v }
            if let v = try p.integer("cellZIndex", required: false) { parameters.cellZIndex = v }
            if let v = try p.integer("headerZIndex", required: false) { parameters.headerZIndex = v }
            if let size = parameters.pizzaSize, size <= 0 { throw p.error("pizzaSize", "must be greater than 0") }
            var orientation = Layouts.Halves.Orientation.left
            if let name = try p.string("orientation", required: false) {
                guard let o = Layouts.Halves.Orientation(rawValue: name) else { throw p.error("orientation", "must be left or right") }
                orientation = o
            }
            let layout = Layouts.Halves(viewport: viewport, count: ratios.count, orientation: orientation, parameters: parameters)
            common(layout, request, offset: request.offset, into: &out)
            out["items"] = .array(try visibleItems(layout, at: request.offset, request).map { item in
                var o = attributes(item.attributes)
                o["role"] = .string(item.role.rawValue)
                o["normalizedDistance"] = .number(item.normalizedDistance)
                o["scale"] = .number(item.scale)
                return .object(o)
            })
            if let snap = request.snap, let s = layout.snap(proposed: snap.proposedOffset, velocity: snap.velocity, current: request.offset) {
                out["snap"] = .object(["targetOffset": .point(s.restingOffset), "index": .number(Double(s.index)),
                                       "immediateOffset": .point(s.immediateOffset), "sameCell": .bool(s.sameCell)])
            }
        case .carousel:
            var parameters = Layouts.Carousel.Parameters()
            if let v = try p.number("sideOffset", required: false) { parameters.sideOffset = v }
            if let v = try p.number("spacing", required: false) { parameters.spacing = v }
            if let v = try p.number("insetLeft", required: false) { parameters.insetLeft = v }
            if let v = try p.number("insetRight", required: false) { parameters.insetRight = v }
            if let v = try p.number("cornerRadius", required: false) { parameters.cornerRadius = v }
            let center = try p.integer("centerIndex", required: false) ?? 0
            let initial = Layouts.Carousel(viewport: viewport, count: ratios.count, centerIndex: center, parameters: parameters)
            switch initial.problem {
            case .oscillates?:
                throw LayoutRequestError(field: "parameters.insetLeft", message: "this carousel would recentre back and forth forever (banner width \(LayoutJSON.format(initial.bannerWidth)) pt is less than 3 × (2·sideOffset + insetLeft − spacing)); use smaller insets or a wider viewport")
            case .noBannerWidth?:
                throw LayoutRequestError(field: "parameters.sideOffset", message: "leaves no banner width (viewport.width − 2·sideOffset must be > 0)")
            case .notFinite?, nil: break
            }
            let (layout, offset) = initial.recentred(at: request.offset)
            common(layout, request, offset: offset, into: &out)
            out["offset"] = .point(offset)
            out["centerIndex"] = .number(Double(layout.centerIndex))
            out["items"] = .array(try visibleItems(layout, at: offset, request).map { item in
                var o = attributes(item.attributes)
                o["slot"] = .string(item.slot.rawValue)
                o["cornerRadius"] = .number(item.cornerRadius)
                return .object(o)
            })
            if let snap = request.snap, layout.count > 0 {
                // The proposal moves with the recentring, like the scroll view's deceleration.
                let proposed = Point(x: snap.proposedOffset.x + offset.x - request.offset.x, y: snap.proposedOffset.y)
                let slot = layout.targetSlot(forProposed: proposed)
                let target = layout.targetOffset(forProposed: proposed, velocity: snap.velocity)
                let settled = layout.recentred(at: target)
                out["snap"] = .object(["targetOffset": .point(target), "index": .number(Double(layout.dataIndex(of: slot))),
                                       "slot": .string(slot.rawValue), "restingOffset": .point(settled.offset),
                                       "restingCenterIndex": .number(Double(settled.carousel.centerIndex))])
            }
        case .featured:
            var parameters = Layouts.Featured.Parameters()
            if let v = try p.number("standardHeight", required: false) { parameters.standardHeight = v }
            if let v = try p.number("featuredHeight", required: false) { parameters.featuredHeight = v }
            if let v = try p.number("dragOffset", required: false) {
                guard v > 0 else { throw p.error("dragOffset", "must be greater than 0") }
                parameters.dragOffset = v
            }
            if let v = try p.number("coverAlphaMax", required: false) { parameters.coverAlphaMax = v }
            if let v = try p.number("coverAlphaMin", required: false) { parameters.coverAlphaMin = v }
            if let v = try p.number("minimumTitleScale", required: false) { parameters.minimumTitleScale = v }
            let layout = Layouts.Featured(viewport: viewport, count: ratios.count, parameters: parameters)
            common(layout, request, offset: request.offset, into: &out)
            out["items"] = .array(try visibleItems(layout, at: request.offset, request).map { item in
                var o = attributes(item.attributes)
                o["role"] = .string(item.role.rawValue)
                o["delta"] = .number(item.delta)
                o["coverAlpha"] = .number(item.coverAlpha)
                o["titleScale"] = .number(item.titleScale)
                o["detailAlpha"] = .number(item.detailAlpha)
                return .object(o)
            })
        }
        let reply = LayoutJSON.object(out)
        // The bounds on the request keep every formula finite; should one still overflow, an
        // error is honest where the writer would print 0.
        guard reply.isFinite else {
            throw LayoutRequestError(field: "", message: "the reply would hold a number that is not finite (a bug: please report the request)")
        }
        return reply
    }

    private static func strip(_ request: LayoutRequest, ratios: [Double?], viewport: Size, parameters p: Fields,
                              into out: inout [String: LayoutJSON]) throws {
        var parameters = Layouts.Strip.Parameters()
        if let v = try p.number("defaultAspectRatio", required: false) {
            guard v > 0 else { throw p.error("defaultAspectRatio", "must be greater than 0") }
            parameters.defaultAspectRatio = v
        }
        if let v = try p.number("spacing", required: false) { parameters.spacing = v }
        if let v = try p.number("focusedSpacing", required: false) { parameters.focusedSpacing = v }
        if let v = try p.number("maxAspectRatio", required: false) { parameters.maxAspectRatio = v }
        if let v = try p.number("minAspectRatio", required: false) { parameters.minAspectRatio = v }
        if let v = try p.bool("clampsAspectRatios") { parameters.clampsAspectRatios = v }
        if let v = try p.bool("deletionClosesSpacing") { parameters.deletionClosesSpacing = v }
        let rate = try p.number("expandingRate", required: false)
        var layout = Layouts.Strip(viewport: viewport, aspectRatios: ratios, parameters: parameters,
                                   expandingRate: rate ?? 1)
        if case .array(let list)? = p.raw("updates") {
            guard list.count <= LayoutLimits.maximumUpdates else {
                throw p.error("updates", "has more than \(LayoutLimits.maximumUpdates) entries")
            }
            for (i, entry) in list.enumerated() {
                let u = try Fields(entry, path: "parameters.updates[\(i)]")
                let index = try u.integer("index", required: true)!
                let kind = try u.string("kind", required: true)!
                let value = try u.number("value", required: true)!
                let update: Layouts.Strip.CellUpdate
                switch kind {
                case "expand": update = .expand(value)
                case "collapse": update = .collapse(value)
                case "delete":
                    let name = try u.string("direction", required: false) ?? "left"
                    guard let d = Layouts.Strip.Direction(rawValue: name) else { throw u.error("direction", "must be left or right") }
                    update = .delete(value, d)
                default: throw u.error("kind", "must be expand, collapse or delete")
                }
                try u.rejectUnknown()
                layout.updates[index, default: []].append(update)
            }
        } else if p.has("updates") {
            throw p.error("updates", "must be an array of {index, kind, value, direction}")
        }
        var offset = request.offset
        if let a = request.animation {
            let animation: StripAnimation
            switch a.kind {
            case .scrollBegin: animation = .scrollBegin(currentRate: rate ?? 1)
            case .scrollEnd: animation = .scrollEnd(currentRate: rate ?? 0)
            case .move:
                guard let m = StripAnimation.move(in: layout, at: request.offset, to: a.index ?? -1) else {
                    throw LayoutRequestError(field: "animation.index", message: "must be an item index in 0..<\(layout.count)")
                }
                animation = m
            case .delete:
                let index = a.index ?? layout.nearestIndex(at: request.offset) ?? -1
                guard let phases = StripAnimation.deletion(in: layout, index: index) else {
                    throw LayoutRequestError(field: "animation.index", message: "must be an item index in 0..<\(layout.count)")
                }
                guard let phase = a.phase else { throw LayoutRequestError(field: "animation.phase", message: "is required for delete (collapse or delete)") }
                animation = phase == .collapse ? phases.collapse : phases.delete
            }
            let frame = animation.frame(in: layout, progress: a.progress, offset: request.offset,
                                        expandingRate: layout.expandingRate)
            var updates = layout.updates
            for (k, v) in frame.updates { updates[k, default: []].append(contentsOf: v) }
            layout.expandingRate = frame.expandingRate
            layout.updates = updates
            offset = frame.offset
            out["animation"] = .object(["kind": .string(a.kind.rawValue), "progress": .number(a.progress),
                                        "eased": .number(animation.easing(a.progress)),
                                        "duration": .number(animation.duration)])
        }
        common(layout, request, offset: offset, into: &out)
        out["offset"] = .point(offset)
        out["expandingRate"] = .number(layout.expandingRate)
        out["items"] = .array(try visibleItems(layout, at: offset, request).map { item in
            var o = attributes(item.attributes)
            o["expanding"] = .number(item.state.expanding)
            o["collapsing"] = .number(item.state.collapsing)
            o["deleting"] = .number(item.state.deleting)
            o["deletingDirection"] = .string(item.state.deletingDirection.rawValue)
            return .object(o)
        })
    }

    /// The items of `layout` meeting the request's rect (the viewport at `offset` without one).
    /// - Throws: `LayoutRequestError` when more meet it than one reply may hold
    ///   (`LayoutLimits.maximumReplyItems`); they are not built, so a reply's memory is bounded.
    private static func visibleItems<L: CollectionLayout>(_ layout: L, at offset: Point,
                                                          _ request: LayoutRequest) throws -> [L.Item] {
        let limit = LayoutLimits.maximumReplyItems
        guard let items = layout.items(at: offset, in: request.rect, limit: limit) else {
            throw LayoutRequestError(field: request.rect == nil ? "viewport" : "rect",
                                     message: "meets more than \(limit) items, the most one reply holds; query a smaller rect")
        }
        return items
    }

    /// The fields every response has: count, content size and inset, offset, nearest index and snap.
    private static func common<L: CollectionLayout>(_ layout: L, _ request: LayoutRequest, offset: Point,
                                                    into out: inout [String: LayoutJSON]) {
        out["count"] = .number(Double(layout.count))
        out["contentSize"] = .size(layout.contentSize)
        out["contentInset"] = .insets(layout.contentInset)
        out["offset"] = .point(offset)
        out["nearestIndex"] = layout.nearestIndex(at: offset).map { .number(Double($0)) } ?? .null
        if let snap = request.snap {
            let target = layout.targetOffset(forProposed: snap.proposedOffset, velocity: snap.velocity)
            out["snap"] = .object(["targetOffset": .point(target),
                                   "index": layout.nearestIndex(at: target).map { .number(Double($0)) } ?? .null])
        }
    }

    private static func attributes(_ a: LayoutAttributes) -> [String: LayoutJSON] {
        [
            "index": .number(Double(a.index)),
            "center": .point(a.center),
            "size": .size(a.size),
            "transform": .object(["tx": .number(a.transform.tx), "ty": .number(a.transform.ty), "scale": .number(a.transform.scale)]),
            "alpha": .number(a.alpha),
            "zIndex": .number(Double(a.zIndex)),
            "frame": .rect(a.frame),
        ]
    }
}
