import QuireGeometry

extension LayoutRequestDocument {
    /// The document as the JSON object it encodes to (absent fields left out), so that
    /// `LayoutRequest(_:)` validates it with the same parser as a request read from text.
    public var json: LayoutJSON {
        var o: [String: LayoutJSON] = ["layout": .string(layout.rawValue)]
        o["id"] = id
        o["viewport"] = viewport.map { .size($0) }
        o["aspectRatios"] = aspectRatios.map { .array($0.map { $0.map(LayoutJSON.number) ?? .null }) }
        o["count"] = count.map { .number(Double($0)) }
        o["pagesFrom"] = pagesFrom.map(LayoutJSON.string)
        o["offset"] = offset.map { .point($0) }
        o["rect"] = rect.map {
            .object(["x": .number($0.x), "y": .number($0.y), "width": .number($0.width), "height": .number($0.height)])
        }
        o["parameters"] = parameters.map(LayoutJSON.object)
        o["snap"] = snap.map { snap in
            var s: [String: LayoutJSON] = ["proposedOffset": .point(snap.proposedOffset)]
            s["velocity"] = snap.velocity.map { .point($0) }
            return .object(s)
        }
        o["animation"] = animation.map { a in
            var s: [String: LayoutJSON] = ["kind": .string(a.kind.rawValue), "progress": .number(a.progress)]
            s["index"] = a.index.map { .number(Double($0)) }
            s["phase"] = a.phase.map { .string($0.rawValue) }
            return .object(s)
        }
        return .object(o)
    }
}
