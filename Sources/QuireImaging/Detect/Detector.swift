import VipsBridge

/// The outcome of `quire detect` for one page: its display size and either a page quad (photos),
/// a skew angle (scans), or an error.
public struct DetectionResult: Sendable, Hashable, Codable {
    /// What the page was taken for; the correction step of `quire process` decides the same.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A photo with a page quad: warped upright.
        case photo
        /// A scan (on a lid, or filling the frame with confident text lines): deskewed.
        case scan
        /// Neither: written as it is.
        case none
    }
    /// The input path as given.
    public var source: String
    /// The page inside a multi-page file, from 0.
    public var page: Int
    /// Display size in pixels (EXIF orientation applied).
    public var width: Int
    public var height: Int
    /// The page quad in display pixels (TL, TR, BR, BL), or nil.
    public var quad: Quad?
    /// How sure the detector is about `quad`, 0...1.
    public var confidence: Double
    /// The skew of a page that looks like a flatbed scan, in degrees (positive = content turned
    /// counter-clockwise), or nil for photos.
    public var skewDegrees: Double?
    /// What the page was taken for (nil when the input could not be read).
    public var kind: Kind?
    /// Why the input could not be read, or nil.
    public var error: String?
    /// The stable code of that failure (`ImagingError.Kind.code`), or nil.
    public var errorCode: String?
    /// Milliseconds spent in detection proper (after decoding the small copy).
    public var detectionMilliseconds: Double?
    /// The clockwise quarter turn `quire process` applies so the text reads upright (to a scan
    /// after deskewing it; to a page left as it is before its analysis is made again), and the
    /// detector's confidence (nil when it was not asked or could not tell).
    public var rotation: Int = 0
    public var rotationConfidence: Double?

    /// A detection result for page `page` of `source`; the quad or the skew is nil when not measured.
    public init(
        source: String, page: Int = 0, width: Int = 0, height: Int = 0, quad: Quad? = nil,
        confidence: Double = 0, skewDegrees: Double? = nil, kind: Kind? = nil, error: String? = nil,
        errorCode: String? = nil, detectionMilliseconds: Double? = nil
    ) {
        self.kind = kind
        self.source = source
        self.page = page
        self.width = width
        self.height = height
        self.quad = quad
        self.confidence = confidence
        self.skewDegrees = skewDegrees
        self.error = error
        self.errorCode = errorCode
        self.detectionMilliseconds = detectionMilliseconds
    }
}

/// Finds the page in image files without correcting them: the engine behind `quire detect`,
/// the accuracy harness and the tests.
public enum Detector {
    /// Detects the page in one page of a file, as `quire process` and `quire detect` do: the
    /// whole page is decoded (EXIF orientation applied), its detection copy of about 1000 px
    /// averaged from it and a photo's corners refined on it; the result is in display pixels of
    /// the full page.
    /// - Throws: `VIPSError` or `ImagingError` when the file cannot be opened or decoded.
    /// - Parameter fullResolution: false decodes only a shrink-on-load copy (JPEG DCT scaling,
    ///   small PDF rendering) and analyses that: several times faster on large photos, but its
    ///   pixels differ from the pipeline's, so a borderline photo may come out otherwise (on the
    ///   real-photo set mean IoU 0.938 against 0.944).
    /// - Parameter orientation: asks which way up scans and uncorrected pages are, as
    ///   `quire process` does (nil: pages are taken as they are).
    /// - Parameter verifier: the fitted verifier that chooses the page among every generator's
    ///   candidates (nil: the hand-set rules), as `make accuracy` refits it per source.
    /// - Parameter maxPixels: pages with more pixels are refused from the header (`tooLarge`)
    ///   before any pixel is decoded, as `quire process --max-pixels` does.
    public static func detect(
        file path: String, page: Int = 0, dpi: Double = 200,
        fullResolution: Bool = true, maxPixels: Int = .max,
        orientation: (any OrientationDetector)? = nil, verifier: PageVerifier? = nil
    ) throws -> DetectionResult {
        let source = PageSource(path: path, page: page, dpi: dpi)
        // The checks `quire process` makes from the header (kind of file, size, page size),
        // before anything is decoded (`decodeFrame` makes them itself).
        if !fullResolution { _ = try PageDecoder(maxPixels: maxPixels).decode(source) }
        // Full resolution: exactly what the correction step sees (one decode, the copy averaged
        // from it, corners refined on it). Otherwise only a shrink-on-load copy is decoded.
        let decoded = fullResolution ? try profiledDecode(source, maxPixels: maxPixels) : nil
        let width: Int, height: Int
        let copy: DetectionCopy
        if let decoded {
            (width, height) = (decoded.displayWidth, decoded.displayHeight)
            copy = StageProfile.measure("d2 detection copy") { decoded.detectionCopy() }
        } else {
            let header = try VIPSImage.load(
                file: path,
                options: .init(
                    page: page > 0 ? page : nil,
                    dpi: isVector(path) ? dpi : nil))
            let swap = header.orientation >= 5
            (width, height) = swap ? (header.height, header.width) : (header.width, header.height)
            copy = try DetectionCopy(source: source, displayWidth: width, displayHeight: height)
        }
        let detector = PageDetector(verifier: verifier)
        let clock = ContinuousClock()
        var analysis: PageAnalysis!
        let elapsed = clock.measure {
            analysis = StageProfile.measure("d3 analyse") { PageAnalyzer.analyze(copy, detector: detector) }
        }
        let ms = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        // As `PageCorrector`: a scan is asked which way up it is once straightened; a page left
        // as it is is asked as it is, and when confidently turned, analysed again.
        var rotation = 0
        var rotationConfidence: Double?
        // The frame the analysis was made on: a page left as it is and then turned upright is
        // analysed, and its quad refined, on the turned frame, as `quire process` does.
        var analysed = decoded
        var analysedTurns = 0  // quarter turns from the source to `analysed`
        if let orientation, !(analysis.kind == .photo && analysis.detection.quad != nil) {
            let upright =
                try decoded?.uprightImage()
                ?? VIPSImage.load(
                    file: path, options: .init(page: page > 0 ? page : nil, dpi: isVector(path) ? dpi : nil)
                ).autorotated()
            let scan = analysis.kind == .scan
            // Asked of the very image `quire process` asks about: the scan as it is written.
            // The trim reuses the detection copy as `quire process` does, when it is the same copy
            // (averaged from the full decode); a shrink-on-load copy's pixels differ from it.
            let trimCopy = decoded == nil ? nil : copy
            let asked = scan ? try PageCorrector.straightenedScan(upright, as: analysis, copy: trimCopy).image : upright
            if let guess = try? (scan ? orientation.guessScan(asked) : orientation.guess(asked)) {
                rotationConfidence = guess.confidence
                if OrientationPolicy.turns(guess) {
                    rotation = guess.rotate
                    if !scan {
                        let turned = try DecodedFrame(upright: try upright.rotated(quarterTurns: guess.rotate / 90))
                        analysis = PageAnalyzer.analyze(turned.detectionCopy(), detector: detector)
                        (analysed, analysedTurns) = (turned, guess.rotate / 90)
                    }
                }
            }
        }
        var result = try StageProfile.measure("d4 refine") {
            try Self.result(
                of: analysis, decoded: analysed, path: path, page: page, width: width, height: height, ms: ms)
        }
        result.rotation = rotation
        result.rotationConfidence = rotationConfidence
        // A photo's page is asked once straightened, when its lines run up or down, as
        // `quire process` does (on the page's preview); the quad then names the page's own corners.
        if let orientation, result.kind == .photo, let quad = result.quad {
            let frame =
                try analysed
                ?? DecodedFrame(
                    upright: VIPSImage.load(
                        file: path, options: .init(page: page > 0 ? page : nil, dpi: isVector(path) ? dpi : nil)
                    ).autorotated())
            let corrector = PageCorrector(options: CorrectionOptions(), orientation: .some(orientation))
            let straight = try corrector.correct(frame, userQuad: quad)
            var record = straight.record
            (record.quad, record.rotation) = (quad, rotation)
            let pipeline = PagePipeline()
            let preview = try pipeline.shrink(straight.image.inMemory(), inside: pipeline.renditions.previewSize)
            let upright = try corrector.turnedUpright(straight.image, preview: preview, record: record).record
            (result.quad, result.rotation, result.rotationConfidence) = (
                upright.quad, upright.rotation, upright.rotationConfidence
            )
        }
        // Found on the turned frame: reported in the source's, as `quire process` does.
        result.quad = result.quad?.unturned(
            quarterTurns: analysedTurns, sourceWidth: Double(width), sourceHeight: Double(height))
        return result
    }

