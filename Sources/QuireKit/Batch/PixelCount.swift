import Foundation

/// A number of pixels from text such as `250M` (`--max-pixels`): the largest page a batch
/// decodes, checked from the file's header.
public struct PixelCount: Sendable, Hashable, CustomStringConvertible {
    /// The largest count accepted (exclusive): beyond it `Double` no longer holds every integer
    /// the suffixes make, and no image format declares so many pixels.
    public static let limit = 1e15

    /// The count, at least 1.
    public var value: Int

    /// A count of `value` pixels.
    public init(_ value: Int) { self.value = value }

    /// Parses `250000000`, `250M`, `250MP`, `1.5G` or `800K` (case-insensitive, surrounding
    /// spaces ignored); a fraction of a pixel rounds down, but never to 0.
    /// - Throws: `ValueParseError` unless the text is a positive number below `limit`.
    public init(parsing text: String) throws(ValueParseError) {
        var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
        if digits.hasSuffix("MP") { digits.removeLast() }
        var scale = 1.0
        if let last = digits.last, let s = ["K": 1e3, "M": 1e6, "G": 1e9][String(last)] {
            scale = s
            digits.removeLast()
        }
        guard let number = Double(digits), number.isFinite, number > 0, number * scale < Self.limit else {
            throw ValueParseError("must be a positive number of pixels, e.g. 250000000 or 250M")
        }
        value = max(1, Int(number * scale))
    }

    /// `250M` for a whole number of millions (K, G alike), else the plain number.
    public var description: String {
        for (suffix, unit) in [("G", 1_000_000_000), ("M", 1_000_000), ("K", 1_000)] where value % unit == 0 {
            return "\(value / unit)\(suffix)"
        }
        return String(value)
    }
}
