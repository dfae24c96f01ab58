import VipsBridge

/// Flatbed scans: estimate the skew, rotate the page straight and trim the scanner lid.
///
/// Estimation works on a small grey copy (see `SkewEstimator`); the page rectangle is found on
/// a small copy rotated the same way, each edge refined on a thin strip of the full-size image
/// turned lazily in libvips with the lid colour as fill, and only the page itself is then
/// turned, at full size, by `turned` (the same pixels as libvips, several times cheaper).
enum ScanDeskew {
    /// Long side of the grey copy skew is estimated on.
    static let analysisLongSide = 1000
    /// Long side of the colour copy the page rectangle is found on.
    static let trimLongSide = 800

    /// Estimates the skew of a scan from a small (about 1000 px long side) 8-bit grey copy.
    static func estimateSkew(gray: [UInt8], width: Int, height: Int) -> SkewEstimate {
        StageProfile.measure("2b skew search") { SkewEstimator.estimate(gray: gray, width: width, height: height) }
    }

    /// Rotates the full-size page straight (clockwise by `skew.degrees` when positive) and trims the
    /// scanner background around the page; `crop` is in pixels of the rotated image, nil if untrimmed.
    ///
    /// The lid is the side colour least like the paper; the page box is found on an ~800 px
    /// copy turned like the page, each edge refined on a thin full-size strip. The returned
    /// page is in memory (only the crop is turned) and is cut from a rotation filled with the
    /// paper colour, so corners that ran off the glass read as paper. Pages without a
    /// lid are turned with the surrounding colour as fill and not trimmed. The image is read
    /// more than once, so it must allow random access (not a sequential load).
    /// - Complexity: O(pixels) for the analysis copy and the rotation; the analysis itself is
    ///   O(800 x 800) plus four strips a few pixels wide.
    /// - Parameter copy: the detection copy of `image` when the caller holds one (the trim copy is
    ///   then resampled from it when it is at least `trimLongSide` long and has `image`'s bands).
    /// - Parameter page: the page's own outline found by the detector (display pixels of
    ///   `image`), used when the lid cannot be told from the page by colour alone: a book on a
    ///   dark cloth with the page stack's fringe and a bookmark sticking out around it.
    /// - Parameter releasing: hands back rows of `image` (its frame's) that the page's turn no
    ///   longer reads, as it makes the page (see `turned`); nil to keep `image` whole.
    static func deskewAndTrim(
        _ image: VIPSImage, skew: SkewEstimate, page: Quad? = nil, copy: DetectionCopy? = nil,
        releasing: ((Range<Int>) -> Void)? = nil
    )
        throws -> (
            image: VIPSImage, crop: Rect?
        )
    {
        // Analysis and fill colours are 8-bit; other formats are made display-ready first.
        let image = image.format == .uchar ? image : try image.displayReady(keepGray: true)
        let degrees = skew.degrees.isFinite ? skew.degrees : 0
        let turn = abs(degrees) >= minimumTurn

        // The detection copy, when given, is the whole page already averaged down: resampled to
        // the trim copy's size it spares a second reading of the full-size page (docs/benchmarks.md,
        // "The scan path's second readings").
        let small = try StageProfile.measure("2g trim copy") { () throws -> VIPSImage in
            if let copy, copy.bands == image.bands, !image.hasAlpha, max(copy.width, copy.height) >= trimLongSide,
                abs(Double(copy.width) * copy.scaleX - Double(image.width)) <= copy.scaleX,
                abs(Double(copy.height) * copy.scaleY - Double(image.height)) <= copy.scaleY
            {
                let size = VIPSImage.fittedSize(width: image.width, height: image.height, inside: trimLongSide)
                let frame = try VIPSImage.fromPixels(
                    copy.pixels, width: copy.width, height: copy.height, bands: copy.bands)
                return try frame.resampled(toWidth: min(size.width, copy.width), height: min(size.height, copy.height))
            }
            return try image.analysisShrunk(toLongSide: trimLongSide).displayReady(keepGray: true).materialized()
        }
        let smallPixels = try small.pixelBytes()
        let lid = ScanTrim.lidColour(pixels: smallPixels, width: small.width, height: small.height, bands: small.bands)
        /// The lazy libvips rotation the edges are measured on (thin strips of it are computed).
        func rotate(_ fillColour: [Double]) throws -> VIPSImage {
            guard turn else { return image }
            return try image.rotated(
                degrees: degrees, background: fill(fillColour, forBands: image.bands, alpha: image.hasAlpha),
                interpolation: .bilinear)
        }
        /// The page: `crop` of the canvas turned with `fillColour` (nil: all of it), made now.
        func cut(_ fillColour: [Double], _ crop: (x: Int, y: Int, width: Int, height: Int)?) throws -> VIPSImage {
            try ScanDeskew.cut(image, degrees: degrees, fill: fillColour, crop: crop, releasing: releasing)
        }
        let canvas: (width: Int, height: Int) =
            turn
            ? PageTurn.canvas(width: image.width, height: image.height, degrees: degrees) : (image.width, image.height)

        let smallStraight = turn ? try turnedCopy(small, degrees: degrees, lid: lid) : small
        let pixels = turn ? try smallStraight.pixelBytes() : smallPixels
        // Made once: the page box and, without one, the ring around the detector's outline read them.
        let distances = ScanTrim.LidDistances(
            pixels: pixels, width: smallStraight.width, height: smallStraight.height, bands: smallStraight.bands,
            lid: lid)
        guard let distances,
            let (box, threshold) = ScanTrim.pageBox(distances),
            box.width * box.height * 2 >= small.width * small.height
        else {
            return try withoutLidBox(
                image, degrees: degrees, canvas: canvas, page: page, small: (small, smallPixels),
                straight: (smallStraight, pixels, distances), lid: lid, releasing: releasing)
        }
        // Edges are measured on the page turned with a lid-coloured fill; the page itself is
        // cut from one turned with a paper-coloured fill, so where the page ran off the glass
        // the missing corner reads as paper rather than as a wedge of lid.
        let straight = try rotate(lid)
        let paper = ScanTrim.paperColour(
            pixels: pixels, width: smallStraight.width, bands: smallStraight.bands, box: box)

        let sx = Double(straight.width) / Double(smallStraight.width)
        let sy = Double(straight.height) / Double(smallStraight.height)
        var rect = Rect(
            x: Double(box.x0) * sx, y: Double(box.y0) * sy,
            width: Double(box.width) * sx, height: Double(box.height) * sy)
        rect = try StageProfile.measure("2g trim edges") {
            try refine(
                rect, in: straight, lid: lid, threshold: threshold, scale: max(sx, sy), box: box,
                small: (smallStraight.width, smallStraight.height))
        }
        let x0 = max(0, Int(rect.minX.rounded())), y0 = max(0, Int(rect.minY.rounded()))
        let x1 = min(straight.width, Int(rect.maxX.rounded())), y1 = min(straight.height, Int(rect.maxY.rounded()))
        guard x1 - x0 >= 8, y1 - y0 >= 8 else { return (try cut(lid, nil), nil) }
        if x0 == 0, y0 == 0, x1 == straight.width, y1 == straight.height { return (try cut(lid, nil), nil) }
        let crop = Rect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
        return (try cut(paper, (x0, y0, x1 - x0, y1 - y0)), crop)
    }

