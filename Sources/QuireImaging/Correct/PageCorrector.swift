import VipsBridge

/// How the correction step runs (`--correct`, `--paper`).
public struct CorrectionOptions: Sendable, Hashable, Codable {
    /// `--correct`: `auto` straightens photos and deskews scans, `none` writes pages as decoded.
    public enum Mode: String, Sendable, Hashable, Codable, CaseIterable { case auto, none }
    /// `--paper`: the paper size a corrected photo's proportions are snapped to, or `auto` to keep the measured shape.
    public enum Paper: String, Sendable, Hashable, Codable, CaseIterable { case auto, a4, letter, legal }
    /// `--rotate`: `auto` turns scans and uncorrected pages whose text reads sideways or upside
    /// down upright (Tesseract's orientation detection), `none` keeps them as scanned.
    public enum Rotate: String, Sendable, Hashable, Codable, CaseIterable { case auto, none }
    public var mode: Mode
    public var paper: Paper
    public var rotate: Rotate
    /// Correction in `mode` for `paper`; the defaults are those of `quire process`.
    public init(mode: Mode = .auto, paper: Paper = .auto, rotate: Rotate = .auto) {
        self.mode = mode
        self.paper = paper
        self.rotate = rotate
    }
}

/// What the correction step did to one page (recorded in layout.json).
public struct CorrectionRecord: Sendable, Hashable, Codable {
    /// What was done: nothing, a perspective warp from a quad (photos), or deskew and trim (scans).
    public enum Kind: String, Sendable, Hashable, Codable { case none, perspective, deskew }
    public var kind: Kind
    public var quad: Quad?  // display pixels of the oriented source, TL,TR,BR,BL
    public var quadConfidence: Double?
    public var skewDegrees: Double?
    public var crop: Rect?  // pixels of the deskewed image
    /// Share of the page filled with the paper colour as scanner edge (clean-up), nil when none.
    public var edgeFill: Double?
    /// The clockwise quarter turn applied so the text reads upright (0, 90, 180, 270).
    public var rotation: Int = 0
    /// The orientation detector's confidence, nil when it was not asked (photos whose lines run
    /// across, `--rotate none`, no Tesseract) or could not tell.
    public var rotationConfidence: Double?
    /// A record of correction `kind` with what it measured (each nil when it does not apply).
    public init(
        kind: Kind = .none, quad: Quad? = nil, quadConfidence: Double? = nil,
        skewDegrees: Double? = nil, crop: Rect? = nil
    ) {
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
///
/// Everything reads the one decoded frame (`DecodedFrame`): the detection copy is averaged
/// from it, a photo's corners are refined on it and the warp samples it in stored orientation
/// (the EXIF rotation folds into the homography). Rows outside the page are handed back to the
/// kernel before the warp, so a page's peak memory is about one frame, not frame plus copies.
struct PageCorrector: Sendable {
    var options: CorrectionOptions
    /// Warped pages with more pixels than this are refused (`OutputTooLarge`) before any pixel
    /// is made: corners far apart would otherwise ask for a page far larger than its source.
    var maxPixels: Int = .max
    /// Tells which way up scans and uncorrected pages are; nil to keep them as they are.
    var orientation: (any OrientationDetector)?

    /// A corrector for `options`, finding page orientation with Tesseract when it is installed
    /// and `options.rotate` is `auto` (or with `orientation` when given).
    init(options: CorrectionOptions, orientation: (any OrientationDetector)?? = nil) {
        self.options = options
        self.orientation = options.rotate == .none ? nil : (orientation ?? TesseractOSD.installed)
    }

    /// The corrected, upright, display-ready page and what was done to it.
    /// - Parameters:
    ///   - userQuad: corners the user gave, in display pixels of the upright source.
    ///   - frameShrunk: called once the whole frame is no longer needed in memory (after
    ///     detection, or once the rows outside the page are released); see `FrameGate`.
    ///   - copy: the frame's detection copy when the caller already made it (the review's capture).
    ///   - frameGrows: called with the bytes of a second whole frame before it is made beside
    ///     the first (a scan stored sideways made upright); see `FrameGate.grow`.
    func correct(
        _ decoded: DecodedFrame, userQuad: Quad?, copy given: DetectionCopy? = nil,
        frameShrunk: () -> Void = {}, frameGrows: (Int) -> Void = { _ in }
    ) throws -> (image: VIPSImage, record: CorrectionRecord) {
        if options.mode == .none {
            frameShrunk()
            return (try decoded.uprightImage(), CorrectionRecord(kind: .none))
        }
        if let userQuad {
            let (page, quad) = try straighten(decoded, quad: userQuad, refinement: nil, frameShrunk: frameShrunk)
            return (page, CorrectionRecord(kind: .perspective, quad: quad, quadConfidence: 1))
        }
        let copy = given ?? StageProfile.measure("2a detection copy") { decoded.detectionCopy() }
        let analysis = StageProfile.measure("2b analyse") { PageAnalyzer.analyze(copy) }
        switch analysis.kind {
        case .photo where analysis.detection.quad != nil:
            let refinement =
                analysis.copyScale > 1.2
                ? Refinement(insideBrighter: analysis.insideBrighter, radius: analysis.copyScale + 2) : nil
            let (page, quad) = try straighten(
                decoded, quad: analysis.detection.quad!, refinement: refinement,
                frameShrunk: frameShrunk)
            return (
                page, CorrectionRecord(kind: .perspective, quad: quad, quadConfidence: analysis.detection.confidence)
            )
        case .photo, .none:
            frameShrunk()
            let upright = try decoded.uprightImage().inMemory()
            let (turned, confidence) = try orient(upright)
            if let turned { return turned }
            var record = CorrectionRecord(kind: .none, quadConfidence: analysis.detection.confidence)
            record.rotationConfidence = confidence
            return (upright, record)
        case .scan:
            let skew = analysis.skew ?? SkewEstimate(degrees: 0, confidence: 0)
            let upright = try Self.uprightFrame(decoded, frameGrows: frameGrows, frameShrunk: frameShrunk)
            // The turn hands back the upright rows it has passed: the page is not held twice.
            // Its own profile stage, holding "2g trim copy" and "2i deskew turn": what they leave
            // of it is the trim's own work on its small copy (its turn, the lid, the page box).
            let (view, crop) = try StageProfile.measure("2j straighten scan") {
                try Self.straightenedScan(
                    upright.image, as: analysis, copy: copy, releasing: { upright.releaseRows($0) })
            }
            // Computed once here: orientation, clean-up, the preview and the encoder all read it.
            let deskewed = try StageProfile.measure("2h deskew into memory") { try view.inMemory() }
            var record = CorrectionRecord(kind: .deskew, skewDegrees: skew.degrees, crop: crop)
            // Which way up is asked of the straightened page: Tesseract misreads text lying at
            // a large angle (eurotext.tif turned 35 degrees read as upside down, confidence 3).
            let guess = try quarterTurn(of: deskewed, scan: true)
            record.rotationConfidence = guess?.confidence
            if let guess, OrientationPolicy.turns(guess) {
                record.rotation = guess.rotate
                return (try deskewed.rotated(quarterTurns: guess.rotate / 90).inMemory(), record)
            }
            return (deskewed, record)
        }
    }

    /// A page analysed as a scan, straightened as it is written: turned inside its own size when
    /// it fills the frame, else deskewed and trimmed to its page (the detector's outline helping
    /// where the lid cannot be told from the page by colour). Which way up a scan is is asked of
    /// this image, by `quire process` and `quire detect` alike, so the two cannot disagree.
    /// - Parameter releasing: hands back rows of `upright`'s frame the turn has passed (the
    ///   caller reads `upright` no more); nil to keep it whole.
    static func straightenedScan(
        _ upright: VIPSImage, as analysis: PageAnalysis, copy: DetectionCopy?,
        releasing: ((Range<Int>) -> Void)? = nil
    ) throws -> (image: VIPSImage, crop: Rect?) {
        let skew = analysis.skew ?? SkewEstimate(degrees: 0, confidence: 0)
        return analysis.fillsFrame
            ? try ScanDeskew.deskewKeepingSize(upright, skew: skew, releasing: releasing)
            : try ScanDeskew.deskewAndTrim(
                upright, skew: skew, page: analysis.detection.quad, copy: copy, releasing: releasing)
    }

    /// The upright page in a frame of its own (its rows can be handed back), computed once,
    /// with the stored frame's rows handed back to the kernel when it had to be turned: the
    /// deskew reads its source whole, so a lazily turned page would be computed into a second
    /// full-size buffer while the stored frame stayed alive beside it and the deskewed page:
    /// three full frames at once (docs/benchmarks.md, "Peak memory: a sideways scan-like page
    /// made upright once"). A capture held as planes is turned as it is converted to RGB
    /// (`YCbCrFrame.rgbFrame(quarterTurns:)`), so no stored RGB frame is made beside it.
    /// - Parameters:
    ///   - frameGrows: called with the upright frame's bytes before it is made beside the stored
    ///     one (turned pages only); `frameShrunk` once the stored frame is gone (or at once).
    static func uprightFrame(
        _ decoded: DecodedFrame, frameGrows: (Int) -> Void = { _ in }, frameShrunk: () -> Void = {}
    ) throws -> VIPSFrame {
        let turns = [1: 0, 3: 2, 6: 1, 8: 3][decoded.orientation.orientation] ?? 0
        guard turns != 0 else { frameShrunk(); return try uprightFrame(decoded, turns: 0) }
        let bands: Int
        switch decoded.pixels {
        case .planar: bands = 3
        case .interleaved(let frame): bands = frame.bands
        }
        frameGrows(decoded.displayWidth * decoded.displayHeight * bands)
        defer { frameShrunk() }
        return try uprightFrame(decoded, turns: turns)
    }

    /// `decoded` turned `turns` clockwise quarter turns into a frame, the stored rows handed back.
    private static func uprightFrame(_ decoded: DecodedFrame, turns: Int) throws -> VIPSFrame {
        switch decoded.pixels {
        case .planar(let planes):
            return try planes.rgbFrame(quarterTurns: turns)
        case .interleaved(let frame) where turns == 0:
            return frame
        case .interleaved(let frame):
            let upright = try VIPSFrame(rendering: frame.image.rotated(quarterTurns: turns))
            frame.releaseRows(0..<frame.height)
            return upright
        }
    }

    /// The orientation detector's guess for `page` (read as a straightened scan when `scan`:
    /// `OrientationDetector.guessScan`), nil when there is no detector or it could not tell.
    func quarterTurn(of page: VIPSImage, scan: Bool = false) throws -> OrientationGuess? {
        guard let orientation else { return nil }
        return try? StageProfile.measure("2e orientation") {
            try scan ? orientation.guessScan(page) : orientation.guess(page)
        }
    }

    /// Asks which way up a page left as it is (no quad, no confident skew) is. When the
    /// detector confidently says its text is turned, the page is turned upright and corrected
    /// again from there (a sideways page's skew can only be measured once its lines run across).
    /// - Returns: the corrected page when it was turned, and the detector's confidence (nil
    ///   when there is no detector or it could not tell).
    func orient(_ upright: VIPSImage) throws -> (
        corrected: (image: VIPSImage, record: CorrectionRecord)?, confidence: Double?
    ) {
        guard let guess = try quarterTurn(of: upright) else { return (nil, nil) }
        guard OrientationPolicy.turns(guess) else { return (nil, guess.confidence) }
        let turned = try upright.rotated(quarterTurns: guess.rotate / 90)
        let again = PageCorrector(options: options, orientation: .some(nil))
        var (image, record) = try again.correct(DecodedFrame(upright: turned), userQuad: nil)
        // Found on the turned frame; layout.json, the review and `--corrections` read the source's.
        record.quad = record.quad?.unturned(
            quarterTurns: guess.rotate / 90, sourceWidth: Double(upright.width), sourceHeight: Double(upright.height))
        record.rotation = guess.rotate
        record.rotationConfidence = guess.confidence
        return ((image, record), guess.confidence)
    }

    /// The same for an image already upright and display-ready (tests, pixels from elsewhere).
    func correct(_ image: VIPSImage, userQuad: Quad?) throws -> (image: VIPSImage, record: CorrectionRecord) {
        try correct(DecodedFrame(upright: image), userQuad: userQuad)
    }

    /// How a detected quad is refined on the full-size pixels before the warp.
    struct Refinement {
        var insideBrighter: Bool
        /// Search distance in full pixels (the detection copy's scale plus a margin).
        var radius: Double
    }

    /// Warps `quad` (display pixels) of the frame upright at the size its edges (or the chosen
    /// paper) call for, refining the corners first when asked.
    /// - Returns: the page (a new 8-bit image in memory) and the quad used, in display pixels.
    func straighten(
        _ decoded: DecodedFrame, quad: Quad, refinement: Refinement?,
        frameShrunk: () -> Void = {}
    ) throws -> (VIPSImage, Quad) {
        let map = decoded.orientation
        var stored = map.stored(quad)
        // Only rows near the page are read from here on: return the others to the kernel.
        // Refinement may move a corner by up to 1.5 search radii; the bilinear taps need one more row.
        if stored.isFinite {
            let margin = 2 * (refinement?.radius ?? 0) + 3
            let ys = stored.corners.map(\.y)
            let height = Double(decoded.storedHeight)
            let top = Int(min(max(ys.min()! - margin, 0), height).rounded(.down))
            let bottom = Int(min(max(ys.max()! + margin, 0), height).rounded(.up))
            decoded.releaseRows(0..<top)
            decoded.releaseRows(bottom..<decoded.storedHeight)
        }
        frameShrunk()
        if let refinement {
            stored = StageProfile.measure("2c refine corners") {
                decoded.refined(stored, insideBrighter: refinement.insideBrighter, searchRadius: refinement.radius)
            }
        }
        let upright = map.display(stored)
        let size = PageShape.outputSize(
            for: upright, imageWidth: decoded.displayWidth,
            imageHeight: decoded.displayHeight, paper: options.paper)
        if size.width * size.height > maxPixels {
            throw OutputTooLarge(width: size.width, height: size.height, maxPixels: maxPixels)
        }
        // Warped straight into the page's own frame (no copy afterwards); source rows go back to
        // the kernel as the warp passes them (the frame is done with).
        let page = try StageProfile.measure("2d warp") { () throws -> VIPSFrame in
            switch decoded.pixels {
            case .interleaved(let frame):
                let page = try VIPSFrame(width: size.width, height: size.height, bands: frame.bands)
                try PerspectiveWarp.warp(
                    pixels: UnsafeBufferPointer(frame.pixels), width: frame.width, height: frame.height,
                    bands: frame.bands, quad: stored, outputWidth: size.width, outputHeight: size.height,
                    into: page.pixels, releasingRows: { frame.releaseRows($0) })
                return page
            case .planar(let planes):
                let page = try VIPSFrame(width: size.width, height: size.height, bands: 3)
                try PerspectiveWarp.warp(
                    planes: PlanarPixels(planes), quad: stored, outputWidth: size.width,
                    outputHeight: size.height, into: page.pixels,
                    releasingRows: { planes.releaseRows($0) })
                return page
            }
        }
        return (page.image, upright)
    }
}
