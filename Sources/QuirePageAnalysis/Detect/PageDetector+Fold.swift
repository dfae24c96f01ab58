#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import QuireGeometry

/// A sheet folded across is two panels.
///
/// A receipt or a flyer unfolded for the photo bends at its fold: each panel is four-sided,
/// but the sheet's edges kink where they cross the fold, so no quad of four straight lines
/// holds both panels. The panel found first is cut at the fold, which the continuation check
/// sees (the page's edges run on past it) and leaves unsure: the frame was kept (pinned by
/// `PageDetectorFoldTests.aSheetFoldedAcrossIsBothPanelsHeldWhole`). The other panel is usually
/// a candidate too, closed by the same fold. When it is, the page is both: the smallest quad
/// holding both panels, through their outer corners, with a side moved out over the fold's
/// corners where the sheet kinks outward. That quad leaves a sliver of desk by one outer corner,
/// but a quad through the outer corners alone would cut off the print at the kink.
/// The crease between the panels must be the sheet (in shadow at most), not the desk between
/// two sheets lying side by side.
extension WorkImage {
    /// Highest confidence of a page put together from two panels: each was seen whole, but the
    /// fold's kink is straightened over.
    static let foldedConfidence = 0.8
    /// How far apart the two panels' corners at the fold may be, as a share of the short side.
    static let foldCornerTolerance = 0.15
    /// Least level of a fold's crease as a share of the panels' paper beside it.
    static let creaseShare: Float = 0.7
    /// Least area of the whole as a share of the two panels' together: they meet along the fold
    /// rather than overlap.
    static let foldedMinimumArea = 0.9
    /// Most area of the whole as a share of the two panels' together: the sides moved out over
    /// the kink add a sliver, not a second page.
    static let foldedMaximumArea = 1.25
    /// How far (pixels) a panel's corner may lie outside a side and still count as inside it:
    /// rounding, not a kink.
    static let foldHullSlack = 0.5
    /// Least cosine of the turn between a side crossing the fold and the line moved out over
    /// the panels' corners (20 degrees): a kink bends the edge a little, never square.
    static let foldMaximumTurnCosine = cos(20 * Double.pi / 180)
    /// Where along the fold (as shares of its length) the crease and the paper beside it are
    /// sampled: its middle, clear of the corners and their shadows.
    static let creaseSamples = Array(stride(from: 0.2, through: 0.8, by: 0.075))
    /// How far into each panel its paper is sampled, as a share of the way to its centre.
    static let creaseInset = 0.1
    /// Least samples of the crease (and of the paper on each side) for the check to judge.
    static let creaseMinimumSamples = 5

    /// The quad holding `inner` and a sure candidate on the other side of its side `k` (a fold:
    /// both of its neighbours run on past it), the two panels meeting along the fold; nil when
    /// no candidate is that other panel or the whole still has a line across it.
    func foldedPanels(
        _ inner: QuadCandidate, fold k: Int, candidates: [QuadCandidate],
        minConfidence: Double
    ) -> QuadCandidate? {
        // A sheet is lighter than what it lies on; two dark picture boxes side by side on a
        // page are not the panels of one (pinned by
        // `PageDetectorFoldTests.twoPicturesSideBySideOnAScannedPageAreNotOneSheet`).
        guard inner.insideBrighter, let corners = PageDetector.corners(of: inner.lines) else { return nil }
        // Side k runs from corners[k-1] to corners[k]; the far corners follow them.
        let a = corners[(k + 3) % 4], b = corners[k]
        let farB = corners[(k + 1) % 4], farA = corners[(k + 2) % 4]
        let fold = inner.lines[k]
        let innerSide = fold.distance(to: PageDetector.centroid(corners)) > 0
        let tolerance = Self.foldCornerTolerance * Double(min(width, height))
        func near(_ p: Point, _ q: Point) -> Bool {
            (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) <= tolerance * tolerance
        }
        let innerArea = Polygon(corners).area
        var best: (candidate: QuadCandidate, score: Double)?
        for other in candidates where other.confidence >= minConfidence && other.insideBrighter {
            guard let theirs = PageDetector.corners(of: other.lines) else { continue }
            guard (fold.distance(to: PageDetector.centroid(theirs)) > 0) != innerSide else { continue }
            // Its side along the fold: its two corners there next to a and b.
            for m in 0..<4 {
                let p = theirs[(m + 3) % 4], q = theirs[m]
                // Its corners at the fold and beyond it: by a, then by b.
                let atA: Point, atB: Point, beyondA: Point, beyondB: Point
                if near(p, a), near(q, b) {
                    atA = p
                    atB = q
                    beyondA = theirs[(m + 2) % 4]
                    beyondB = theirs[(m + 1) % 4]
                } else if near(p, b), near(q, a) {
                    atA = q
                    atB = p
                    beyondA = theirs[(m + 1) % 4]
                    beyondB = theirs[(m + 2) % 4]
                } else {
                    continue
                }
                guard creaseIsSheet(from: Self.midpoint(a, atA), to: Self.midpoint(b, atB), panels: [corners, theirs])
                else { continue }
                // Around the whole: the inner panel's far corners, then the other's.
                let outline = [farA, beyondA, beyondB, farB]
                let area = Polygon(outline).area, panelsArea = innerArea + Polygon(theirs).area
                guard Quad(corners: outline)?.isConvex == true,
                    area >= Self.foldedMinimumArea * panelsArea, area <= Self.foldedMaximumArea * panelsArea
                else { continue }
                let lines = sidesOverTheKink(outline: outline, atFold: [[a, atA], [b, atB]])
                // corners(of:) puts lines[i] ∩ lines[i+1] at i: rotate so corner i is outline[i].
                let sides = (0..<4).map { lines[($0 + 3) % 4] }
                guard let moved = PageDetector.corners(of: sides), Quad(corners: moved)?.isConvex == true
                else { continue }
                var whole = QuadCandidate(
                    lines: sides,
                    confidence: min(
                        inner.confidence, other.confidence,
                        Self.foldedConfidence),
                    insideBrighter: inner.insideBrighter, score: inner.score + other.score)
                // The whole page stops at its edges: no line across it any more.
                guard let ways = waysOnPast(whole), !ways.contains(where: \.cutInside) else { continue }
                if ways.contains(where: \.runsOn) { whole.confidence *= PageDetector.runsOnPenalty }
                if best.map({ whole.score > $0.score }) ?? true { best = (whole, whole.score) }
            }
        }
        return best?.candidate
    }

