#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the page quadrilateral in a photo from its 8-bit pixels.
///
/// Why not the classic recipe (Canny, largest contour, approxPolyDP)? A contour breaks as soon as
/// one side of the page fades into a light background, a shadow or a cluttered desk, and the
/// largest contour is often a clutter object. Instead the detector works with straight lines and
/// scores whole quads:
/// 1. a smoothed copy of about 480 px on the long side and its colour gradient (the channel with
///    the strongest Sobel response, so a white page on a green or grey desk still has an edge);
/// 2. thin edges (non-maximum suppression, noise-adaptive threshold) vote in a Hough space
///    restricted to each pixel's gradient direction, so textured backgrounds spread their votes;
/// 3. the strongest lines are re-fitted to their edge pixels, and each gets a support profile
///    (how much aligned gradient lies under it, per unit length, per polarity) with prefix sums;
/// 4. every pair of near-parallel line pairs makes a candidate quad, scored in O(1) by how much
///    of each side is supported with one consistent polarity (page brighter or darker than its
///    surroundings), weighted mildly by area; no quad is returned unless all four sides hold;
/// 5. each side of the winner is re-measured on the ~1000 px copy (sub-pixel gradient peaks
///    along its normal, robust line fit) and the corners are the intersections.
package struct PageDetector: Sendable {
    /// Long side of the smoothed working copy for line search.
    var workingLongSide = 480
    /// Lines kept from the Hough space.
    var maxLines = 36
    /// Lowest confidence for which a quad is reported (all four sides well supported: real
    /// pages score about 1, stray structures such as text blocks in a scan about 0.6).
    package var minConfidence = 0.75
    /// The fitted verifier that chooses among every generator's candidates (issue 36), or nil
    /// for the hand-set rules alone.
    package var verifier: PageVerifier? = nil

    /// A detector with the default settings, choosing with `verifier` when one is given.
    package init(verifier: PageVerifier? = nil) { self.verifier = verifier }

    /// A straight line `nx·x + ny·y = c` with a unit normal.
    package struct Line: Equatable {
        package var nx: Double, ny: Double, c: Double
        var angle: Double { atan2(ny, nx) }
        func distance(_ x: Double, _ y: Double) -> Double { nx * x + ny * y - c }
        /// Signed distance of `p` from the line: positive on the side its normal points to.
        func distance(to p: Point) -> Double { distance(p.x, p.y) }
        /// Where the line meets `o`, or nil when the two are parallel.
        func intersection(_ o: Line) -> Point? {
            let det = nx * o.ny - ny * o.nx
            guard abs(det) > 1e-9 else { return nil }
            return Point(x: (c * o.ny - ny * o.c) / det, y: (nx * o.c - c * o.nx) / det)
        }
    }

    /// Detects the page in an interleaved 8-bit image (1 band grey, 3 or 4 bands colour): the
    /// one decision (`decide`), as `quire detect` and `quire process` report it.
    /// - Returns: the quad in the given image's pixels, or `.none` with a low confidence.
    /// - Complexity: O(pixels) for the working copy plus O(L⁴) cheap checks over the L ≤ 36
    ///   strongest lines.
    package func detect(pixels: [UInt8], width: Int, height: Int, bands: Int) -> PageDetection {
        decide(pixels: pixels, width: width, height: height, bands: bands).detection
    }

    /// The rules' decision; `front` keeps the lines and quads they chose from, for the verifier.
    func detectCore(
        pixels: [UInt8], width: Int, height: Int, bands: Int, front: inout DetectionFront?
    ) -> (PageDetection, Bool) {
        guard width >= 16, height >= 16, bands >= 1, pixels.count >= width * height * bands else {
            return (.none, true)
        }
        let longSide = max(width, height)
        let factor = max(1, Int((Double(longSide) / Double(workingLongSide)).rounded()))
        var work = WorkImage(pixels: pixels, width: width, height: height, bands: bands, factor: factor)
        work.blur()
        work.computeGradient()
        let lines = work.findLines(maxLines: maxLines)
        guard lines.count >= 4 else { return (.none, true) }
        // Measured once: the quads, the band running off the frame and the frame-side candidates
        // all read the same lines' profiles.
        let supports = lines.map { work.support(for: $0) }
        let candidates = work.quadCandidates(lines: lines, supports: supports, keep: 400)
        let scale = Double(factor)
        front = DetectionFront(work: work, lines: lines, supports: supports, candidates: candidates, scale: scale)
        var best = candidates.first.map { first -> QuadCandidate in
            // The page is the paper: a printed frame (a bank note's border, a form's outer rule)
            // has a thin band of the same paper just outside it; the sheet's own edge is then a
            // candidate around it.
            let sheet = pixels.withUnsafeBufferPointer { px in
                self.paperAround(
                    first, candidates: candidates, pixels: px, width: width, height: height,
                    bands: bands, scale: scale)
            }
            // A fold or a rule across the page is not the page's edge: its sides run on past it.
            let checked = Self.checkedForLinesAcross(
                sheet, on: work, candidates: candidates, fullWidth: width,
                fullHeight: height, scale: scale, minConfidence: minConfidence)
            front?.sheet = sheet
            front?.checked = checked
            return checked
        }
        // Nothing four-sided, or a page already found running off one edge of the frame: it
        // may run off two (a receipt whose first line of print closed a quad at the top).
        let sure = best.flatMap { $0.confidence >= minConfidence ? $0 : nil }
        func band() -> QuadCandidate? {
            let found = pixels.withUnsafeBufferPointer {
                frameBand(
                    lines: lines, supports: supports, on: work, pixels: $0, width: width, height: height, bands: bands,
                    scale: scale)
            }
            front?.band = .some(found)
            return found
        }
        var bandTried = false
        if sure.map({ Self.runsOffFrame($0, width: width, height: height, scale: scale) }) ?? true {
            bandTried = true
            if let band = band(), sure.map({ Self.area(band) > Self.area($0) }) ?? true { best = band }
        }
        guard let best, best.confidence >= minConfidence else {
            return (PageDetection(quad: nil, confidence: best?.confidence ?? 0), true)
        }
        let found = finished(
            best, pixels: pixels, width: width, height: height, bands: bands, scale: scale, known: front?.refinedSides)
        // A table or a column printed on a page whose edges run off the frame: the page may
        // still be the band between its edges, holding what was printed on it.
        if found.printedOnPaper, !bandTried, let band = band(), Self.holds(band, best) {
            let second = finished(
                band, pixels: pixels, width: width, height: height, bands: bands, scale: scale,
                known: front?.refinedSides)
            if !second.printedOnPaper { return (second.detection, second.insideBrighter) }
        }
        return (found.detection, found.insideBrighter)
    }

    /// Whether the quad of `outer` holds nearly all of the quad of `inner` (working-copy lines):
    /// their shared area is at least `share` of the inner one's.
    static func holds(_ outer: QuadCandidate, _ inner: QuadCandidate, share: Double = 0.9) -> Bool {
        guard let around = corners(of: outer.lines), let within = corners(of: inner.lines) else { return false }
        let (big, small) = (quad(around), quad(within))
        guard big.isConvex, small.isConvex, small.area > 0 else { return false }
        let iou = big.intersectionOverUnion(with: small)
        let shared = iou * (big.area + small.area) / (1 + iou)
        return shared >= share * small.area
    }

    /// `candidate` (working-copy lines) refined on the full image and checked: a quad with paper
    /// on both sides of its edges is printed on the page (`printedOnPaper`, no quad returned).
    /// `known`, when given, holds the sides refined on `pixels` before.
    private func finished(
        _ best: QuadCandidate, pixels: [UInt8], width: Int, height: Int, bands: Int,
        scale: Double, known: RefinedSides? = nil
    ) -> (detection: PageDetection, insideBrighter: Bool, printedOnPaper: Bool) {
        let confidence = best.confidence
        // Back to full pixels of the given image and refine each side there.
        var sides = best.lines.map { Self.fullScale($0, scale: scale) }
        pixels.withUnsafeBufferPointer { pixels in
            let refiner = SideRefiner(
                field: InterleavedField(pixels: pixels, width: width, height: height, bands: bands))
            for _ in 0..<2 {
                let corners = Self.corners(of: sides)
                guard let corners else { break }
                for i in 0..<4 {
                    let a = corners[(i + 3) % 4], b = corners[i]
                    // A side on the frame's edge (a page running off it) has no edge to find.
                    if Self.isOnFrame(a, b, width: width, height: height) {
                        continue
                    }
                    let found =
                        if let known {
                            known.side(
                                sides[i], from: a, to: b, insideBrighter: best.insideBrighter,
                                centroid: Self.centroid(corners), searchRadius: scale * 2 + 2, refiner: refiner)
                        } else {
                            refiner.refine(
                                sides[i], from: a, to: b, insideBrighter: best.insideBrighter,
                                centroid: Self.centroid(corners), searchRadius: scale * 2 + 2)
                        }
                    if let refined = found { sides[i] = refined }
                }
            }
        }
        guard let corners = Self.corners(of: sides) else { return (.none, true, false) }
        let quad = Self.quad(corners)
        guard quad.isFinite, quad.isConvex else {
            return (PageDetection(quad: nil, confidence: confidence * 0.5), true, false)
        }
        // A quad with paper on both sides of its edges is printed on the page: keep the frame.
        let insidePaper = pixels.withUnsafeBufferPointer {
            Self.liesInsidePaper(quad, pixels: $0, width: width, height: height, bands: bands)
        }
        guard !insidePaper else { return (PageDetection(quad: nil, confidence: min(confidence, 0.3)), true, true) }
        // A frame printed on the sheet with no candidate at the sheet's edge: grown out to it.
        let sheet = pixels.withUnsafeBufferPointer {
            Self.grownToPaper(quad, pixels: $0, width: width, height: height, bands: bands)
        }
        return (PageDetection(quad: sheet.readingOrdered(), confidence: confidence), best.insideBrighter, false)
    }

    /// Re-measures the sides of `quad` on a larger image (the full page), each within
    /// `searchRadius` pixels of where it is now, and returns the refined quad; sides without a
    /// clear edge keep their position, and a result that moved too far is discarded. The quad is
    /// in continuous coordinates (the image spans 0...width, pixel centres at +0.5).
    /// - Complexity: O(side length x searchRadius) per side, a few thousand samples.
    package static func refine(
        _ quad: Quad, pixels: [UInt8], width: Int, height: Int, bands: Int,
        insideBrighter: Bool, searchRadius: Double
    ) -> Quad {
        pixels.withUnsafeBufferPointer {
            refine(
                quad, pixels: $0, width: width, height: height, bands: bands, insideBrighter: insideBrighter,
                searchRadius: searchRadius)
        }
    }

    /// The same on borrowed pixels (a decoded frame).
    package static func refine(
        _ quad: Quad, pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bands: Int,
        insideBrighter: Bool, searchRadius: Double
    ) -> Quad {
        refine(
            quad, on: InterleavedField(pixels: pixels, width: width, height: height, bands: bands),
            insideBrighter: insideBrighter, searchRadius: searchRadius)
    }

    /// The same on any image (interleaved pixels or YCbCr planes).
    /// `known`, when given, holds the sides refined on `field` before (the candidates of one
    /// decision share sides).
    package static func refine<Field: IntensityField>(
        _ quad: Quad, on field: Field,
        insideBrighter: Bool, searchRadius: Double, known: RefinedSides? = nil
    ) -> Quad {
        let c = quad.corners.map { Point(x: $0.x - 0.5, y: $0.y - 0.5) }
        func line(_ a: Point, _ b: Point) -> Line {
            let dx = b.x - a.x, dy = b.y - a.y
            let len = (dx * dx + dy * dy).squareRoot()
            let nx = -dy / len, ny = dx / len
            return Line(nx: nx, ny: ny, c: nx * a.x + ny * a.y)
        }
        // Side i runs from corner i to corner i+1; corners(of:) returns side i ∩ side i+1 = corner i+1.
        var sides = (0..<4).map { line(c[$0], c[($0 + 1) % 4]) }
        let refiner = SideRefiner(field: field)
        let centre = centroid(c)
        for i in 0..<4 {
            let (a, b) = (c[i], c[(i + 1) % 4])
            if isOnFrame(a, b, width: field.width, height: field.height) {
                continue
            }
            let found =
                if let known {
                    known.side(
                        sides[i], from: c[i], to: c[(i + 1) % 4], insideBrighter: insideBrighter,
                        centroid: centre, searchRadius: searchRadius, refiner: refiner)
                } else {
                    refiner.refine(
                        sides[i], from: c[i], to: c[(i + 1) % 4], insideBrighter: insideBrighter,
                        centroid: centre, searchRadius: searchRadius)
                }
            if let refined = found {
                sides[i] = refined
            }
        }
        guard let meets = corners(of: sides) else { return quad }
        let refined = Quad(
            corners: (0..<4).map {
                let p = meets[($0 + 3) % 4]; return Point(x: p.x + 0.5, y: p.y + 0.5)
            })!
        guard refined.isFinite, refined.isConvex, refined.worstCornerDistance(to: quad) <= 1.5 * searchRadius else {
            return quad
        }
        return refined
    }

    /// Corners where consecutive sides meet: corner i is side i-1 ∩ side i... ordered so that
    /// corner i joins sides i and i+1.
    /// A line of the working copy in pixels of the given image: x_full = (x_small + 0.5)·scale − 0.5
    /// for pixel-centre coordinates.
    static func fullScale(_ line: Line, scale: Double) -> Line {
        Line(nx: line.nx, ny: line.ny, c: (line.c + 0.5 * (line.nx + line.ny)) * scale - 0.5 * (line.nx + line.ny))
    }

    static func corners(of sides: [Line]) -> [Point]? {
        var out: [Point] = []
        for i in 0..<4 {
            guard let p = sides[i].intersection(sides[(i + 1) % 4]), p.x.isFinite, p.y.isFinite else { return nil }
            out.append(p)
        }
        return out
    }

    /// The quad through four corners in order (as `corners(of:)` gives them).
    static func quad(_ corners: [Point]) -> Quad {
        Quad(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
    }

    /// The mean of `points` (their centroid as a vertex set, not as an area).
    static func centroid(_ points: [Point]) -> Point {
        Point(
            x: points.reduce(0) { $0 + $1.x } / Double(points.count),
            y: points.reduce(0) { $0 + $1.y } / Double(points.count))
    }
}

/// The best candidate: four lines in cyclic order and its scores.
struct QuadCandidate {
    var lines: [PageDetector.Line]
    var confidence: Double
    var insideBrighter: Bool
    var score: Double
}
