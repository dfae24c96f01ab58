import Foundation
import QuireLayout

/// A bad `quire layout` request: the field at fault (dotted path, e.g. `viewport.width`)
/// and what is wrong with it.
public struct LayoutRequestError: Error, Equatable, CustomStringConvertible, Sendable {
    public var field: String
    public var message: String

    /// An error at `field` (a dotted path) with its reason.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { field.isEmpty ? message : "field `\(field)`: \(message)" }

    /// The error as a response object `{"error": {"field", "message"}}`.
    public var json: LayoutJSON {
        .object(["error": .object(["field": .string(field), "message": .string(message)])])
    }
}

/// One `quire layout` request (schema `Schemas/quire.layout-request-1.schema.json`): which
/// layout, the viewport, the items, the offset, and optional parameters, query rect, snap
/// and animation. Parsing validates every field and names the first bad one.
public struct LayoutRequest: Equatable, Sendable {
    /// The five layouts (docs/layout-formulas.md).
    public enum Kind: String, CaseIterable, Sendable { case pager, strip, halves, carousel, featured }

    /// Where the items come from.
    public enum Items: Equatable, Sendable {
        /// Page aspect ratios (width/height); null entries take the layout's default.
        case aspectRatios([Double?])
        /// Just a count (pager pages then fill their cell; strip cells use the default ratio).
        case count(Int)
        /// The pages of an `OUT/layout.json`, by its path.
        case pagesFrom(String)
    }

    /// A snapping question: where does scrolling that would end at `proposedOffset` rest?
    public struct Snap: Equatable, Sendable {
        public var proposedOffset: Point
        public var velocity: Point
    }

    /// A strip animation sampled at one `progress`.
    public struct Animation: Equatable, Sendable {
        /// Which animation: tap-to-move, delete, or the start or end of a scroll.
        public enum Kind: String, CaseIterable, Sendable { case move, delete, scrollBegin, scrollEnd }
        /// The phase of a delete animation: the cell collapsing, or the cell leaving.
        public enum Phase: String, CaseIterable, Sendable { case collapse, delete }
        public var kind: Kind
        public var index: Int?
        public var phase: Phase?
        public var progress: Double
    }

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

    /// The parameter names each layout accepts (the defaults in docs/layout-formulas.md, plus the state inputs).
    public static let parameterNames: [Kind: Set<String>] = [
        .pager: ["offsetBetweenCells", "imageParallaxFactor"],
        .strip: ["defaultAspectRatio", "spacing", "focusedSpacing", "maxAspectRatio", "minAspectRatio",
                 "clampsAspectRatios", "deletionClosesSpacing", "expandingRate", "updates"],
        .halves: ["orientation", "pizzaSize", "criticalOffsetFromCenter", "scaleFactor", "spaceBetweenHalves",
                  "headerHeight", "headerVerticalOffset", "headerTranslationFactor", "layoutMargin",
                  "cellZIndex", "headerZIndex"],
        .carousel: ["centerIndex", "sideOffset", "spacing", "insetLeft", "insetRight", "cornerRadius"],
        .featured: ["standardHeight", "featuredHeight", "dragOffset", "coverAlphaMax", "coverAlphaMin",
                    "minimumTitleScale"],
    ]

    /// Parses and validates one request document.
    /// - Throws: `LayoutRequestError` naming the first bad field.
    public static func parse(_ data: Data) throws -> LayoutRequest {
        guard data.count <= LayoutLimits.maximumRequestBytes else {
            throw LayoutRequestError(field: "", message: "the request is longer than \(LayoutLimits.maximumRequestBytes) bytes, the limit")
        }
        let value: LayoutJSON
        do {
            value = try LayoutJSON.parse(data)
        } catch {
            throw LayoutRequestError(field: "", message: "the request is not valid JSON")
        }
        return try LayoutRequest(json: value)
    }

