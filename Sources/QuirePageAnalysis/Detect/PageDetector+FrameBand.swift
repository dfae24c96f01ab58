#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import QuireGeometry

/// A page running off one or two opposite edges of the frame.
///
/// A receipt photographed close up, or a book page with the frame cutting its head and foot,
/// shows only two or three of its edges: no quad of four lines holds it, so the detector kept
/// the whole frame (pinned by
/// `PageDetectorFrameBandTests.aReceiptRunningOffTopAndBottomIsTheBandBetweenItsEdges`). The
/// visible part of such a page is the band between its two edges, closed by the frame. Two straight lines with something bright
/// between them are common in any photo (a door, a table's legs, rules on a form), so the band
/// is taken only when the pixels say it is paper running off the frame:
/// - both lines are well supported with the brighter side inside, up to the frame's edge (the
///   band may be closed short of one frame edge by a third line, a receipt's torn end);
/// - just outside each line is not paper (darker or more coloured than the band's paper) along
///   most of its length, so neither is a line printed on the page (a table's rule, a column);
///   where paper lies beyond (the sheets beneath, a page stack), the level still steps down
///   across the line at most points along it, which a rule printed on the page does not do;
/// - the paper touches the frame along both frame edges: the page runs off there.
/// It is only looked for when no four-sided page was found (or the one found runs off the frame
/// already, or was printed on the page, like a table's ruled box, and the band holds it), and its
/// confidence stays just over `minConfidence`: two edges seen, two inferred.
extension PageDetector {
    /// Confidence of a band closed by the frame.
    static let frameBandConfidence = 0.8
    /// Least support of each of the band's two lines (share of its length, brighter inside).
    static let frameBandMinimumSupport = 0.6
    /// Least width of the band at both frame edges, as a share of the frame's width across it.
    static let frameBandMinimumWidth = 0.15
    /// A band covering more of the frame than this is kept as the whole frame: the crop would
    /// change little and the risk would not pay.
    static let frameBandMaximumArea = 0.92
    /// Least share of each line's outside that is not paper.
    static let frameBandMinimumStep = 0.75
    /// Least step in level from just inside an edge to just outside it where paper lies beyond.
    static let frameBandShadeStep = 8
    /// Least share of each frame edge, between the lines, that is paper.
    static let frameBandMinimumContact = 0.5
    /// How much of each edge's length nearest the frame's edge must be supported, as a share
    /// of the edge: a page's edges run on to where the frame cuts the page.
    static let frameBandReach = 0.1
    /// How far short of the frame's edge the paper may stop, as a share of the long side.
    static let frameBandMaximumGap = 0.03
    /// Least area of a band, as a share of the working copy: anything narrower is print.
    static let frameBandMinimumArea = 0.1
    /// Least |cosine| between a band's line and the frame's axis it runs along (within 30
    /// degrees), and between a closing line and the axis across.
    static let frameBandLineTilt = 0.866
    /// How far (working-copy pixels) a band's corner may lie beyond the frame's edge.
    static let frameBandCornerSlack = 0.5
    /// How many of the best-scoring bands are checked on the full image's pixels.
    static let frameBandPixelChecks = 20
    /// Darkest the band's paper may be (its upper-quartile level, 0-255) to count as paper.
    static let frameBandLeastPaperLevel = 120
    /// Most coloured the band's paper may be (max - min channel) to count as paper.
    static let frameBandMostPaperSaturation = 40
    /// How much darker than the band's paper a point may be and still be the paper (in shadow,
    /// or with print on it).
    static let frameBandShadow = 30
    /// How much more coloured than the band's paper a point may be and still be the paper.
    static let frameBandColourTolerance = 20
    /// Points sampled along each side of the band.
    static let frameBandSamples = 25
    /// Share of each side's length left out at both ends when sampling (its blurred corners).
    static let frameBandSampleInset = 0.06
    /// Least share of a side's samples that must land on the image for the side to be judged.
    static let frameBandSeenShare = 2.0 / 3.0
    /// How far outside (and inside) a side its surroundings are sampled, as a share of the long side.
    static let frameBandProbe = 0.015
    /// How much more coloured than the paper the surroundings must be for greyness alone to
    /// tell the paper (in shadow) from them.
    static let frameBandColouredSurroundings = 15
    /// Darkest a grey point touching the frame may be and still be paper in shadow.
    static let frameBandDarkestShadedPaper = 60
    /// Half-width of the sampling across each point along a frame edge, as a share of the long
    /// side (letters of a line of print are as wide).
    static let frameBandContactSpread = 0.0025
    /// The samples across each point along a frame edge, in steps of `frameBandContactSpread`:
    /// one of them on paper is enough.
    static let frameBandContactOffsets = -2...2
    /// Depth (pixels) of the first row sampled inside a frame edge: just in, past its
    /// half-pixel border.
    static let frameBandContactPixels = 2.0
    /// Further depths sampled inside a frame edge, as shares of the long side (with
    /// `frameBandMaximumGap`, the deepest).
    static let frameBandContactDepths = [0.01, 0.02]
    /// Where a band's paper is sampled, across and along it (a grid clear of its sides).
    static let bandPaperGrid = Array(stride(from: 0.1, through: 0.9, by: 0.1))
    /// Least grid points on the image for a band's paper to be judged.
    static let bandPaperMinimumSamples = 40
    /// Share of a band's samples taken as its paper's level (the lighter ones: print is darker).
    static let bandPaperLightShare = 0.75
    /// How far (pixels) a segment may lie from the frame's edge and still be on it.
    static let onFrameTolerance = 1.0

