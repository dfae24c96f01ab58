/// Skew of a scanned page: positive = content rotated counter-clockwise as displayed.
///
/// It is what deskew needs to turn a flatbed scan back straight (clockwise by `degrees` when
/// positive) and what layout.json records as `skewDegrees`. Blank or near-blank pages carry
/// 0 degrees with a low confidence rather than a random angle.
public struct SkewEstimate: Sendable, Hashable, Codable {
    public var degrees: Double
    public var confidence: Double  // 0...1; blank pages give 0 degrees, low confidence
    /// A skew of `degrees` measured with `confidence` (0...1).
    public init(degrees: Double, confidence: Double) { self.degrees = degrees; self.confidence = confidence }

    /// "Nothing to straighten": 0 degrees, no confidence.
    public static let none = SkewEstimate(degrees: 0, confidence: 0)
}