    /// Reads a request from parsed JSON, checking every field.
    /// - Throws: `LayoutRequestError` naming the first field at fault.
    public init(json: LayoutJSON) throws {
        let root = try Fields(json, path: "")
        id = root.raw("id")
        let name = try root.string("layout", required: true)!
        guard let kind = Kind(rawValue: name) else {
            throw LayoutRequestError(field: "layout", message: "must be one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(name)\"")
        }
        layout = kind
        viewport = try root.object("viewport").map { v in
            let size = Size(width: try v.number("width", required: true)!, height: try v.number("height", required: true)!)
            let side = LayoutLimits.maximumViewportSide
            guard size.width > 0 else { throw v.error("width", "must be greater than 0") }
            guard size.height > 0 else { throw v.error("height", "must be greater than 0") }
            guard size.width <= side else { throw v.error("width", "must be at most \(Int(side))") }
            guard size.height <= side else { throw v.error("height", "must be at most \(Int(side))") }
            try v.rejectUnknown()
            return size
        }
        let sources = ["aspectRatios", "count", "pagesFrom"].filter { root.has($0) }
        for key in ["aspectRatios", "count", "pagesFrom"] { _ = root.raw(key) }
        guard sources.count == 1 else {
            throw LayoutRequestError(field: sources.count > 1 ? sources[1] : "aspectRatios",
                                     message: "give exactly one of aspectRatios, count or pagesFrom")
        }
        switch sources[0] {
        case "aspectRatios":
            guard case .array(let values)? = root.raw("aspectRatios") else {
                throw root.error("aspectRatios", "must be an array of numbers")
            }
            guard values.count <= Self.maximumCount else { throw root.error("aspectRatios", "has more than \(Self.maximumCount) entries") }
            items = .aspectRatios(try values.enumerated().map { i, v in
                switch v {
                case .null: return nil
                case .number(let r) where LayoutLimits.aspectRatioRange.contains(r): return r
                default: throw LayoutRequestError(field: "aspectRatios[\(i)]", message: "must be a number in \(LayoutLimits.aspectRatioText) or null")
                }
            })
        case "count":
            let n = try root.integer("count", required: true)!
            guard n >= 0, n <= Self.maximumCount else { throw root.error("count", "must be in 0...\(Self.maximumCount)") }
            items = .count(n)
        default:
            let path = try root.string("pagesFrom", required: true)!
            guard !path.isEmpty else { throw root.error("pagesFrom", "must be a path to an OUT/layout.json") }
            items = .pagesFrom(path)
        }
        if viewport == nil, case .pagesFrom = items {} else if viewport == nil {
            throw LayoutRequestError(field: "viewport", message: "is required (width and height in points)")
        }
        offset = try root.object("offset").map { try $0.point() } ?? .zero
        rect = try root.object("rect").map { r in
            let rect = Rect(x: try r.number("x", required: true)!, y: try r.number("y", required: true)!,
                            width: try r.number("width", required: true)!, height: try r.number("height", required: true)!)
            guard rect.width >= 0 else { throw r.error("width", "must not be negative") }
            guard rect.height >= 0 else { throw r.error("height", "must not be negative") }
            try r.rejectUnknown()
            return rect
        }
        if let p = try root.object("parameters") {
            let allowed = Self.parameterNames[kind]!
            for key in p.object.keys.sorted() where !allowed.contains(key) {
                throw p.error(key, "is not a parameter of the \(kind.rawValue) layout (known: \(allowed.sorted().joined(separator: ", ")))")
            }
            parameters = p.object
        } else {
            parameters = [:]
        }
        snap = try root.object("snap").map { s in
            guard let proposed = try s.object("proposedOffset") else { throw s.error("proposedOffset", "is required") }
            let snap = Snap(proposedOffset: try proposed.point(), velocity: try s.object("velocity").map { try $0.point() } ?? .zero)
            try s.rejectUnknown()
            return snap
        }
        animation = try root.object("animation").map { a in
            let kindName = try a.string("kind", required: true)!
            guard let k = Animation.Kind(rawValue: kindName) else {
                throw a.error("kind", "must be one of \(Animation.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let progress = try a.number("progress", required: true)!
            guard progress >= 0, progress <= 1 else { throw a.error("progress", "must be in [0, 1]") }
            let phase = try a.string("phase", required: false).map { name in
                guard let p = Animation.Phase(rawValue: name) else { throw a.error("phase", "must be collapse or delete") }
                return p
            }
            let animation = Animation(kind: k, index: try a.integer("index", required: k == .move), phase: phase, progress: progress)
            try a.rejectUnknown()
            return animation
        }
        if animation != nil, kind != .strip {
            throw LayoutRequestError(field: "animation", message: "only the strip layout animates")
        }
        try root.rejectUnknown()
    }
}

/// A JSON object being read field by field: typed getters that name the field on error, and a
/// check that no unknown key was left over (catches typos such as `viewPort`).
struct Fields {
    let object: [String: LayoutJSON]
    let path: String
    private let seen: Box

    final class Box { var keys: Set<String> = [] }

    init(_ value: LayoutJSON, path: String) throws {
        guard case .object(let o) = value else {
            throw LayoutRequestError(field: path, message: path.isEmpty ? "the request must be a JSON object" : "must be an object")
        }
        object = o
        self.path = path
        seen = Box()
    }

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    func error(_ key: String, _ message: String) -> LayoutRequestError { LayoutRequestError(field: name(key), message: message) }
    func has(_ key: String) -> Bool { object[key] != nil && object[key] != .null }

    func raw(_ key: String) -> LayoutJSON? {
        seen.keys.insert(key)
        guard let v = object[key], v != .null else { return nil }
        return v
    }

    /// The number at `key`, which must lie within ±`LayoutLimits.maximumMagnitude` (so no
    /// formula downstream can overflow to infinity).
    func number(_ key: String, required: Bool) throws -> Double? {
        guard let v = raw(key) else {
            if required { throw error(key, "is required") }
            return nil
        }
        guard case .number(let d) = v, d.isFinite else { throw error(key, "must be a finite number") }
        guard abs(d) <= LayoutLimits.maximumMagnitude else { throw error(key, "must be a number in \(LayoutLimits.magnitudeText)") }
        return d
    }

    func integer(_ key: String, required: Bool) throws -> Int? {
        guard let d = try number(key, required: required) else { return nil }
        guard d == d.rounded(), abs(d) <= 9e15 else { throw error(key, "must be an integer") }
        return Int(d)
    }

    func string(_ key: String, required: Bool) throws -> String? {
        guard let v = raw(key) else {
            if required { throw error(key, "is required") }
            return nil
        }
        guard case .string(let s) = v else { throw error(key, "must be a string") }
        return s
    }

    func bool(_ key: String) throws -> Bool? {
        guard let v = raw(key) else { return nil }
        guard case .bool(let b) = v else { throw error(key, "must be true or false") }
        return b
    }

    func object(_ key: String) throws -> Fields? {
        guard let v = raw(key) else { return nil }
        return try Fields(v, path: name(key))
    }

    func point() throws -> Point {
        let p = Point(x: try number("x", required: true)!, y: try number("y", required: true)!)
        try rejectUnknown()
        return p
    }

    func rejectUnknown() throws {
        for key in object.keys.sorted() where !seen.keys.contains(key) {
            throw error(key, "is not a known field")
        }
    }
}
