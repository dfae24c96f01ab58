import Foundation

/// The one place Quire's JSON encoders are configured. Every JSON Quire writes is deterministic
/// (keys sorted), so a rerun writes the same bytes and a diff shows what changed.
public enum JSONOutput {
    /// How a value is laid out.
    public enum Style: Sendable {
        /// Files people and programs read (layout.json, strip and IIIF files, the shard record):
        /// pretty-printed, `/` unescaped, with a trailing newline.
        case document
        /// One JSON value per line (`--progress json` events, resume manifest records): compact,
        /// `/` unescaped, no newline (the writer adds it).
        case line
        /// The inputs of content hashes and stamps (the options that shaped a page, a PDF's
        /// stamp): compact with `/` escaped as `\/`, exactly as the first recorded hashes were
        /// made, so that an upgrade does not redo every page of every batch.
        case hashInput
    }

    /// An encoder configured for `style`.
    public static func encoder(_ style: Style) -> JSONEncoder {
        let encoder = JSONEncoder()
        switch style {
        case .document: encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        case .line: encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        case .hashInput: encoder.outputFormatting = [.sortedKeys]
        }
        return encoder
    }

    /// `value` encoded in `style` (a `.document` ends with a newline).
    public static func encode<T: Encodable>(_ value: T, _ style: Style) throws -> Data {
        var data = try encoder(style).encode(value)
        if style == .document { data.append(0x0A) }
        return data
    }
}
