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
    /// Page corners in display pixels of the oriented source, TL, TR, BR, BL.
    public var quad: Quad?
    public var quadConfidence: Double?
    public var skewDegrees: Double?
    /// The kept rect, in pixels of the deskewed image.
    public var crop: Rect?
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
/// This is the pipeline's correction seam: this version passes every page through unchanged
/// (`CorrectionRecord.Kind.none`); the border-detection work replaces this file with the real
/// corrector of the same API.
struct PageCorrector: Sendable {
    var options: CorrectionOptions
    init(options: CorrectionOptions) { self.options = options }

    /// - Parameters: image: oriented, display-ready (8-bit sRGB or grey) full-size page;
    ///   source: where it came from (for a shrink-on-load detection copy); userQuad: corners
    ///   the user supplied (`--corners`), in display pixels of the oriented source.
    func correct(_ image: VIPSImage, source: PageSource, userQuad: Quad?) throws
        -> (image: VIPSImage, record: CorrectionRecord) {
        (image, CorrectionRecord())
    }
}