    /// The best band of paper between two of `lines` running off one or two opposite frame
    /// edges, as a candidate of four lines (one or two of them the frame's edges, in
    /// working-copy pixel centres), or nil when none passes the paper checks.
    /// - Complexity: O(L³) cheap checks for the L ≤ 36 lines, then O(1) pixel samples for the
    ///   best 20 bands.
    /// - Parameter supports: `work.support(for:)` of each of `lines`, when already measured.
    func frameBand(
        lines: [Line], supports measured: [LineSupport]? = nil, on work: WorkImage, pixels: UnsafeBufferPointer<UInt8>,
        width: Int, height: Int, bands: Int, scale: Double
    ) -> QuadCandidate? {
        let (w, h) = (Double(work.width), Double(work.height))
        let frameW = Double(width) / scale - 0.5, frameH = Double(height) / scale - 0.5
        let supports = measured ?? lines.map { work.support(for: $0) }
        var found: [QuadCandidate] = []
        for across in [true, false] {
            // `across`: lines running top to bottom, the band closed by the top and bottom edges.
            let near = Line(nx: 0, ny: 1, c: -0.5), far = Line(nx: 0, ny: 1, c: frameH)
            let nearX = Line(nx: 1, ny: 0, c: -0.5), farX = Line(nx: 1, ny: 0, c: frameW)
            let (first, second) = across ? (near, far) : (nearX, farX)
            let extent = across ? w : h
            let upright = lines.indices.filter {
                abs(across ? lines[$0].nx : lines[$0].ny) >= Self.frameBandLineTilt
            }
            /// Where line `i` meets the two frame edges, along them: at the near edge, at the far one.
            func ends(_ i: Int) -> [Double]? {
                guard let a = lines[i].intersection(first), let b = lines[i].intersection(second) else { return nil }
                let (pa, pb) = across ? (a.x, b.x) : (a.y, b.y)
                let limit = across ? frameW : frameH
                guard pa >= -0.5, pa <= limit, pb >= -0.5, pb <= limit else { return nil }
                return [pa, pb]
            }
            // Lines across the band that may close it short of the frame (a torn receipt's end).
            let crossing = lines.indices.filter {
                abs(across ? lines[$0].ny : lines[$0].nx) >= Self.frameBandLineTilt
            }
            for i in upright {
                guard let ei = ends(i) else { continue }
                for j in upright where j != i {
                    guard let ej = ends(j), ej[0] > ei[0], ej[1] > ei[1],
                        min(ej[0] - ei[0], ej[1] - ei[1]) >= Self.frameBandMinimumWidth * extent
                    else { continue }
                    // Closed by the frame's edges, or at one end by a line across.
                    let closings: [(Int?, Int?)] =
                        [(nil, nil)] + crossing.flatMap { [($0, nil), (nil, $0)] as [(Int?, Int?)] }
                    for (atNear, atFar) in closings {
                        // Sides in cyclic order (corner k joins sides k and k+1): line i, the
                        // near closing, line j, the far closing; nil for the frame's edge.
                        let indices: [Int?] = across ? [i, atNear, j, atFar] : [atNear, i, atFar, j]
                        let frameEdges = across ? [nil, near, nil, far] : [nearX, nil, farX, nil]
                        let sides = (0..<4).map { k in indices[k].map { lines[$0] } ?? frameEdges[k]! }
                        guard let corners = Self.corners(of: sides) else { continue }
                        let outline = Self.quad(corners)
                        let areaFraction = outline.area / (w * h)
                        guard areaFraction <= Self.frameBandMaximumArea, areaFraction >= Self.frameBandMinimumArea,
                            outline.isConvex, corners.allSatisfy({ Self.isInFrame($0, width: frameW, height: frameH) })
                        else { continue }
                        let centre = Self.centroid(corners)
                        /// Support of line `k` with the brighter side inside over the share
                        /// `from`...`to` of its length between its corners.
                        func support(_ k: Int, _ from: Double = 0, _ to: Double = 1) -> Double {
                            let s = supports[indices[k]!]
                            let a = corners[(k + 3) % 4], b = corners[k]
                            let (ta, tb) = (s.parameter(a), s.parameter(b))
                            let inwardBrighter = s.line.distance(to: centre) > 0
                            return s.coverage(ta + (tb - ta) * from, ta + (tb - ta) * to, positive: inwardBrighter)
                        }
                        let lineSides = (0..<4).filter { indices[$0] != nil }
                        let cover = lineSides.map { support($0) }
                        guard let least = cover.min(), least >= Self.frameBandMinimumSupport else { continue }
                        // A page runs off the frame: its edges meeting the frame's edge reach it.
                        let reach = Self.frameBandReach
                        let reachFrame = lineSides.allSatisfy { k in
                            (indices[(k + 3) % 4] != nil || support(k, 0, reach) >= Self.frameBandMinimumSupport)
                                && (indices[(k + 1) % 4] != nil
                                    || support(k, 1 - reach, 1) >= Self.frameBandMinimumSupport)
                        }
                        guard reachFrame else { continue }
                        let mean = cover.reduce(0, +) / Double(cover.count)
                        found.append(
                            QuadCandidate(
                                lines: sides, confidence: Self.frameBandConfidence, insideBrighter: true,
                                score: mean * mean * pow(areaFraction, WorkImage.scoreAreaExponent)))
                    }
                }
            }
        }
        for band in found.sorted(by: { $0.score > $1.score }).prefix(Self.frameBandPixelChecks) {
            guard let corners = Self.corners(of: band.lines.map { Self.fullScale($0, scale: scale) }) else {
                continue
            }
            let quad = Self.quad(corners)
            if quad.isFinite, quad.isConvex,
                Self.isPaperRunningOff(quad, pixels: pixels, width: width, height: height, bands: bands)
            {
                return band
            }
        }
        return nil
    }

