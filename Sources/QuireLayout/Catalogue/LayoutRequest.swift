import QuireGeometry

/// One `quire layout` request (schema `Schemas/quire.layout-request-1.schema.json`): which
/// layout, the viewport, the items, the offset, and optional parameters, query rect, snap
/// and animation. Parsing validates every field and names the first bad one.
public struct LayoutRequest: Equatable, Sendable {
    /// A layout name from `LayoutCatalogue`.
    public typealias Kind = LayoutName

    /// Where the items come from.
    public enum Items: Equatable, Sendable {
        /// Page aspect ratios (width/height); null entries take the layout's default.
        case aspectRatios([Double?])
        /// Just a count (pager pages then fill their cell; strip cells use the default ratio).
        case count(Int)
        /// The pages of an `OUT/layout.json`, by its path.
        case pagesFrom(String)
    }

    /// A snapping question (`LayoutQuery.Snap`).
    public typealias Snap = LayoutQuery.Snap
    /// A strip animation sampled at one progress (`LayoutQuery.Animation`).
    public typealias Animation = LayoutQuery.Animation

    public var id: LayoutJSON?
    public var layout: Kind
    public var viewport: Size?
    public var items: Items
    public var offset: Point
    public var rect: Rect?
    /// Raw parameter values by name, validated against the layout's known names.
    public var parameters: [String: LayoutJSON]
    public var snap: Snap?
    public var animation: Animation?

    /// The largest item count a request may ask for (`LayoutLimits.maximumItemCount`).
    public static let maximumCount = LayoutLimits.maximumItemCount

    /// The parameter names each layout accepts (`LayoutCatalogueEntry.parameterSpecs`).
    public static var parameterNames: [Kind: Set<String>] {
        Dictionary(uniqueKeysWithValues: LayoutCatalogue.entries.map { ($0.name, $0.parameterNames) })
    }

    /// The catalogue entry of the request's layout.
    public var entry: any LayoutCatalogueEntry.Type { LayoutCatalogue.entry(named: layout)! }

    /// Validates a typed request document, as `quire layout` validates its JSON: the document
    /// and the JSON request are one model, read by one parser.
    /// - Throws: `LayoutRequestError` naming the first field at fault.
    public init(_ document: LayoutRequestDocument) throws {
        try self.init(json: document.json)
    }

    /// Reads a request from parsed JSON, checking every field.
    /// - Throws: `LayoutRequestError` naming the first field at fault.
    public init(json: LayoutJSON) throws {
        let root = try LayoutFields(json, path: "")
        id = root.raw("id")
        let name = try root.string("layout", required: true)!
        guard let kind = Kind(rawValue: name) else {
            throw LayoutRequestError(
                field: "layout",
                message: "must be one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(name)\"")
        }
        layout = kind
        viewport = try root.object("viewport").map(Self.viewport)
        items = try Self.items(root)
        if viewport == nil, case .pagesFrom = items {
        } else if viewport == nil {
            throw LayoutRequestError(field: "viewport", message: "is required (width and height in points)")
        }
        offset = try root.object("offset").map { try $0.point() } ?? .zero
        rect = try root.object("rect").map(Self.rect)
        if let p = try root.object("parameters") {
            try LayoutCatalogue.entry(named: kind)!.checkNames(p)
            parameters = p.object
        } else {
            parameters = [:]
        }
        snap = try root.object("snap").map(Self.snap)
        animation = try root.object("animation").map(Self.animation)
        if animation != nil, !LayoutCatalogue.entry(named: kind)!.animates {
            throw LayoutRequestError(field: "animation", message: "only the strip layout animates")
        }
        try root.rejectUnknown()
    }