    /// The trim copy turned by `degrees` with `lid` as fill, as libvips's bilinear
    /// `rotated(degrees:background:)` turns it: made by Quire's turn kernel (`PageTurn`: the same
    /// canvas and fill, a pixel now and then one level off) when the copy is 8-bit without alpha
    /// and `lid` has a value a band, else by libvips (`fill` would add an alpha value the libvips
    /// call was never given). The page box read from it was the same on the bench and real scans
    /// (docs/benchmarks.md, "The trim copy's turn in Quire's kernel").
    static func turnedCopy(_ small: VIPSImage, degrees: Double, lid: [Double]) throws -> VIPSImage {
        guard small.format == .uchar, !small.hasAlpha, lid.count == small.bands else {
            return try small.rotated(degrees: degrees, background: lid, interpolation: .bilinear)
        }
        return try turned(small, degrees: degrees, fill: lid, stage: "2k trim copy turn")
    }

    /// `deskewAndTrim` when no lid box was found on the small copy: the detector's `page`
    /// outline, turned with the page, when the lid lies around it (what lies outside it is cut
    /// away, and corners the turn brings in are paper); else the page turned inside its own size
    /// with what surrounds it as fill (paper, for PDF renders and scans that fill the frame).
    /// - Parameters:
    ///   - small: the ~800 px copy and its pixels; `straight`: the same turned by `degrees`,
    ///     with its distances to `lid` (nil when the copy is empty).
    private static func withoutLidBox(
        _ image: VIPSImage, degrees: Double, canvas: (width: Int, height: Int), page: Quad?,
        small: (image: VIPSImage, pixels: [UInt8]),
        straight: (image: VIPSImage, pixels: [UInt8], distances: ScanTrim.LidDistances?), lid: [Double],
        releasing: ((Range<Int>) -> Void)?
    ) throws -> (image: VIPSImage, crop: Rect?) {
        let scale = Double(image.width) / Double(small.image.width)
        let (turnedSmall, pixels, distances) = straight
        if let page, let rect = outline(of: page, turnedBy: degrees, in: image),
            rect.width * rect.height * 4 >= Double(image.width * image.height)
        {
            let box = ScanTrim.Box(
                x0: Int((rect.minX / scale).rounded()), y0: Int((rect.minY / scale).rounded()),
                x1: Int((rect.maxX / scale).rounded()), y1: Int((rect.maxY / scale).rounded()))
            let lidShare = distances.flatMap { ScanTrim.lidShareAround(box, distances: $0) }
            if (lidShare ?? 0) >= minimumLidAround {
                let paper = ScanTrim.paperColour(
                    pixels: pixels, width: turnedSmall.width, bands: turnedSmall.bands, box: box)
                let x0 = max(0, Int(rect.minX.rounded())), y0 = max(0, Int(rect.minY.rounded()))
                let x1 = min(canvas.width, Int(rect.maxX.rounded())),
                    y1 = min(canvas.height, Int(rect.maxY.rounded()))
                let crop = Rect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
                let made = try cut(
                    image, degrees: degrees, fill: paper, crop: (x0, y0, x1 - x0, y1 - y0), releasing: releasing)
                return (made, crop)
            }
        }
        let around = ScanTrim.borderColour(
            pixels: small.pixels, width: small.image.width, height: small.image.height,
            bands: small.image.bands)
        let centre = centred(canvas, width: image.width, height: image.height)
        let crop = centre.map { ($0.x, $0.y, $0.width, $0.height) }
        return (try cut(image, degrees: degrees, fill: around, crop: crop, releasing: releasing), centre?.rect)
    }

