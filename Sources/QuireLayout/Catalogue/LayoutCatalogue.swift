/// Every layout Quire knows, one entry each: its name, its request parameters (Codable, with
/// defaults and validation), how a request builds and queries it, how its items encode, and
/// how `quire render` draws it. `quire layout`, `quire render`, the request document and the
/// tests of the schema and the viewer all read this list, so a layout's name and parameters
/// are written once (docs/architecture.md#how-to-add-a-layout).
public enum LayoutCatalogue {
    /// The entries, in the order help texts and error messages list them.
    public static var entries: [any LayoutCatalogueEntry.Type] {
        [Pager.self, Strip.self, Halves.self, Carousel.self, Featured.self]
    }

    /// The layout names, in catalogue order.
    public static var names: [LayoutName] { entries.map { $0.name } }

    /// The entry named `name`, or nil.
    public static func entry(named name: LayoutName) -> (any LayoutCatalogueEntry.Type)? {
        entries.first { $0.name == name }
    }
}

/// One layout of the catalogue. Adding a layout is one type conforming to this, in its own
/// file beside the others, listed in `LayoutCatalogue.entries`.
public protocol LayoutCatalogueEntry: Sendable {
    /// The request parameters with their defaults (`init()`), Codable for clients and tests.
    associatedtype Parameters: Codable, Sendable, Equatable

    /// The layout's name in requests, `quire render --layout` and the viewer.
    static var name: LayoutName { get }
    /// The parameters a request may give, in the order they are read and validated.
    static var parameterSpecs: [LayoutParameter] { get }
    /// Reads and validates the `parameters` object of a request (unknown names are refused
    /// before this is called).
    /// - Throws: `LayoutRequestError` naming the first bad parameter.
    static func parameters(from fields: LayoutFields) throws -> Parameters
    /// The reply's fields for `query` under `parameters`: count, content size, offset, nearest
    /// index, the items (with the layout's own values) and the snap or animation asked for.
    /// - Throws: `LayoutRequestError` for a combination the layout cannot run.
    static func answer(_ query: LayoutQuery, parameters: Parameters) throws -> [String: LayoutJSON]
    /// The picture's viewport for `quire render` (and a `pagesFrom` request) without one.
    static func defaultViewport(_ reference: LayoutReport.Viewport) -> Size
    /// The layout with default parameters as `quire render` draws it.
    static func renderLayout(viewport: Size, aspectRatios: [Double]) -> AnyRenderLayout
    /// The parameters a request without any gets.
    static var defaultParameters: Parameters { get }
    /// Whether a request may sample an animation of it (`LayoutQuery.animation`).
    static var animates: Bool { get }
}

extension LayoutCatalogueEntry {
    /// The whole reference viewport (only the strip differs).
    public static func defaultViewport(_ reference: LayoutReport.Viewport) -> Size {
        Size(width: reference.width, height: reference.height)
    }

    /// The parameter names a request may give.
    public static var parameterNames: Set<String> { Set(parameterSpecs.map(\.name)) }

    /// Only the strip animates.
    public static var animates: Bool { false }

    /// Refuses the first parameter name (in sorted order) the layout does not know.
    /// - Throws: `LayoutRequestError` naming it and listing the known ones.
    public static func checkNames(_ fields: LayoutFields) throws {
        let allowed = parameterNames
        for key in fields.object.keys.sorted() where !allowed.contains(key) {
            throw fields.error(
                key,
                "is not a parameter of the \(name.rawValue) layout (known: \(allowed.sorted().joined(separator: ", ")))"
            )
        }
    }

    /// Reads the request's `parameters` (refusing names the layout does not know) and answers.
    /// - Throws: `LayoutRequestError` naming the first bad field.
    public static func respond(to query: LayoutQuery, parameters: [String: LayoutJSON]) throws -> [String: LayoutJSON] {
        let fields = try LayoutFields(.object(parameters), path: "parameters")
        try checkNames(fields)
        return try answer(query, parameters: self.parameters(from: fields))
    }
}

/// One request parameter of a layout, as the schema and the viewer check it.
public struct LayoutParameter: Sendable, Equatable {
    /// The JSON type a parameter takes.
    public enum Kind: Sendable, Equatable {
        case number, integer, boolean
        /// One of these strings.
        case choice([String])
        /// An array of objects (the strip's `updates`).
        case list
    }

    public var name: String
    public var kind: Kind
    /// Whether the value must be greater than 0 (others take any number within the bounds).
    public var positive: Bool

    /// A parameter `name` of `kind`, greater than 0 when `positive`.
    public init(_ name: String, _ kind: Kind, positive: Bool = false) {
        self.name = name
        self.kind = kind
        self.positive = positive
    }
}

/// A layout's name: one of `LayoutCatalogue.names`. Each entry declares its own
/// (`LayoutName.pager` beside `LayoutCatalogue.Pager`); decoding refuses any other.
public struct LayoutName: RawRepresentable, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    public let rawValue: String

    /// The catalogue's name `rawValue`, or nil for a name it does not hold.
    public init?(rawValue: String) {
        guard LayoutCatalogue.entries.contains(where: { $0.name.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    /// An entry's own name (the catalogue's entries declare theirs with it).
    init(entry: String) { rawValue = entry }

    public static var allCases: [LayoutName] { LayoutCatalogue.names }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let name = LayoutName(rawValue: text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "unknown layout \"\(text)\": expected one of \(LayoutCatalogue.names.map(\.rawValue).joined(separator: ", "))"
                ))
        }
        self = name
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
}
