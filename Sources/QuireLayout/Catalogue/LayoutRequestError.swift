import QuireGeometry

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