    /// The full decode, the detection copy averaged inside it. `QUIRE_PROFILE=1` reports it
    /// as stage "d1 decode", beside "d2 detection copy", "d3 analyse" and "d4 refine": what
    /// detection costs without the decode.
    private static func profiledDecode(_ source: PageSource, maxPixels: Int) throws -> DecodedFrame {
        try StageProfile.measure("d1 decode") {
            try PageDecoder(maxPixels: maxPixels).decodeFrame(source, planar: true, averaging: true)
        }
    }

    /// The result of one analysis (refining a photo's corners on `decoded` when given).
    private static func result(
        of analysis: PageAnalysis, decoded: DecodedFrame?, path: String, page: Int,
        width: Int, height: Int, ms: Double
    ) throws -> DetectionResult {
        switch analysis.kind {
        case .photo:
            var quad = analysis.detection.quad
            if let decoded, let q = quad, analysis.copyScale > 1.2 {
                quad = decoded.orientation.display(
                    decoded.refined(
                        decoded.orientation.stored(q), insideBrighter: analysis.insideBrighter,
                        searchRadius: analysis.copyScale + 2))
            }
            return DetectionResult(
                source: path, page: page, width: width, height: height,
                quad: quad, confidence: analysis.detection.confidence, kind: .photo,
                detectionMilliseconds: ms)
        case .scan:
            return DetectionResult(
                source: path, page: page, width: width, height: height, quad: nil,
                confidence: analysis.skew?.confidence ?? 0,
                skewDegrees: analysis.skew?.degrees ?? 0, kind: .scan, detectionMilliseconds: ms)
        case .none:
            return DetectionResult(
                source: path, page: page, width: width, height: height, quad: nil,
                confidence: analysis.detection.confidence, kind: DetectionResult.Kind.none,
                detectionMilliseconds: ms)
        }
    }

    /// Detects the page in an 8-bit interleaved pixel buffer (1, 3 or 4 bands); the quad is in
    /// its pixels, continuous coordinates (the image spans 0...width, pixel centres at +0.5).
    /// - Complexity: O(pixels).
    public static func detect(pixels: [UInt8], width: Int, height: Int, bands: Int) -> PageDetection {
        var found = PageDetector().detect(pixels: pixels, width: width, height: height, bands: bands)
        found.quad = found.quad?.map { Point(x: $0.x + 0.5, y: $0.y + 0.5) }
        return found
    }

    static func isVector(_ path: String) -> Bool {
        let name = VIPSImage.loaderName(forFile: path) ?? ""
        return name.hasPrefix("pdfload") || name.hasPrefix("svgload")
    }
}
