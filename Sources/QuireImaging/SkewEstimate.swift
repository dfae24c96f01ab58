import VipsBridge

/// Skew of a scanned page: positive = content rotated counter-clockwise as displayed.
///
/// It is what deskew needs to turn a flatbed scan back straight (clockwise by `degrees` when
/// positive) and what layout.json records as `skewDegrees`. Blank or near-blank pages carry
/// 0 degrees with a low confidence rather than a random angle.
public struct SkewEstimate: Sendable, Hashable, Codable {
    public var degrees: Double
    public var confidence: Double   // 0...1; blank pages give 0 degrees, low confidence
    public init(degrees: Double, confidence: Double) { self.degrees = degrees; self.confidence = confidence }
}

extension SkewEstimate {
    /// "Nothing to straighten": 0 degrees, no confidence.
    public static let none = SkewEstimate(degrees: 0, confidence: 0)

    /// Estimates the skew of a decoded, display-oriented page (any size, colour or grey).
    ///
    /// It makes the small grey copy ``ScanDeskew/estimateSkew(gray:width:height:)`` works on
    /// (about 1000 px on the long side), so callers holding a full-size image need nothing else.
    /// - Throws: `VIPSError` when the pixels cannot be computed.
    public static func estimate(page image: VIPSImage) throws -> SkewEstimate {
        let small = try ScanDeskew.smallGray(image, longSide: ScanDeskew.analysisLongSide)
        return ScanDeskew.estimateSkew(gray: small.gray, width: small.width, height: small.height)
    }
}

extension SkewEstimate {
    /// Estimates the skew from a small 8-bit grey copy (row-major, `width * height` bytes),
    /// about 1000 px on the long side; see ``ScanDeskew/estimateSkew(gray:width:height:)``.
    public static func estimate(gray: [UInt8], width: Int, height: Int) -> SkewEstimate {
        ScanDeskew.estimateSkew(gray: gray, width: width, height: height)
    }

    /// The small grey copy skew estimation works on, made from any decoded page.
    /// - Throws: `VIPSError` when the pixels cannot be computed.
    public static func analysisCopy(of image: VIPSImage) throws -> (gray: [UInt8], width: Int, height: Int) {
        try ScanDeskew.smallGray(image, longSide: ScanDeskew.analysisLongSide)
    }
}
