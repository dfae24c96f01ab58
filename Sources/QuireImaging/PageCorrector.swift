import VipsBridge

/// How the correction step runs (`--correct`, `--paper`).
public struct CorrectionOptions: Sendable, Hashable, Codable {
    public enum Mode: String, Sendable, Hashable, Codable, CaseIterable { case auto, none }
    public enum Paper: String, Sendable, Hashable, Codable, CaseIterable { case auto, a4, letter, legal }
    public var mode: Mode
    public var paper: Paper
    public init(mode: Mode = .auto, paper: Paper = .auto) { self.mode = mode; self.paper = paper }
}

/// What the correction step did to one page (recorded in layout.json).
public struct CorrectionRecord: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable { case none, perspective, deskew }
    public var kind: Kind
    public var quad: Quad?            // display pixels of the oriented source, TL,TR,BR,BL
    public var quadConfidence: Double?
    public var skewDegrees: Double?
    public var crop: Rect?            // pixels of the deskewed image
    public init(kind: Kind = .none, quad: Quad? = nil, quadConfidence: Double? = nil,
                skewDegrees: Double? = nil, crop: Rect? = nil) {
        self.kind = kind
        self.quad = quad
        self.quadConfidence = quadConfidence
        self.skewDegrees = skewDegrees
        self.crop = crop
    }
}

/// Finds and straightens the page (photos) or deskews and trims it (scans).
///
/// In order: `mode none` passes the page through; corners the user gave are used as they are;
/// otherwise a small copy is analysed (`PageAnalyzer`): a photo's page quad is warped upright
/// (`PerspectiveWarp`, output size from `PageShape`), a scan is deskewed and trimmed
/// (`ScanDeskew`), and a page where neither shows is kept whole.
struct PageCorrector: Sendable {
    var options: CorrectionOptions

    init(options: CorrectionOptions) { self.options = options }

    /// image: oriented, display-ready (8-bit sRGB or grey) full-size page; source: where it came from
    /// (path, page, dpi) so you may take a shrink-on-load detection copy; userQuad: corners the user gave.
    func correct(_ image: VIPSImage, source: PageSource, userQuad: Quad?) throws
        -> (image: VIPSImage, record: CorrectionRecord) {
        if options.mode == .none { return (image, CorrectionRecord(kind: .none)) }
        if let userQuad {
            let quad = userQuad
            let warped = try straighten(image, quad: quad)
            return (warped, CorrectionRecord(kind: .perspective, quad: quad, quadConfidence: 1))
        }
        let copy = try detectionCopy(image, source: source)
        let analysis = PageAnalyzer.analyze(copy)
        switch analysis.kind {
        case .photo where analysis.detection.quad != nil:
            // Cheapest: straight from the file's stored pixels (PageCorrector+StoredWarp.swift).
            if let done = try straightenFromStoredPixels(
                source: source, displayWidth: image.width, displayHeight: image.height, quad: analysis.detection.quad!,
                insideBrighter: analysis.insideBrighter, refineRadius: analysis.copyScale > 1.2 ? analysis.copyScale + 2 : 0) {
                return (done.image, CorrectionRecord(kind: .perspective, quad: done.quad,
                                                     quadConfidence: analysis.detection.confidence))
            }
            // The full page is decoded for the warp anyway: refine the corners on it first.
            let source = try image.format == .uchar ? image : image.castToUChar()
            let bytes = try source.pixelBytes()
            var quad = analysis.detection.quad!
            if analysis.copyScale > 1.2 {
                quad = PageDetector.refine(quad, pixels: bytes, width: source.width, height: source.height,
                                           bands: source.bands, insideBrighter: analysis.insideBrighter,
                                           searchRadius: analysis.copyScale + 2)
            }
            let warped = try straighten(bytes, width: source.width, height: source.height, bands: source.bands, quad: quad)
            return (warped, CorrectionRecord(kind: .perspective, quad: quad,
                                             quadConfidence: analysis.detection.confidence))
        case .photo, .none:
            return (image, CorrectionRecord(kind: .none, quadConfidence: analysis.detection.confidence))
        case .scan:
            let skew = analysis.skew ?? SkewEstimate(degrees: 0, confidence: 0)
            let (deskewed, crop) = try ScanDeskew.deskewAndTrim(image, skew: skew)
            return (deskewed, CorrectionRecord(kind: .deskew, skewDegrees: skew.degrees, crop: crop))
        }
    }

    /// Warps `quad` of the image upright at the size its edges (or the chosen paper) call for.
    func straighten(_ image: VIPSImage, quad: Quad) throws -> VIPSImage {
        let size = PageShape.outputSize(for: quad, imageWidth: image.width, imageHeight: image.height,
                                        paper: options.paper)
        return try PerspectiveWarp.warp(image, quad: quad, width: size.width, height: size.height)
    }

    /// The same from pixels already decoded.
    func straighten(_ bytes: [UInt8], width: Int, height: Int, bands: Int, quad: Quad) throws -> VIPSImage {
        let size = PageShape.outputSize(for: quad, imageWidth: width, imageHeight: height, paper: options.paper)
        let out = try PerspectiveWarp.warp(pixels: bytes, width: width, height: height, bands: bands, quad: quad,
                                           outputWidth: size.width, outputHeight: size.height)
        return try VIPSImage.fromPixels(out, width: size.width, height: size.height, bands: bands)
    }

    /// A shrink-on-load copy from the source file when it shows the same frame as `image`
    /// (cheap: JPEG DCT scaling), else a thumbnail of `image` itself.
    func detectionCopy(_ image: VIPSImage, source: PageSource) throws -> DetectionCopy {
        if !source.path.isEmpty,
           let copy = try? DetectionCopy(source: source, displayWidth: image.width, displayHeight: image.height),
           abs(copy.scaleX - copy.scaleY) <= 0.02 * max(copy.scaleX, copy.scaleY) {
            return copy
        }
        return try DetectionCopy(image: image, displayWidth: image.width, displayHeight: image.height)
    }
}