    /// Whether `p` lies inside the frame whose far edges are at `width` and `height` (working-copy
    /// pixel centres; the near edges at -0.5), to within `frameBandCornerSlack`.
    static func isInFrame(_ p: Point, width: Double, height: Double) -> Bool {
        let slack = frameBandCornerSlack
        return p.x >= -0.5 - slack && p.x <= width + slack && p.y >= -0.5 - slack && p.y <= height + slack
    }

    /// Whether `quad` (one side, or two opposite sides, on the frame's edges) is paper running
    /// off the frame: its other sides have no paper just outside, and the paper reaches the
    /// frame's edges (to within `frameBandMaximumGap`: a torn receipt's end just short of one).
    static func isPaperRunningOff(
        _ quad: Quad, pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
        bands: Int
    ) -> Bool {
        guard let sides = quad.sides else { return false }
        let longSide = Double(max(width, height))
        let onFrame = sides.map { isOnFrame($0.start, $0.start + $0.step, width: width, height: height) }
        guard (1...2).contains(onFrame.filter({ $0 }).count),
            let reference = bandPaper(quad, pixels: pixels, width: width, height: height, bands: bands),
            reference.light >= frameBandLeastPaperLevel, reference.saturation <= frameBandMostPaperSaturation
        else { return false }
        /// Paper, print on it included: as light as the paper less a shadow, not more coloured.
        func isPaper(_ v: (level: Int, saturation: Int)) -> Bool {
            v.level >= reference.light - frameBandShadow
                && v.saturation <= reference.saturation + frameBandColourTolerance
        }
        let steps = frameBandSamples
        let inset = frameBandSampleInset
        let ts = (0..<steps).map { inset + (1 - 2 * inset) * Double($0) / Double(steps - 1) }
        /// Whether enough of a side's samples lie on the image to judge it.
        func enough(_ seen: Int) -> Bool { Double(seen) >= frameBandSeenShare * Double(steps) }
        // Just outside each line: not paper, for most of its length.
        var outside: [(level: Int, saturation: Int)] = []
        for (k, side) in sides.enumerated() where !onFrame[k] {
            let seen = ts.compactMap { t -> (level: Int, saturation: Int)? in
                let p = side.point(at: t, out: frameBandProbe * longSide)
                return sample(pixels, p.x, p.y, width: width, height: height, bands: bands)
            }
            guard enough(seen.count) else { return false }
            if Double(seen.filter { !isPaper($0) }.count) < frameBandMinimumStep * Double(seen.count) {
                // Paper beyond paper (the sheets beneath, a page stack): the edge is still a
                // step down in shade at each point along it.
                func level(_ t: Double, _ out: Double) -> Int? {
                    let p = side.point(at: t, out: out * longSide)
                    return sample(pixels, p.x, p.y, width: width, height: height, bands: bands)?.level
                }
                let stepped = ts.filter { t in
                    guard let inner = level(t, -frameBandProbe), let outer = level(t, frameBandProbe) else {
                        return false
                    }
                    return inner - outer >= frameBandShadeStep
                }
                guard Double(stepped.count) >= frameBandMinimumStep * Double(seen.count) else { return false }
            }
            outside += seen
        }
        // Paper reaching the frame, between the letters of a line of print: nearer the paper's
        // level than the surroundings', or as grey as the paper where the surroundings are
        // coloured (a receipt's end in shadow on wood is as dark as the wood, not as brown).
        let surroundings = outside.map(\.level).sorted()[outside.count / 2]
        let surroundingSaturation = outside.map(\.saturation).sorted()[outside.count / 2]
        let shaded = reference.light - frameBandShadow
        let least = surroundings < shaded ? (reference.light + surroundings) / 2 : shaded
        let greyest =
            surroundingSaturation >= reference.saturation + frameBandColouredSurroundings
            ? (reference.saturation + surroundingSaturation) / 2 : reference.saturation + frameBandColourTolerance
        func reaches(_ v: (level: Int, saturation: Int)) -> Bool {
            (v.level >= least && v.saturation <= reference.saturation + frameBandColourTolerance)
                || (v.level >= frameBandDarkestShadedPaper && v.saturation < greyest)
        }
        for (k, side) in sides.enumerated() where onFrame[k] {
            let spread =
                frameBandContactSpread * longSide
                / max(1, (side.step.x * side.step.x + side.step.y * side.step.y).squareRoot())
            let depths =
                [frameBandContactPixels] + frameBandContactDepths.map { $0 * longSide }
                + [frameBandMaximumGap * longSide]
            let touches = depths.contains { depth in
                var paper = 0, seen = 0
                for t in ts {
                    let found = frameBandContactOffsets.compactMap { o -> (level: Int, saturation: Int)? in
                        let p = side.point(at: t + Double(o) * spread, out: -depth)
                        return sample(pixels, p.x, p.y, width: width, height: height, bands: bands)
                    }
                    guard !found.isEmpty else { continue }
                    seen += 1
                    if found.contains(where: reaches) { paper += 1 }
                }
                return enough(seen) && Double(paper) >= frameBandMinimumContact * Double(seen)
            }
            guard touches else { return false }
        }
        return true
    }