    /// The four sides around `outline` (the two panels' outer corners: far A, beyond A, beyond
    /// B, far B), the two crossing the fold moved out over the panels' corners there
    /// (`atFold`: by A, then by B) where the sheet kinks outward, so it keeps its print at the
    /// kink. Of the lines through two of a side's points keeping them all inside, the one leaving
    /// the least quad: a side of the panels' convex hull.
    func sidesOverTheKink(outline: [Point], atFold: [[Point]]) -> [PageDetector.Line] {
        var lines = (0..<4).map { Self.line(through: outline[$0], outline[($0 + 1) % 4]) }
        let hub = PageDetector.centroid(outline)
        for (k, ends, atFold) in [(0, [outline[0], outline[1]], atFold[0]), (2, [outline[2], outline[3]], atFold[1])] {
            let points = ends + atFold
            let inward = lines[k].distance(to: hub) > 0 ? 1.0 : -1.0
            guard points.contains(where: { inward * lines[k].distance(to: $0) < -Self.foldHullSlack }) else { continue }
            var choice: (line: PageDetector.Line, area: Double)?
            for i in points.indices {
                for j in points.indices where j > i {
                    var line = Self.line(through: points[i], points[j])
                    if line.distance(to: hub) * inward < 0 {
                        line = .init(nx: -line.nx, ny: -line.ny, c: -line.c)
                    }
                    guard line.nx * lines[k].nx + line.ny * lines[k].ny > Self.foldMaximumTurnCosine,
                        points.allSatisfy({ inward * line.distance(to: $0) >= -Self.foldHullSlack })
                    else { continue }
                    var trial = lines
                    trial[k] = line
                    guard let c = PageDetector.corners(of: (0..<4).map { trial[($0 + 3) % 4] }) else {
                        continue
                    }
                    let area = Polygon(c).area
                    if choice.map({ area < $0.area }) ?? true { choice = (line, area) }
                }
            }
            guard let choice else { continue }
            lines[k] = choice.line
        }
        return lines
    }

    /// Whether what lies between two panels along their fold is the sheet (a crease, in shadow
    /// at most) rather than the desk between two sheets side by side: its level along the middle
    /// of the fold, from `start` to `end` (the crease's ends, between the panels' corners), is at
    /// least `creaseShare` of the panels' paper just beside it.
    func creaseIsSheet(from start: Point, to end: Point, panels: [[Point]]) -> Bool {
        var crease: [Float] = [], paper: [Float] = []
        for t in Self.creaseSamples {
            let p = start + (end - start) * t
            if let v = colour(p) { crease.append(v.level) }
            // Into each panel, `creaseInset` of the way to its centre.
            for panel in panels {
                if let v = colour(p + (PageDetector.centroid(panel) - p) * Self.creaseInset) { paper.append(v.level) }
            }
        }
        guard crease.count >= Self.creaseMinimumSamples, paper.count >= 2 * Self.creaseMinimumSamples else {
            return false
        }
        // The crease's median against the paper's upper quartile (print darkens the rest).
        let creaseLevel = crease.sorted()[crease.count / 2], paperLevel = paper.sorted()[paper.count * 3 / 4]
        return creaseLevel >= Self.creaseShare * paperLevel
    }

    /// The point halfway between `p` and `q`.
    static func midpoint(_ p: Point, _ q: Point) -> Point {
        Point(x: (p.x + q.x) / 2, y: (p.y + q.y) / 2)
    }

    /// The line through two points, its normal turned a quarter from `p` to `q`.
    static func line(through p: Point, _ q: Point) -> PageDetector.Line {
        let dx = q.x - p.x, dy = q.y - p.y
        let length = max(1e-9, (dx * dx + dy * dy).squareRoot())
        let nx = -dy / length, ny = dx / length
        return PageDetector.Line(nx: nx, ny: ny, c: nx * p.x + ny * p.y)
    }
}
