/// An error from libvips, carrying the operation that failed and libvips's own message.
///
/// libvips keeps a per-process error buffer; `VIPSError.take(operation:)` copies and clears it
/// under libvips's lock so that concurrent pages never read each other's messages.
public struct VIPSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bridge operation that failed, e.g. `"load"` or `"save"`.
    public var operation: String
    /// libvips's message, trimmed to its first meaningful line(s).
    public var message: String

    /// The message when libvips's (process-wide) error buffer held nothing for this failure.
    public static let unknownMessage = "unknown libvips error"

    /// A failure of libvips `operation` with libvips's own `message`.
    public init(operation: String, message: String) {
        self.operation = operation
        self.message = message
    }

    public var description: String { "\(operation): \(message)" }
}