    /// Whether a side of `candidate` (working-copy lines) lies on the frame's edge of the
    /// `width` x `height` image it was found in.
    static func runsOffFrame(_ candidate: QuadCandidate, width: Int, height: Int, scale: Double) -> Bool {
        guard let c = corners(of: candidate.lines.map { fullScale($0, scale: scale) }) else { return false }
        return runsOffFrame(quad(c), width: width, height: height)
    }

    /// Whether a side of `quad` (pixel-centre coordinates) lies on the frame's edge.
    package static func runsOffFrame(_ quad: Quad, width: Int, height: Int) -> Bool {
        (0..<4).contains { k in isOnFrame(quad.corners[k], quad.corners[(k + 1) % 4], width: width, height: height) }
    }

    /// The area of `candidate` in working-copy pixels (0 when its lines do not close).
    static func area(_ candidate: QuadCandidate) -> Double {
        guard let c = corners(of: candidate.lines) else { return 0 }
        return quad(c).area
    }

    /// Whether the segment from `a` to `b` lies on one edge of the frame, within a pixel
    /// (pixel-centre coordinates of a `width` x `height` image: its edges at -0.5 and width - 0.5).
    static func isOnFrame(_ a: Point, _ b: Point, width: Int, height: Int) -> Bool {
        let (w, h) = (Double(width) - 0.5, Double(height) - 0.5)
        let near = onFrameTolerance
        return (abs(a.x + 0.5) <= near && abs(b.x + 0.5) <= near) || (abs(a.y + 0.5) <= near && abs(b.y + 0.5) <= near)
            || (abs(a.x - w) <= near && abs(b.x - w) <= near) || (abs(a.y - h) <= near && abs(b.y - h) <= near)
    }

    /// The paper of a band: the upper quartile of levels on a grid over its inside (a band
    /// is mostly paper; its sides' insides may be print) and their typical saturation.
    private static func bandPaper(
        _ quad: Quad, pixels: UnsafeBufferPointer<UInt8>,
        width: Int, height: Int, bands: Int
    ) -> PaperReference? {
        let c = quad.corners
        var inside: [(level: Int, saturation: Int)] = []
        for u in bandPaperGrid {
            for v in bandPaperGrid {
                let top = c[0] + (c[1] - c[0]) * u, bottom = c[3] + (c[2] - c[3]) * u
                let p = top + (bottom - top) * v
                if let s = sample(pixels, p.x, p.y, width: width, height: height, bands: bands) { inside.append(s) }
            }
        }
        guard inside.count >= bandPaperMinimumSamples else { return nil }
        return PaperReference(samples: inside, lightShare: bandPaperLightShare)
    }
}
