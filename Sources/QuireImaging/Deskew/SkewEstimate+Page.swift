import VipsBridge

extension SkewEstimate {
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

extension VIPSImage {
    /// This scan rotated straight and trimmed to the page (see `ScanDeskew.deskewAndTrim`),
    /// for callers outside the pipeline such as the accuracy scorer.
    /// - Returns: the straightened page and the crop applied, in pixels of the rotated image.
    public func deskewedAndTrimmed(skew: SkewEstimate) throws -> (image: VIPSImage, crop: Rect?) {
        try ScanDeskew.deskewAndTrim(self, skew: skew)
    }
}
