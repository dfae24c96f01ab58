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
/// `PageDetectorFoldTests.aSheetFoldedAcrossIsBothPanelsHeldWhole`). The other panel is usually a candidate too, closed by the same
/// fold. When it is, the page is both: the smallest quad holding both panels, through their
/// outer corners, with a side moved out over the fold's corners where the sheet kinks outward.
/// That quad leaves a sliver of desk by one outer corner, but a quad through the outer corners
/// alone would cut off the print at the kink (the receipt's card number and amounts).
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

    /// The quad holding `inner` and a sure candidate on the other side of its side `k` (a fold:
    /// both of its neighbours run on past it), the two panels meeting along the fold; nil when
    /// no candidate is that other panel or the whole still has a line across it.
    func foldedPanels(
        _ inner: QuadCandidate, fold k: Int, candidates: [QuadCandidate],
        minConfidence: Double
    ) -> QuadCandidate? {
        // A sheet is lighter than what it lies on; two dark picture boxes side by side on a
        // page are not the panels of one (a scanned paper's two renderings, united at 0.8).
        guard inner.insideBrighter, let corners = PageDetector.corners(of: inner.lines) else { return nil }
        // Side k runs from corners[k-1] to corners[k]; the far corners follow them.
        let a = corners[(k + 3) % 4], b = corners[k]
        let farB = corners[(k + 1) % 4], farA = corners[(k + 2) % 4]
        let fold = inner.lines[k]
        let centre = PageDetector.centroid(corners)
        let innerSide = fold.distance(centre.0, centre.1) > 0
        let tolerance = Self.foldCornerTolerance * Double(min(width, height))
        func near(_ p: (Double, Double), _ q: (Double, Double)) -> Bool {
            (p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) <= tolerance * tolerance
        }
        let innerArea = Polygon(corners.map { Point(x: $0.0, y: $0.1) }).area
        var best: (candidate: QuadCandidate, score: Double)?
        for other in candidates where other.confidence >= minConfidence && other.insideBrighter {
            guard let theirs = PageDetector.corners(of: other.lines) else { continue }
            let middle = PageDetector.centroid(theirs)
            guard (fold.distance(middle.0, middle.1) > 0) != innerSide else { continue }
            // Its side along the fold: its two corners there next to a and b.
            for m in 0..<4 {
                let (p, q) = (theirs[(m + 3) % 4], theirs[m])
                // Its corners at the fold and beyond it: by a, then by b.
                let (atA, atB, beyondA, beyondB):
                    ((Double, Double), (Double, Double), (Double, Double), (Double, Double))
                if near(p, a), near(q, b) {
                    (atA, atB, beyondA, beyondB) = (p, q, theirs[(m + 2) % 4], theirs[(m + 1) % 4])
                } else if near(p, b), near(q, a) {
                    (atA, atB, beyondA, beyondB) = (q, p, theirs[(m + 1) % 4], theirs[(m + 2) % 4])
                } else {
                    continue
                }
                guard creaseIsSheet(from: (a, atA), to: (b, atB), panels: [corners, theirs]) else { continue }
                // Around the whole: the inner panel's far corners, then the other's.
                let outline = [farA, beyondA, beyondB, farB]
                let polygon = Polygon(outline.map { Point(x: $0.0, y: $0.1) })
                let theirArea = Polygon(theirs.map { Point(x: $0.0, y: $0.1) }).area
                guard Quad(corners: outline.map { Point(x: $0.0, y: $0.1) })?.isConvex == true,
                    polygon.area >= 0.9 * (innerArea + theirArea), polygon.area <= 1.25 * (innerArea + theirArea)
                else { continue }
                var lines = (0..<4).map { Self.line(through: outline[$0], outline[($0 + 1) % 4]) }
                // The sides crossing the fold move out over the panels' corners there: a sheet
                // kinked outward at its fold keeps its print (a receipt's amounts at its edge).
                // Of the lines through two of the side's points keeping them all inside, the one
                // leaving the least quad: a side of the panels' convex hull.
                let hub = PageDetector.centroid(outline)
                for (k, ends, atFold) in [(0, [farA, beyondA], [a, atA]), (2, [beyondB, farB], [b, atB])] {
                    let points = ends + atFold
                    let inward = lines[k].distance(hub.0, hub.1) > 0 ? 1.0 : -1.0
                    guard points.contains(where: { inward * lines[k].distance($0.0, $0.1) < -0.5 }) else { continue }
                    var choice: (line: PageDetector.Line, area: Double)?
                    for i in points.indices {
                        for j in points.indices where j > i {
                            var line = Self.line(through: points[i], points[j])
                            if line.distance(hub.0, hub.1) * inward < 0 {
                                line = .init(nx: -line.nx, ny: -line.ny, c: -line.c)
                            }
                            guard line.nx * lines[k].nx + line.ny * lines[k].ny > cos(20 * Double.pi / 180),
                                points.allSatisfy({ inward * line.distance($0.0, $0.1) >= -0.5 })
                            else { continue }
                            var trial = lines
                            trial[k] = line
                            guard let c = PageDetector.corners(of: (0..<4).map { trial[($0 + 3) % 4] }) else {
                                continue
                            }
                            let area = Polygon(c.map { Point(x: $0.0, y: $0.1) }).area
                            if choice.map({ area < $0.area }) ?? true { choice = (line, area) }
                        }
                    }
                    guard let choice else { continue }
                    lines[k] = choice.line
                }
                // corners(of:) puts lines[i] ∩ lines[i+1] at i: rotate so corner i is outline[i].
                let sides = (0..<4).map { lines[($0 + 3) % 4] }
                guard let moved = PageDetector.corners(of: sides),
                    Quad(corners: moved.map { Point(x: $0.0, y: $0.1) })?.isConvex == true
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

    /// Whether what lies between two panels along their fold is the sheet (a crease, in shadow
    /// at most) rather than the desk between two sheets side by side: its level along the middle
    /// of the fold is at least `creaseShare` of the panels' paper just beside it.
    func creaseIsSheet(
        from start: ((Double, Double), (Double, Double)), to end: ((Double, Double), (Double, Double)),
        panels: [[(Double, Double)]]
    ) -> Bool {
        func mid(_ p: ((Double, Double), (Double, Double))) -> (Double, Double) {
            ((p.0.0 + p.1.0) / 2, (p.0.1 + p.1.1) / 2)
        }
        let (s, e) = (mid(start), mid(end))
        var crease: [Float] = [], paper: [Float] = []
        for t in stride(from: 0.2, through: 0.8, by: 0.075) {
            let p = (s.0 + (e.0 - s.0) * t, s.1 + (e.1 - s.1) * t)
            if let v = colour(p.0, p.1) { crease.append(v.level) }
            // Into each panel, a tenth of the way to its centre.
            for panel in panels {
                let c = PageDetector.centroid(panel)
                if let v = colour(p.0 + (c.0 - p.0) * 0.1, p.1 + (c.1 - p.1) * 0.1) { paper.append(v.level) }
            }
        }
        guard crease.count >= 5, paper.count >= 10 else { return false }
        let creaseLevel = crease.sorted()[crease.count / 2], paperLevel = paper.sorted()[paper.count * 3 / 4]
        return creaseLevel >= Self.creaseShare * paperLevel
    }

    /// The line through two points, its normal turned a quarter from `p` to `q`.
    static func line(through p: (Double, Double), _ q: (Double, Double)) -> PageDetector.Line {
        let dx = q.0 - p.0, dy = q.1 - p.1
        let length = max(1e-9, (dx * dx + dy * dy).squareRoot())
        let nx = -dy / length, ny = dx / length
        return PageDetector.Line(nx: nx, ny: ny, c: nx * p.0 + ny * p.1)
    }
}
