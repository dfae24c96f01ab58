/// A viewport's width and height in points, from text such as `390x844` (`--viewport`).
///
/// Parsed once where the text comes in, so every command refuses the same mistakes for the
/// same reason, and a layout never sees a size that is zero, negative or not a number.
public struct ViewportSize: Sendable, Hashable, CustomStringConvertible {
    /// The largest side accepted, in points: far beyond any screen (a 16K display is 15,360
    /// pixels across), and small enough that offsets of thousands of pages stay exact.
    public static let maximumSide = 1_000_000.0

    public var width: Double
    public var height: Double

    /// A viewport of `width` by `height` points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Parses `WxH` (or `WXH`): two positive, finite numbers of points up to `maximumSide`.
    /// - Throws: `ValueParseError` saying what the text must be.
    public init(parsing text: String) throws(ValueParseError) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else {
            throw ValueParseError("must be WIDTHxHEIGHT in points, e.g. 390x844")
        }
        guard w.isFinite, h.isFinite, w > 0, h > 0 else {
            throw ValueParseError("width and height must be positive numbers of points, e.g. 390x844")
        }
        guard w <= Self.maximumSide, h <= Self.maximumSide else {
            throw ValueParseError("width and height must be at most \(Int(Self.maximumSide)) points")
        }
        self.init(width: w, height: h)
    }

    /// The viewport as a geometry size.
    public var size: Size { Size(width: width, height: height) }

    /// `390x844` (whole numbers without a fraction), as it is written on the command line.
    public var description: String {
        func text(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
        return "\(text(width))x\(text(height))"
    }
}
