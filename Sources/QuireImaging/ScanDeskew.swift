import VipsBridge

// Minimal stand-in with the agreed API: the deskew branch owns the real implementation of this
// file, which replaces this one at merge. It measures nothing (0 degrees, no confidence) and
// leaves the page untouched.

/// Skew of a scanned page: positive = content rotated counter-clockwise as displayed.
public struct SkewEstimate: Sendable, Hashable, Codable {
    public var degrees: Double
    public var confidence: Double   // 0...1; blank pages give 0 degrees, low confidence
    public init(degrees: Double, confidence: Double) { self.degrees = degrees; self.confidence = confidence }
}

enum ScanDeskew {
    /// Estimates the skew of a scan from a small (about 1000 px long side) 8-bit grey copy.
    static func estimateSkew(gray: [UInt8], width: Int, height: Int) -> SkewEstimate {
        SkewEstimate(degrees: 0, confidence: 0)
    }

    /// Rotates the full-size page straight (clockwise by `skew.degrees` when positive) and trims the
    /// scanner background around the page; `crop` is in pixels of the rotated image, nil if untrimmed.
    static func deskewAndTrim(_ image: VIPSImage, skew: SkewEstimate) throws -> (image: VIPSImage, crop: Rect?) {
        (image, nil)
    }
}
