import VipsBridge

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small 8-bit copy of a page for detection, and how its pixels map to the full page.
struct DetectionCopy {
    var pixels: [UInt8]
    var width: Int
    var height: Int
    var bands: Int
    /// Full (display) pixels per copy pixel, horizontally and vertically.
    var scaleX: Double
    var scaleY: Double
    /// Where the copy starts in full display pixels (a box-averaged copy drops the last few
    /// stored rows and columns, which a rotation can move to the top or the left).
    var offsetX = 0.0
    var offsetY = 0.0

    /// Long side of the detection copy.
    static let longSide = 1024

    init(pixels: [UInt8], width: Int, height: Int, bands: Int, scaleX: Double, scaleY: Double) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.bands = bands
        self.scaleX = scaleX
        self.scaleY = scaleY
    }

    /// Decodes the copy from an image (already oriented and display-ready).
    init(image: VIPSImage, displayWidth: Int, displayHeight: Int) throws {
        var small = image
        if max(image.width, image.height) > Self.longSide {
            small = try image.thumbnail(width: Self.longSide, height: Self.longSide)
        }
        if small.format != .uchar || small.hasAlpha || (small.bands != 1 && small.bands != 3) {
            small = try small.displayReady()
        }
        pixels = try small.pixelBytes()
        width = small.width
        height = small.height
        bands = small.bands
        scaleX = Double(displayWidth) / Double(width)
        scaleY = Double(displayHeight) / Double(height)
    }

    /// A shrink-on-load copy straight from the file (JPEG DCT scaling, small PDF render), EXIF
    /// orientation applied, for a page whose display size is known.
    init(source: PageSource, displayWidth: Int, displayHeight: Int) throws {
        if let jpeg = try Self.dctScaled(source) {
            try self.init(image: jpeg, displayWidth: displayWidth, displayHeight: displayHeight)
            return
        }
        let options = source.page > 0 ? "page=\(source.page)" : nil
        let thumb = try VIPSImage.thumbnail(
            file: source.path, width: Self.longSide, height: Self.longSide,
            loaderOptions: options)
        try self.init(image: thumb, displayWidth: displayWidth, displayHeight: displayHeight)
    }

    /// A JPEG decoded at 1/2, 1/4 or 1/8 scale by the decoder itself (the largest factor that
    /// keeps the long side at least `minimumDCTLongSide`), oriented and display-ready; nil for
    /// other formats. About half the cost of `vips_thumbnail` to 1024 px, which decodes at a
    /// smaller factor and then resamples (docs/benchmarks.md, "Figures behind design choices").
    static func dctScaled(_ source: PageSource) throws -> VIPSImage? {
        guard !source.path.isEmpty, (try? SourceProbe.format(of: source.path)) == .jpeg else { return nil }
        let header = try VIPSImage.load(file: source.path)
        let long = max(header.width, header.height)
        guard let shrink = [8, 4, 2].first(where: { long / $0 >= minimumDCTLongSide }) else { return nil }
        // Random access: small, and the rotation of an EXIF-turned capture reads out of order.
        let small = try VIPSImage.load(file: source.path, options: .init(failOn: .truncated, shrink: shrink))
        let upright = small.orientation == 1 ? small : try small.autorotated()
        return try upright.displayReady()
    }

    /// The smallest long side a DCT-scaled detection copy may have (the detector's ~1000 px
    /// copy, give or take the scale steps: 4000 px captures give 1000, 3264 px ones 816).
    static let minimumDCTLongSide = 750

    /// One grey byte per pixel (Rec. 601 luma).
    /// Written through pointers into an array made for it (no zero fill first, no checks a byte).
    func gray() -> [UInt8] {
        guard bands >= 3 else { return pixels }
        let (count, bands) = (width * height, bands)
        precondition(pixels.count >= count * bands, "a copy holds width x height pixels")
        return [UInt8](unsafeUninitializedCapacity: count) { out, made in
            pixels.withUnsafeBufferPointer { p in
                for i in 0..<count {
                    let o = i &* bands
                    let r: Int = 299 &* Int(p[o]), g: Int = 587 &* Int(p[o &+ 1]), b: Int = 114 &* Int(p[o &+ 2])
                    out[i] = UInt8((r &+ g &+ b &+ 500) / 1000)
                }
            }
            made = count
        }
    }
}

/// What a page looks like to the correction step: a photo with a page quad, a flatbed scan, or
/// neither (keep the frame as it is).
struct PageAnalysis: Sendable {
    enum Kind: Sendable { case photo, scan, none }
    var kind: Kind
    /// The detection in display pixels (quad nil when none was found).
    var detection: PageDetection
    /// The skew estimate when the page looks like a scan.
    var skew: SkewEstimate?
    /// A scan whose page fills the whole frame (no lid or background around it): it is turned
    /// inside its own size, never trimmed.
    var fillsFrame = false
    /// Whether the page is brighter than what surrounds it (guides full-resolution refinement).
    var insideBrighter = true
    /// Full pixels per detection-copy pixel (the uncertainty of the quad, in full pixels).
    var copyScale = 1.0
}

