#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A page that runs off the frame on two or three sides (issue 36): a close photo of a book on a
/// scanner shows one or two of the page's edges, the frame cutting it on the others. No quad of
/// four detected lines holds it, and the frame band (`frameBand`) needs two opposite edges; so a
/// small card or a box on or beside the page, four-sided, was all the line search offered. Here
/// the frame's edges stand in for the missing sides: the brighter side of one strong line, or of
/// two strong lines meeting at a corner, clipped by the frame, when that leaves four sides.

extension PageDetector {
    /// The strongest detected lines tried as a page's visible edges (lines come strongest first).
    static let frameSideLines = 8
    /// The best frame-side quads offered to the verifier (each costs a refinement).
    static let frameSideCandidates = 3
    /// Least edge support of each visible side (share of its length, brighter inside), as a band's.
    static let frameSideMinimumSupport = frameBandMinimumSupport
    /// Share of the frame a frame-side quad must cover: from the band's least (narrower is print)
    /// to the band's most (larger is the whole frame, already a candidate).
    static let frameSideMinimumArea = frameBandMinimumArea
    static let frameSideMaximumArea = frameBandMaximumArea
    /// Two lines meet at a page's corner when they are within 30 degrees of square (|cos| <= 0.5).
    static let frameSideCornerCosine = 0.5

    /// Quads made of one or two of the strongest lines (`front`'s, working copy) and the frame's
    /// edges (copy pixel centres, the frame spanning -0.5...width-0.5), best first by the line
    /// search's score: mean support squared times area to `WorkImage.scoreAreaExponent`.
    static func frameSideQuads(front: DetectionFront, width: Int, height: Int) -> [Quad] {
        let scale = front.scale
        let lines = Array(front.lines.prefix(frameSideLines))
        let supports = Array(front.supports.prefix(frameSideLines))
        let frame = [
            Point(x: -0.5, y: -0.5), Point(x: Double(width) - 0.5, y: -0.5),
            Point(x: Double(width) - 0.5, y: Double(height) - 0.5), Point(x: -0.5, y: Double(height) - 0.5)
        ]
        let area = Double(width * height)
        // Each line's brighter side, by its support along the part inside the frame.
        let brighterPositive = supports.map { s -> Bool in
            let end = s.tMin + Double(s.pos.count - 1)
            return s.coverage(s.tMin, end, positive: true) >= s.coverage(s.tMin, end, positive: false)
        }
        var sets: [[Int]] = lines.indices.map { [$0] }
        for i in lines.indices {
            for j in lines.indices where j > i {
                let cosine = abs(lines[i].nx * lines[j].nx + lines[i].ny * lines[j].ny)
                if cosine <= frameSideCornerCosine { sets.append([i, j]) }
            }
        }
        var found: [(quad: Quad, score: Double)] = []
        for set in sets {
            var polygon = frame
            var sides: [(index: Int, line: Line)] = []
            for i in set {
                let full = fullScale(lines[i], scale: scale)
                // Keep the brighter side: where n·p - c has the sign of the brighter gradient.
                let keep = brighterPositive[i] ? full : Line(nx: -full.nx, ny: -full.ny, c: -full.c)
                polygon = clip(polygon, keeping: keep)
                sides.append((i, keep))
            }
            guard polygon.count == 4, let quad = Quad(corners: polygon), quad.isConvex, quad.isFinite else { continue }
            let share = quad.area / area
            guard share >= frameSideMinimumArea, share <= frameSideMaximumArea else { continue }
            // Each line must be one side of the quad, supported along it with the brighter side in.
            var cover: [Double] = []
            for side in sides {
                let ends = polygon.filter { abs(side.line.distance(to: $0)) <= 0.5 }
                guard ends.count == 2 else { break }
                let s = supports[side.index]
                let (a, b) = (working(ends[0], scale: scale), working(ends[1], scale: scale))
                cover.append(s.coverage(s.parameter(a), s.parameter(b), positive: brighterPositive[side.index]))
            }
            guard cover.count == sides.count, let least = cover.min(), least >= frameSideMinimumSupport else {
                continue
            }
            let mean = cover.reduce(0, +) / Double(cover.count)
            found.append((quad, mean * mean * pow(share, WorkImage.scoreAreaExponent)))
        }
        return found.sorted { $0.score > $1.score }.prefix(frameSideCandidates).map(\.quad)
    }

    /// A copy pixel centre in working-copy pixel centres.
    private static func working(_ p: Point, scale: Double) -> Point {
        Point(x: (p.x + 0.5) / scale - 0.5, y: (p.y + 0.5) / scale - 0.5)
    }

    /// The convex polygon `polygon` clipped to the half plane where `line.distance >= 0`
    /// (Sutherland and Hodgman), without vertices closer than half a pixel to the one before.
    static func clip(_ polygon: [Point], keeping line: Line) -> [Point] {
        var out: [Point] = []
        for k in polygon.indices {
            let a = polygon[k], b = polygon[(k + 1) % polygon.count]
            let (da, db) = (line.distance(to: a), line.distance(to: b))
            if da >= 0 { out.append(a) }
            if (da >= 0) != (db >= 0) {
                let t = da / (da - db)
                out.append(Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
            }
        }
        var kept: [Point] = []
        for p in out where kept.last.map({ abs($0.x - p.x) > 0.5 || abs($0.y - p.y) > 0.5 }) ?? true {
            kept.append(p)
        }
        if kept.count > 1, let first = kept.first, let last = kept.last, abs(first.x - last.x) <= 0.5,
            abs(first.y - last.y) <= 0.5
        {
            kept.removeLast()
        }
        return kept
    }
}
