/// The ranges every number of a layout.json must lie in (docs/layout-json.md#ranges).
///
/// A layout.json is read back from outside (`quire layout` `pagesFrom`, `pdf`, `strip`, `iiif`,
/// `view`, `merge`): a hand-edited or foreign file may hold a width of 0 or -7, a count of
/// 10^20 or a rotation of 45. Each bound holds every file Quire writes, so a valid file reads
/// as before; a number outside one is refused, naming its JSON path and the range.
public enum LayoutReportRanges {
    /// A pixel side (page, preview, thumbnail, capture, source): libvips holds no image wider
    /// or higher than 10,000,000 pixels (`VIPS_MAX_COORD`), so Quire never writes a larger one.
    public static let pixelSide = 1...10_000_000
    /// A position in a batch or a page of a multi-page file, from 0: far beyond any batch, and
    /// small enough that `index + 1` (the file number) and sums of a few stay in range.
    public static let position = 0...Int(Int32.max)
    /// An EXIF orientation: the eight the standard defines.
    public static let orientation = 1...8
    /// A quarter turn, in degrees clockwise.
    public static let quarterTurns: Set<Int> = [0, 90, 180, 270]
    /// A page's width / height: at most a 10,000,000 x 1 page's. The lower end is 0, not above
    /// it, because layout.json keeps 4 decimals and writes a page narrower than 1:20,000 as 0
    /// (a reader uses the page's `width` and `height`, or its default aspect, for those).
    public static let aspectRatio = 0.0...1e7
    /// Pixel coordinates of a quad, crop or split rect: within ten times the largest side, as
    /// a detected quad of a photo may reach beyond the frame it was found in.
    public static let pixelCoordinate = -1e8...1e8
    /// A share (quad confidence, edge fill, a corrections-file split position).
    public static let share = 0.0...1.0
    /// A skew in degrees: deskewing turns a scan by less than a quarter turn either way.
    public static let skewDegrees = -90.0...90.0
    /// A page's resolution in dots per inch: positive, and at most one dot per pixel of the
    /// largest side over a tenth of an inch.
    public static let dpi = Double.leastNonzeroMagnitude...1e8
    /// The mean word confidence of OCR, as Tesseract gives it.
    public static let meanConfidence = 0.0...100.0
    /// A count of OCR words.
    public static let count = 0...Int(Int32.max)
    /// The pages a split spread became: Quire cuts a spread in two.
    public static let splitCount = 2...2
    /// JPEG and WebP quality, as `--quality` takes it.
    public static let quality = 1...100
    /// A reference viewport side or strip height in points: `--viewport`'s bound.
    public static let viewportSide = Double.leastNonzeroMagnitude...ViewportSize.maximumSide
    /// A value of the pager and strip geometry or of the rotation confidence: any finite
    /// number (JSON holds no other; an app building a report in memory might).
    public static let finite = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude

    /// How error messages write `range`.
    package static func text(_ range: ClosedRange<Double>) -> String {
        if range == finite { return "a finite number" }
        let low = range.lowerBound == .leastNonzeroMagnitude ? ">0" : number(range.lowerBound)
        return low + "..." + number(range.upperBound)
    }

    /// How error messages write a number: whole numbers without a fraction, others as Swift
    /// prints them (unrounded, so a tiny value does not read as 0).
    package static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}

/// A number of a layout.json outside its range: where it is and what was expected.
public struct LayoutReportRangeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The JSON path of the value: `pages[3].width`.
    public var path: String
    /// What was expected and what was found: `expected an integer in 1...10000000, found 0`.
    public var reason: String
    public var description: String { "\(path): \(reason)" }

    /// The value at `path` was not what `reason` says.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

extension LayoutReport {
    /// Checks every number of the report against `LayoutReportRanges`; `LayoutReport.read`
    /// calls it right after decoding, and an app decoding layout.json itself may too.
    /// - Throws: `LayoutReportRangeError` for the first number out of range, in field order.
    public func checkRanges() throws {
        var check = RangeCheck(base: "viewport")
        try check.number(viewport.width, LayoutReportRanges.viewportSide, "width")
        try check.number(viewport.height, LayoutReportRanges.viewportSide, "height")
        try check.number(viewport.stripHeight, LayoutReportRanges.viewportSide, "stripHeight")
        if let options {
            check.base = "options"
            try check.int(options.quality, LayoutReportRanges.quality, "quality")
            try check.int(options.previewSize, LayoutReportRanges.pixelSide, "previewSize")
            try check.int(options.thumbnailSize, LayoutReportRanges.pixelSide, "thumbnailSize")
            try check.number(options.pdfDPI, LayoutReportRanges.dpi, "pdfDPI")
        }
        for (i, page) in pages.enumerated() {
            try page.checkRanges(RangeCheck(base: "pages", index: i))
        }
        for (i, error) in errors.enumerated() {
            if let sourcePage = error.sourcePage {
                try RangeCheck(base: "errors", index: i).int(sourcePage, LayoutReportRanges.position, "sourcePage")
            }
        }
        for (i, page) in (excluded ?? []).enumerated() {
            try RangeCheck(base: "excluded", index: i).int(page.sourcePage, LayoutReportRanges.position, "sourcePage")
        }
    }
}

