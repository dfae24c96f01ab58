/// One candidate for the page in a file, for the candidate table (`make fit-verifier`).
public struct PageCandidate: Sendable {
    /// Which generator proposed it.
    public var generator: CandidateGenerator
    /// Its quad in display pixels of the full page (continuous: the image spans 0...width).
    public var quad: Quad
    /// Its features (`PageCandidate.featureNames`), measured on the detection copy.
    public var features: [Double]

    /// The names of `features`, in order.
    public static var featureNames: [String] { CandidateFeatures.names }
}

extension Detector {
    /// Every generator's candidates for the page of one file, as `quire process` would see them
    /// (the whole page decoded, the detection copy averaged from it), and the rules' decision.
    /// - Throws: `VIPSError` or `ImagingError` when the file cannot be opened or decoded.
    public static func candidates(file path: String, page: Int = 0, dpi: Double = 200) throws
        -> (width: Int, height: Int, candidates: [PageCandidate], rules: PageDetection)
    {
        let decoded = try PageDecoder(maxPixels: .max).decodeFrame(
            PageSource(path: path, page: page, dpi: dpi), planar: true, averaging: true)
        let copy = decoded.detectionCopy()
        let (width, height) = (decoded.displayWidth, decoded.displayHeight)
        guard copy.width >= PageAnalyzer.minimumSide, copy.height >= PageAnalyzer.minimumSide else {
            return (width, height, [], .none)
        }
        let found = PageDetector().pageCandidates(
            pixels: copy.pixels, width: copy.width, height: copy.height, bands: copy.bands)
        let list = found.candidates.map {
            PageCandidate(generator: $0.generator, quad: PageAnalyzer.display($0.quad, copy), features: $0.features)
        }
        let rules = PageDetection(
            quad: found.rules.quad.map { PageAnalyzer.display($0, copy) }, confidence: found.rules.confidence)
        return (width, height, list, rules)
    }
}