/// Decides photo versus scan from the pixels of a detection copy.
///
/// A flatbed scan shows the page as a near-perfect rectangle (right angles, equal opposite sides,
/// at most a small rotation) or not at all (a page filling the glass, or white on a white lid),
/// with a flat, uniform frame around it; a photo shows a perspective quad on a textured scene.
enum PageAnalyzer {
    /// Images narrower or lower than this (in the detection copy) are written as they are.
    static let minimumSide = 16
    /// Skew confidence a page filling the frame needs before it is treated as a scan and turned.
    /// Stricter than for pages on a scanner lid: without a lid nothing else says "scan", and a
    /// photo of a scene must not be turned by a weak peak from its edges.
    static let fillsFrameMinimumConfidence = 0.3

    static func analyze(_ copy: DetectionCopy, detector: PageDetector = PageDetector()) -> PageAnalysis {
        // An image this small (an icon, a 1x1 test pixel) holds no page border to find.
        guard copy.width >= minimumSide, copy.height >= minimumSide else {
            return PageAnalysis(kind: .none, detection: PageDetection(quad: nil, confidence: 0), skew: nil)
        }
        var (found, insideBrighter) = detector.decide(
            pixels: copy.pixels, width: copy.width,
            height: copy.height, bands: copy.bands)
        // Asked up to three times below, measured at most once (the same copy).
        var flat: Bool? = nil
        func hasFlatFrame(_ copy: DetectionCopy) -> Bool {
            if let flat { return flat }
            let measured = Self.hasFlatFrame(copy)
            flat = measured
            return measured
        }
        // On a scanner's flat frame, a quad with more of its own paper and print around it is
        // print (staff systems, a table), not the sheet: the scan is deskewed whole instead.
        if let quad = found.quad, hasFlatFrame(copy),
            PrintAround.liesInPrint(
                quad, pixels: copy.pixels, width: copy.width, height: copy.height, bands: copy.bands)
        {
            found = PageDetection(quad: nil, confidence: min(found.confidence, 1 - found.confidence))
            insideBrighter = true
        }
        var scanLike = false
        if let quad = found.quad {
            // A scanned page fills most of the glass; a smaller exact rectangle is a box or a
            // picture on a scanned page when the frame is flat, else a page seen from afar. A
            // large one is a scan too, unless what lies around it is textured like a desk: a
            // page photographed straight down on wood is as exact a rectangle as a scan, and
            // taken for one it was never cropped (pinned by
            // `PageAnalyzerFrameTests.aPageOnADeskPhotographedStraightDownIsAPhoto`).
            scanLike =
                isScanRectangle(quad)
                && (hasFlatFrame(copy)
                    || (quad.area >= 0.35 * Double(copy.width * copy.height) && !hasTexturedFrame(copy)))
            // A page running off the frame on a flat lid is a scan too (a page off the glass),
            // deskewed as one rather than warped by a quad with a side on the frame's edge.
            scanLike =
                scanLike
                || (PageDetector.runsOffFrame(quad, width: copy.width, height: copy.height) && hasFlatFrame(copy))
        } else {
            scanLike = hasFlatFrame(copy)
        }
        if scanLike {
            let skew = ScanDeskew.estimateSkew(gray: copy.gray(), width: copy.width, height: copy.height)
            return PageAnalysis(
                kind: .scan,
                detection: PageDetection(
                    quad: found.quad.map { display($0, copy) },
                    confidence: found.confidence), skew: skew)
        }
        guard let quad = found.quad else {
            // No page border and no flat frame: a page filling the frame (sheet feeders,
            // auto-cropping scanners) or a picture. Text lines decide: a confident skew makes it
            // a scan turned inside its own size, anything else is kept as it is.
            let skew = ScanDeskew.estimateSkew(gray: copy.gray(), width: copy.width, height: copy.height)
            if skew.confidence >= fillsFrameMinimumConfidence {
                return PageAnalysis(kind: .scan, detection: found, skew: skew, fillsFrame: true)
            }
            return PageAnalysis(kind: .none, detection: found, skew: skew)
        }
        return PageAnalysis(
            kind: .photo, detection: PageDetection(quad: display(quad, copy), confidence: found.confidence),
            skew: nil, insideBrighter: insideBrighter, copyScale: max(copy.scaleX, copy.scaleY))
    }

    /// Detector coordinates of the copy (pixel centres at integers) to display coordinates of the
    /// full page (continuous: the image spans 0...width, pixel centres at +0.5).
    static func display(_ quad: Quad, _ copy: DetectionCopy) -> Quad {
        quad.map { Point(x: ($0.x + 0.5) * copy.scaleX + copy.offsetX, y: ($0.y + 0.5) * copy.scaleY + copy.offsetY) }
    }

    /// Right angles within 1 degree, opposite sides equal within 1.5 %, rotation under 20 degrees
    /// (`FrameChecks.isScanRectangle`).
    static func isScanRectangle(_ quad: Quad) -> Bool { FrameChecks.isScanRectangle(quad) }

    /// Whether three of the copy's outer strips are textured (`FrameChecks.hasTexturedFrame`).
    static func hasTexturedFrame(_ copy: DetectionCopy) -> Bool {
        FrameChecks.hasTexturedFrame(pixels: copy.pixels, width: copy.width, height: copy.height, bands: copy.bands)
    }

    /// Whether two of the copy's outer strips are flat (`FrameChecks.hasFlatFrame`).
    static func hasFlatFrame(_ copy: DetectionCopy) -> Bool {
        FrameChecks.hasFlatFrame(pixels: copy.pixels, width: copy.width, height: copy.height, bands: copy.bands)
    }
}