    /// `crop` of `image` turned by `degrees` with `fill` in the corners (nil: all of the
    /// canvas), made now; an angle under `minimumTurn` is not turned, only cropped (a view of
    /// `image`, so nothing is released then).
    private static func cut(
        _ image: VIPSImage, degrees: Double, fill: [Double], crop: (x: Int, y: Int, width: Int, height: Int)?,
        releasing: ((Range<Int>) -> Void)?
    ) throws -> VIPSImage {
        guard abs(degrees) >= minimumTurn else {
            guard let crop else { return image }
            return try image.cropped(x: crop.x, y: crop.y, width: crop.width, height: crop.height)
        }
        return try turned(image, degrees: degrees, fill: fill, crop: crop, releasing: releasing)
    }

    /// Skews under this many degrees are left unturned: they move a pixel by less than one across
    /// 10,000 px.
    static let minimumTurn = 0.005

    /// Share of the ring around a detected page outline that must look like the lid before the
    /// outline is used to trim (page07 of handwriting-ocr, a ledger on black cloth: 0.9).
    static let minimumLidAround = 0.6

    /// The box a page outline (display pixels of `image`) covers once the image is turned by
    /// `degrees` (clockwise when positive, about its centre, on a canvas grown to hold it, as
    /// `rotated(degrees:)` does): each side is the mean of its two turned corners, so a quad
    /// that is a rectangle up to the skew gives its own rectangle. Nil when it is degenerate.
    static func outline(of quad: Quad, turnedBy degrees: Double, in image: VIPSImage) -> Rect? {
        let (turn, canvas) = AffineTransform.turn(
            degrees: degrees, width: Double(image.width), height: Double(image.height))
        let turned = quad.corners.map { turn.apply(to: $0) }
        let left = (turned[0].x + turned[3].x) / 2, right = (turned[1].x + turned[2].x) / 2
        let top = (turned[0].y + turned[1].y) / 2, bottom = (turned[2].y + turned[3].y) / 2
        let x0 = max(0, left), y0 = max(0, top), x1 = min(canvas.width, right), y1 = min(canvas.height, bottom)
        guard x1 - x0 >= 8, y1 - y0 >= 8 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Turns a page that fills the frame straight inside its own size: no trimming, the corners
    /// that come in from outside the scan filled with the colour around the page (its paper).
    /// - Returns: the page, exactly `image`'s size, and the crop of the rotated canvas it is.
    /// - Parameter releasing: as for `deskewAndTrim`.
    static func deskewKeepingSize(
        _ image: VIPSImage, skew: SkewEstimate, releasing: ((Range<Int>) -> Void)? = nil
    ) throws -> (image: VIPSImage, crop: Rect?) {
        let image = image.format == .uchar ? image : try image.displayReady(keepGray: true)
        let degrees = skew.degrees.isFinite ? skew.degrees : 0
        guard abs(degrees) >= minimumTurn else { return (image, nil) }
        let around = try StageProfile.measure("2l border colour") { try borderColourOfTrimCopy(image) }
        let canvas = PageTurn.canvas(width: image.width, height: image.height, degrees: degrees)
        let centre = centred(canvas, width: image.width, height: image.height)
        let crop = centre.map { ($0.x, $0.y, $0.width, $0.height) }
        return (try turned(image, degrees: degrees, fill: around, crop: crop, releasing: releasing), centre?.rect)
    }

    /// `ScanTrim.borderColour` of `image`'s trim copy (`analysisShrunk(toLongSide: trimLongSide)`,
    /// display-ready) without making the whole copy: only its outer `borderRing` rows and columns
    /// are computed, lazily by libvips's shrink (the same bytes as Quire's), into an otherwise
    /// empty copy the colour reads nothing else of.
    static func borderColourOfTrimCopy(_ image: VIPSImage) throws -> [Double] {
        let small = try image.analysisShrunkLazily(toLongSide: trimLongSide).displayReady(keepGray: true)
        let (w, h, bands) = (small.width, small.height, small.bands)
        let ring = borderRing
        guard w >= 4 * ring, h >= 4 * ring else {
            let px = try small.materialized().pixelBytes()
            return ScanTrim.borderColour(pixels: px, width: w, height: h, bands: bands, ring: ring)
        }
        var px = [UInt8](repeating: 0, count: w * h * bands)
        let strips = [
            (0, 0, w, ring), (0, h - ring, w, ring), (0, ring, ring, h - 2 * ring), (w - ring, ring, ring, h - 2 * ring)
        ]
        for (x, y, sw, sh) in strips {
            let strip = try small.cropped(x: x, y: y, width: sw, height: sh).pixelBytes()
            let rowBytes = sw * bands
            for r in 0..<sh {
                let to = ((y + r) * w + x) * bands
                px.replaceSubrange(to..<(to + rowBytes), with: strip[(r * rowBytes)..<((r + 1) * rowBytes)])
            }
        }
        return ScanTrim.borderColour(pixels: px, width: w, height: h, bands: bands, ring: ring)
    }

    /// Rows and columns of the trim copy's edge the colour around a page filling the frame is
    /// the median of: a thin ring, the scan's own margin rather than the page's print.
    static let borderRing = 2

    /// The centre `width` x `height` of a turned canvas (rotation grows it about its centre),
    /// so a turned page keeps the size it was scanned at; nil when the canvas is no larger.
    static func centred(_ canvas: (width: Int, height: Int), width: Int, height: Int) -> (
        x: Int, y: Int, width: Int, height: Int, rect: Rect
    )? {
        guard canvas.width > width || canvas.height > height else { return nil }
        let w = min(width, canvas.width), h = min(height, canvas.height)
        let x0 = (canvas.width - w) / 2, y0 = (canvas.height - h) / 2
        return (x0, y0, w, h, Rect(x: Double(x0), y: Double(y0), width: Double(w), height: Double(h)))
    }

    /// The lid colour as a fill for an image with `bands` bands (grey, RGB, with alpha).
    static func fill(_ lid: [Double], forBands bands: Int, alpha: Bool) -> [Double] {
        let colourBands = bands - (alpha ? 1 : 0)
        var values: [Double]
        if colourBands == lid.count {
            values = lid
        } else if colourBands == 1 {
            values = [lid.reduce(0, +) / Double(max(1, lid.count))]
        } else {
            values = [Double](repeating: lid.first ?? 255, count: colourBands)
        }
        if alpha { values.append(255) }
        return values
    }

    /// Refines each edge of `rect` (full-size pixels) on a thin strip of the full-size image:
    /// the edge sits where the mean distance to the lid colour crosses `threshold`.
    /// Sides where the page meets the canvas edge stay there.
    static func refine(
        _ rect: Rect, in image: VIPSImage, lid: [Double], threshold: Double, scale: Double,
        box: ScanTrim.Box, small: (width: Int, height: Int)
    ) throws -> Rect {
        let reach = Int((scale * 2).rounded(.up)) + 2
        var minX = rect.minX, maxX = rect.maxX, minY = rect.minY, maxY = rect.maxY
        // Sample the middle half of each edge, away from corners and the page's fill triangles.
        let spanX = (Int(rect.minX + rect.width / 4), Int(rect.width / 2))
        let spanY = (Int(rect.minY + rect.height / 4), Int(rect.height / 2))
        func profile(x: Int, y: Int, width: Int, height: Int, alongX: Bool) throws -> [Double]? {
            let x = max(0, x), y = max(0, y)
            let w = min(width, image.width - x), h = min(height, image.height - y)
            guard w > 2, h > 2 else { return nil }
            let strip = try image.cropped(x: x, y: y, width: w, height: h).displayReady(keepGray: true)
            let px = try strip.pixelBytes()
            let d = ScanTrim.distances(
                pixels: px, count: w * h, bands: strip.bands,
                colour: fill(lid, forBands: strip.bands, alpha: false))
            if alongX {  // one value per column
                return (0..<w).map { cx in (0..<h).reduce(0.0) { $0 + Double(d[$1 * w + cx]) } / Double(h) }
            }
            return (0..<h).map { cy in (0..<w).reduce(0.0) { $0 + Double(d[cy * w + $1]) } / Double(w) }
        }
        /// Sub-pixel position (pixel edges at integers, relative to the strip start) where the
        /// profile first rises through `threshold`, walking in from the start or from the end.
        func crossing(_ v: [Double], fromStart: Bool) -> Double? {
            let idx = fromStart ? Array(v.indices) : Array(v.indices.reversed())
            guard idx.count >= 2 else { return nil }
            for k in 1..<idx.count where v[idx[k - 1]] < threshold && v[idx[k]] >= threshold {
                let a = v[idx[k - 1]], b = v[idx[k]]
                let f = (threshold - a) / (b - a)
                // Interpolate between the lid pixel's centre and the page pixel's centre.
                return Double(idx[k - 1]) + (fromStart ? f : -f) + 0.5
            }
            return nil
        }
        if box.x0 > 0,
            let v = try profile(x: Int(minX) - reach, y: spanY.0, width: 2 * reach, height: spanY.1, alongX: true),
            let c = crossing(v, fromStart: true)
        {
            minX = Double(max(0, Int(minX) - reach)) + c
        }
        if box.x1 < small.width,
            let v = try profile(x: Int(maxX) - reach, y: spanY.0, width: 2 * reach, height: spanY.1, alongX: true),
            let c = crossing(v, fromStart: false)
        {
            maxX = Double(max(0, Int(maxX) - reach)) + c
        }
        if box.y0 > 0,
            let v = try profile(x: spanX.0, y: Int(minY) - reach, width: spanX.1, height: 2 * reach, alongX: false),
            let c = crossing(v, fromStart: true)
        {
            minY = Double(max(0, Int(minY) - reach)) + c
        }
        if box.y1 < small.height,
            let v = try profile(x: spanX.0, y: Int(maxY) - reach, width: spanX.1, height: 2 * reach, alongX: false),
            let c = crossing(v, fromStart: false)
        {
            maxY = Double(max(0, Int(maxY) - reach)) + c
        }
        guard maxX - minX > rect.width / 2, maxY - minY > rect.height / 2 else { return rect }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// A small 8-bit grey copy of `image` (Rec. 601 luma of sRGB) fitting in `longSide`.
    static func smallGray(_ image: VIPSImage, longSide: Int) throws -> (gray: [UInt8], width: Int, height: Int) {
        let small = try image.analysisShrunk(toLongSide: longSide).displayReady(keepGray: true)
        let px = try small.pixelBytes()
        let n = small.width * small.height
        let bands = small.bands
        if bands == 1 { return (px, small.width, small.height) }
        var gray = [UInt8](repeating: 0, count: n)
        px.withUnsafeBufferPointer { p in
            gray.withUnsafeMutableBufferPointer { g in
                for i in 0..<n {
                    let r = Int(p[i * bands]), gg = Int(p[i * bands + 1]), b = Int(p[i * bands + 2])
                    g[i] = UInt8((299 * r + 587 * gg + 114 * b + 500) / 1000)
                }
            }
        }
        return (gray, small.width, small.height)
    }
}