extension LayoutReport.Page {
    /// The numbers of one page record, under `check.path` (`pages[3]`).
    fileprivate func checkRanges(_ check: RangeCheck) throws {
        let ranges = LayoutReportRanges.self
        try check.int(index, ranges.position, "index")
        try check.int(sourcePage, ranges.position, "sourcePage")
        try check.int(orientation, ranges.orientation, "orientation")
        try check.int(width, ranges.pixelSide, "width")
        try check.int(height, ranges.pixelSide, "height")
        try check.number(aspectRatio, ranges.aspectRatio, "aspectRatio")
        if let quad { try check.corners(quad, "quad") }
        if let quadConfidence { try check.number(quadConfidence, ranges.share, "quadConfidence") }
        if let skewDegrees { try check.number(skewDegrees, ranges.skewDegrees, "skewDegrees") }
        if let crop { try check.rect(crop, ranges.pixelCoordinate, "crop") }
        if let edgeFill { try check.number(edgeFill, ranges.share, "edgeFill") }
        if let rotation { try check.quarterTurn(rotation, "rotation") }
        if let rotationConfidence { try check.number(rotationConfidence, ranges.finite, "rotationConfidence") }
        if let dpi {
            try check.number(dpi.x, ranges.dpi, "dpi.x")
            try check.number(dpi.y, ranges.dpi, "dpi.y")
        }
        if let previewSize { try check.size(previewSize, "previewSize") }
        if let thumbnailSize { try check.size(thumbnailSize, "thumbnailSize") }
        if let split {
            try check.int(split.count, ranges.splitCount, "split.count")
            try check.int(split.part, 1...split.count, "split.part")
            try check.rect(split.rect, ranges.pixelCoordinate, "split.rect")
        }
        if let text {
            if let mean = text.meanConfidence { try check.number(mean, ranges.meanConfidence, "text.meanConfidence") }
            try check.int(text.words, ranges.count, "text.words")
        }
        if let capture {
            try check.int(capture.width, ranges.pixelSide, "capture.width")
            try check.int(capture.height, ranges.pixelSide, "capture.height")
            try check.int(capture.sourceWidth, ranges.pixelSide, "capture.sourceWidth")
            try check.int(capture.sourceHeight, ranges.pixelSide, "capture.sourceHeight")
        }
        try checkCorrectedAndGeometry(check)
    }

    private func checkCorrectedAndGeometry(_ check: RangeCheck) throws {
        let ranges = LayoutReportRanges.self
        if let corrected {
            if let corners = corrected.corners { try check.corners(corners, "corrected.corners") }
            if let rotate = corrected.rotate { try check.quarterTurn(rotate, "corrected.rotate") }
            if case .at(let x)? = corrected.split { try check.number(x, ranges.share, "corrected.split") }
        }
        try check.rect(pager.frame, ranges.finite, "pager.frame")
        try check.rect(pager.mask, ranges.finite, "pager.mask")
        try check.number(pager.snapOffset, ranges.finite, "pager.snapOffset")
        try check.rect(strip.frame, ranges.finite, "strip.frame")
        try check.rect(strip.focusedFrame, ranges.finite, "strip.focusedFrame")
        try check.number(strip.snapOffset, ranges.finite, "strip.snapOffset")
    }
}

/// Checks values under one JSON path, throwing `LayoutReportRangeError` for the first outside.
/// Paths are spelled only for an error: a valid report of many pages builds no strings.
private struct RangeCheck {
    /// `pages`, `viewport`; with `index`, the array and the element's place in it.
    var base: String
    var index: Int? = nil

    var path: String { index.map { "\(base)[\($0)]" } ?? base }

    func int(_ value: Int, _ range: ClosedRange<Int>, _ field: @autoclosure () -> String) throws {
        guard !range.contains(value) else { return }
        let bounds =
            range.count == 1 ? "\(range.lowerBound)" : "an integer in \(range.lowerBound)...\(range.upperBound)"
        throw LayoutReportRangeError(path: path + "." + field(), reason: "expected \(bounds), found \(value)")
    }

    func number(_ value: Double, _ range: ClosedRange<Double>, _ field: @autoclosure () -> String) throws {
        guard value.isNaN || !range.contains(value) else { return }
        throw LayoutReportRangeError(
            path: path + "." + field(),
            reason: "expected \(LayoutReportRanges.text(range)), found \(LayoutReportRanges.number(value))")
    }

    func quarterTurn(_ value: Int, _ field: @autoclosure () -> String) throws {
        guard !LayoutReportRanges.quarterTurns.contains(value) else { return }
        throw LayoutReportRangeError(path: path + "." + field(), reason: "expected 0, 90, 180 or 270, found \(value)")
    }

    func rect(_ rect: LayoutReport.RectValue, _ range: ClosedRange<Double>, _ field: @autoclosure () -> String)
        throws
    {
        try number(rect.x, range, field() + ".x")
        try number(rect.y, range, field() + ".y")
        try number(rect.width, range, field() + ".width")
        try number(rect.height, range, field() + ".height")
    }

    func size(_ size: LayoutReport.PixelSizeValue, _ field: @autoclosure () -> String) throws {
        try int(size.width, LayoutReportRanges.pixelSide, field() + ".width")
        try int(size.height, LayoutReportRanges.pixelSide, field() + ".height")
    }

    /// Four `[x, y]` pixel points (a quad's corners).
    func corners(_ points: [[Double]], _ field: String) throws {
        guard points.count == 4 else {
            throw LayoutReportRangeError(
                path: path + "." + field, reason: "expected 4 corners, found \(points.count)")
        }
        for (i, point) in points.enumerated() {
            guard point.count == 2 else {
                throw LayoutReportRangeError(
                    path: path + ".\(field)[\(i)]", reason: "expected [x, y], found \(point.count) numbers")
            }
            try number(point[0], LayoutReportRanges.pixelCoordinate, "\(field)[\(i)][0]")
            try number(point[1], LayoutReportRanges.pixelCoordinate, "\(field)[\(i)][1]")
        }
    }
}