    /// The `viewport` object: both sides positive and at most `LayoutLimits.maximumViewportSide`.
    private static func viewport(_ v: LayoutFields) throws -> Size {
        let size = Size(
            width: try v.number("width", required: true)!, height: try v.number("height", required: true)!)
        let side = LayoutLimits.maximumViewportSide
        guard size.width > 0 else { throw v.error("width", "must be greater than 0") }
        guard size.height > 0 else { throw v.error("height", "must be greater than 0") }
        guard size.width <= side else { throw v.error("width", "must be at most \(Int(side))") }
        guard size.height <= side else { throw v.error("height", "must be at most \(Int(side))") }
        try v.rejectUnknown()
        return size
    }

    /// The items: exactly one of `aspectRatios`, `count` or `pagesFrom`, each range-checked.
    private static func items(_ root: LayoutFields) throws -> Items {
        let sources = ["aspectRatios", "count", "pagesFrom"].filter { root.has($0) }
        for key in ["aspectRatios", "count", "pagesFrom"] { _ = root.raw(key) }
        guard sources.count == 1 else {
            throw LayoutRequestError(
                field: sources.count > 1 ? sources[1] : "aspectRatios",
                message: "give exactly one of aspectRatios, count or pagesFrom")
        }
        switch sources[0] {
        case "aspectRatios":
            guard case .array(let values)? = root.raw("aspectRatios") else {
                throw root.error("aspectRatios", "must be an array of numbers")
            }
            guard values.count <= Self.maximumCount else {
                throw root.error("aspectRatios", "has more than \(Self.maximumCount) entries")
            }
            return .aspectRatios(
                try values.enumerated().map { i, v in
                    switch v {
                    case .null: return nil
                    case .number(let r) where LayoutLimits.aspectRatioRange.contains(r): return r
                    default:
                        throw LayoutRequestError(
                            field: "aspectRatios[\(i)]",
                            message: "must be a number in \(LayoutLimits.aspectRatioText) or null")
                    }
                })
        case "count":
            let n = try root.integer("count", required: true)!
            guard n >= 0, n <= Self.maximumCount else {
                throw root.error("count", "must be in 0...\(Self.maximumCount)")
            }
            return .count(n)
        default:
            let path = try root.string("pagesFrom", required: true)!
            guard !path.isEmpty else { throw root.error("pagesFrom", "must be a path to an OUT/layout.json") }
            return .pagesFrom(path)
        }
    }

    /// The `rect` object: a rectangle with no negative side.
    private static func rect(_ r: LayoutFields) throws -> Rect {
        let rect = Rect(
            x: try r.number("x", required: true)!, y: try r.number("y", required: true)!,
            width: try r.number("width", required: true)!, height: try r.number("height", required: true)!)
        guard rect.width >= 0 else { throw r.error("width", "must not be negative") }
        guard rect.height >= 0 else { throw r.error("height", "must not be negative") }
        try r.rejectUnknown()
        return rect
    }

    /// The `snap` object: the proposed offset (required) and the velocity.
    private static func snap(_ s: LayoutFields) throws -> Snap {
        guard let proposed = try s.object("proposedOffset") else { throw s.error("proposedOffset", "is required") }
        let snap = Snap(
            proposedOffset: try proposed.point(), velocity: try s.object("velocity").map { try $0.point() } ?? .zero
        )
        try s.rejectUnknown()
        return snap
    }

    /// The `animation` object: a known kind, progress in [0, 1], the index a move needs.
    private static func animation(_ a: LayoutFields) throws -> Animation {
        let kindName = try a.string("kind", required: true)!
        guard let k = Animation.Kind(rawValue: kindName) else {
            throw a.error(
                "kind", "must be one of \(Animation.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let progress = try a.number("progress", required: true)!
        guard progress >= 0, progress <= 1 else { throw a.error("progress", "must be in [0, 1]") }
        let phase = try a.string("phase", required: false).map { name in
            guard let p = Animation.Phase(rawValue: name) else {
                throw a.error("phase", "must be collapse or delete")
            }
            return p
        }
        let animation = Animation(
            kind: k, index: try a.integer("index", required: k == .move), phase: phase, progress: progress)
        try a.rejectUnknown()
        return animation
    }
}
