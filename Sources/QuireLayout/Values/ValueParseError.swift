/// Why a value given as text (a command-line option, a field of a request) was refused: the
/// reason alone, so the caller can put it after the option's name and the text it got.
public struct ValueParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the value must be, e.g. `must be WIDTHxHEIGHT in points, e.g. 390x844`.
    public var reason: String

    /// A refusal for `reason`.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
