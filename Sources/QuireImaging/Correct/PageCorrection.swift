import VipsBridge

/// Public entry points of the correction step for callers outside QuireImaging that work with
/// files (the accuracy harness, `quire process` wiring, apps).
public enum PageCorrection {
    /// Loads one page (EXIF orientation applied, 8-bit display-ready), corrects it and saves the
    /// result to `outputPath` (format from the extension).
    /// - Parameter userQuad: corners in display pixels to use instead of detection.
    /// - Returns: what was done, with the output's pixel size.
    /// - Throws: `ImagingError` when the input cannot be read, `VIPSError` when the output cannot be written.
    @discardableResult
    public static func correctFile(
        _ source: PageSource, options: CorrectionOptions = CorrectionOptions(),
        userQuad: Quad? = nil, outputPath: String
    ) throws
        -> (record: CorrectionRecord, width: Int, height: Int)
    {
        let decoded = try PageDecoder(maxPixels: .max).decodeFrame(source, planar: true)
        if let userQuad {
            try UserCorners.check(
                userQuad, imageWidth: decoded.displayWidth, imageHeight: decoded.displayHeight, path: source.path)
        }
        let (corrected, record) = try PageCorrector(options: options).correct(decoded, userQuad: userQuad)
        try corrected.save(
            to: outputPath,
            options: .init(
                format: outputPath.lowercased().hasSuffix(".png") ? .png : .jpeg,
                quality: 90))
        return (record, corrected.width, corrected.height)
    }
}

extension PageCorrection {
    /// The estimated width / height of the page seen as `quad` in an image of the given size
    /// (from the quad's vanishing points, or its edge lengths when it shows no perspective).
    /// - Complexity: O(1).
    public static func estimatedAspectRatio(of quad: Quad, imageWidth: Int, imageHeight: Int) -> Double {
        PageShape.aspectRatio(of: quad, imageWidth: Double(imageWidth), imageHeight: Double(imageHeight))
    }
}
