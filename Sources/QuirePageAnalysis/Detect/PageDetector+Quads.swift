#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import QuireGeometry

/// How much aligned gradient lies under one line, per unit of length, as prefix sums for both
/// polarities, so that any segment's support costs O(1).
struct LineSupport {
    var line: PageDetector.Line
    /// Parameter of the first sample along the line direction (-ny, nx) from the foot point.
    var tMin: Double
    /// Prefix sums: positive (gradient along +n) and negative support.
    var pos: [Float]
    var neg: [Float]

    /// Most of a segment's length (pixels) left out at each end: its corners are blurred.
    static let cornerMargin = 4.0
    /// Share of a segment's length left out at each end, when that is less than `cornerMargin`.
    static let cornerMarginShare = 0.1

    /// Support of the segment between parameters ta and tb for gradients along +n (`positive`)
    /// or -n, as a share of its length; parts outside the image count as unsupported.
    func coverage(_ ta: Double, _ tb: Double, positive: Bool) -> Double {
        var a = min(ta, tb), b = max(ta, tb)
        let length = b - a
        guard length > 1 else { return 0 }
        // Corners are blurred: leave a little out at both ends.
        let margin = min(Self.cornerMargin, length * Self.cornerMarginShare)
        a += margin; b -= margin
        let n = pos.count - 1
        let ka = max(0, min(n, (a - tMin).roundedInt))
        let kb = max(0, min(n, (b - tMin).roundedInt))
        guard kb > ka else { return 0 }
        let p = positive ? pos : neg
        return Double(p[kb] - p[ka]) / (b - a)
    }

    /// The position of `p`'s foot on the line, along its direction (-ny, nx).
    func parameter(_ p: Point) -> Double { -line.ny * p.x + line.nx * p.y }
}

extension WorkImage {
    /// Most gradient along a line, as a share of the gradient across it, for a pixel to count
    /// as the line's edge (about 24 degrees off its normal).
    static let supportMaximumSkew: Float = 0.45
    /// Pixels either side of the line searched for its edge (a line fitted to within a pixel).
    static let supportSearch = -1...1

    /// The support profile of a line over this image.
    func support(for line: PageDetector.Line) -> LineSupport {
        let (w, h) = (width, height)
        let px = line.c * line.nx, py = line.c * line.ny
        let dx = -line.ny, dy = line.nx
        var lo = -Double(w + h), hi = Double(w + h)
        func clip(_ p: Double, _ d: Double, _ minV: Double, _ maxV: Double) {
            if abs(d) < 1e-9 {
                if p < minV || p > maxV { lo = 1; hi = 0 }
            } else {
                let t1 = (minV - p) / d, t2 = (maxV - p) / d
                lo = max(lo, min(t1, t2)); hi = min(hi, max(t1, t2))
            }
        }
        clip(px, dx, 1, Double(w - 2))
        clip(py, dy, 1, Double(h - 2))
        // tMin is measured from the foot point; convert to the global parameter used by callers.
        let foot = -line.ny * px + line.nx * py
        guard hi > lo else { return LineSupport(line: line, tMin: foot, pos: [0], neg: [0]) }
        let count = Int(hi - lo) + 1
        // Two arrays of their own (a copy of one would be copied again on its first write),
        // written through pointers: the prefix sums are the same additions in the same order.
        var pos = [Float](repeating: 0, count: count + 1), neg = [Float](repeating: 0, count: count + 1)
        let t = threshold
        let nx = Float(line.nx), ny = Float(line.ny)
        gx.withUnsafeBufferPointer { GX in
            gy.withUnsafeBufferPointer { GY in
                pos.withUnsafeMutableBufferPointer { pos in
                    neg.withUnsafeMutableBufferPointer { neg in
                        self.profile(
                            (GX, GY), along: (px, py, dx, dy, lo), count: count, line: (line.nx, line.ny, nx, ny),
                            threshold: t, into: (pos, neg))
                    }
                }
            }
        }
        return LineSupport(line: line, tMin: foot + lo, pos: pos, neg: neg)
    }

    /// `support(for:)`'s prefix sums over `count` samples from `lo` along the line through
    /// (`px`, `py`) in direction (`dx`, `dy`); `pos[0]` and `neg[0]` are zero already.
    @inline(__always)
    private func profile(
        _ g: (x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>),
        along: (px: Double, py: Double, dx: Double, dy: Double, lo: Double), count: Int,
        line: (nx: Double, ny: Double, fx: Float, fy: Float), threshold t: Float,
        into out: (pos: UnsafeMutableBufferPointer<Float>, neg: UnsafeMutableBufferPointer<Float>)
    ) {
        let (w, h) = (width, height)
        let (GX, GY) = g
        let (px, py, dx, dy, lo) = along
        let (nx, ny) = (line.fx, line.fy)
        let (pos, neg) = out
        for k in 0..<count {
            let tt = lo + Double(k)
            let x = px + tt * dx, y = py + tt * dy
            var bestP: Float = 0, bestN: Float = 0
            for o in Self.supportSearch {
                let xi = (x + Double(o) * line.nx).roundedInt, yi = (y + Double(o) * line.ny).roundedInt
                if xi < 1 || yi < 1 || xi >= w - 1 || yi >= h - 1 { continue }
                let i = yi * w + xi
                let gn = GX[i] * nx + GY[i] * ny
                let gt = -GX[i] * ny + GY[i] * nx
                if abs(gt) > Self.supportMaximumSkew * abs(gn) { continue }
                let v = min(1, abs(gn) / t)
                if gn > 0 { bestP = max(bestP, v) } else { bestN = max(bestN, v) }
            }
            pos[k + 1] = pos[k] + bestP
            neg[k + 1] = neg[k] + bestN
        }
    }

    /// Widest angle between two lines taken as opposite sides of one quad (perspective tilts them).
    static let maximumPairAngle = 35.0 * .pi / 180
    /// Narrowest gap between opposite sides, measured at the image centre, as a share of its short side.
    static let minimumPairSeparation = 0.06
    /// Narrowest angle between a quad's two pairs of sides (a page's corners are near right angles).
    static let minimumCrossingAngle = 45.0 * .pi / 180
    /// How far outside the image a corner may lie, as a share of its width or height.
    static let cornerOvershoot = 0.03
    /// Smallest quad area, as a share of the image: anything smaller is print, not a page.
    static let minimumQuadArea = 0.02
    /// Largest quad area, as a share of the image: the frame itself is no candidate.
    static let maximumQuadArea = 0.995
    /// Shortest side, as a share of the image's short side.
    static let minimumSideLength = 0.04
    /// Least support of the weakest side: a quad with a side this bare is no page.
    static let minimumSideCoverage = 0.25
    /// Two lines meeting within this share of the image beyond its edges are no opposite sides.
    static let pairMeetingMargin = 0.1
    /// The weight of the area in a candidate's score (its share of the image to this power):
    /// mild, edge support dominates.
    static let scoreAreaExponent = 0.2
    /// A candidate's score is the mean support squared times (`scoreFloor` + `scoreWeakestWeight`
    /// × the weakest side's support): the weakest side breaks ties.
    static let scoreFloor = 0.4
    /// See `scoreFloor`.
    static let scoreWeakestWeight = 0.6
    /// Confidence is `confidenceGain` × (`confidenceMeanWeight` × mean support +
    /// `confidenceWeakestWeight` × weakest support) − `confidenceOffset`, clamped to 0...1: a
    /// page's four well-supported sides reach 1, print's stray lines about 0.6.
    static let confidenceGain = 1.25
    /// See `confidenceGain`.
    static let confidenceMeanWeight = 0.6
    /// See `confidenceGain`.
    static let confidenceWeakestWeight = 0.4
    /// See `confidenceGain`.
    static let confidenceOffset = 0.1

    /// Scores every quad made of two near-parallel pairs of lines and returns the best one.
    /// - Complexity: O(P²) for the P near-parallel pairs, each candidate O(1).
    func bestQuad(lines: [PageDetector.Line]) -> QuadCandidate? {
        quadCandidates(lines: lines, keep: 1).first
    }

    /// The `keep` best-scoring quads made of two near-parallel pairs of lines, best first.
    /// - Complexity: O(P²) for the P near-parallel pairs, each candidate O(1), plus keeping
    ///   the best `keep` (O(keep) per improvement).
    func quadCandidates(lines: [PageDetector.Line], keep: Int) -> [QuadCandidate] {
        quadCandidates(lines: lines, supports: lines.map { support(for: $0) }, keep: keep)
    }

    /// The same with each line's support profile already measured (`supports[i]` is
    /// `support(for: lines[i])`): the detector measures them once for this, the band running off
    /// the frame and the frame-side candidates.
    func quadCandidates(lines: [PageDetector.Line], supports: [LineSupport], keep: Int) -> [QuadCandidate] {
        let angles = lines.map { atan2($0.ny, $0.nx) }
        let pairs = parallelPairs(lines: lines, angles: angles)
        var kept: [QuadCandidate] = []
        for p in 0..<pairs.count {
            for q in (p + 1)..<pairs.count {
                guard let candidate = candidate(pairs[p], pairs[q], lines: lines, supports: supports) else { continue }
                let score = candidate.score
                if kept.count < keep || score > kept[kept.count - 1].score {
                    let at = kept.firstIndex { $0.score < score } ?? kept.count
                    kept.insert(candidate, at: at)
                    if kept.count > keep { kept.removeLast() }
                }
            }
        }
        return kept
    }

    /// Two lines that may be opposite sides of a quad (indices into the lines), and their mean
    /// undirected angle.
    struct ParallelPair { var i: Int, j: Int, angle: Double }

    /// The angle between two undirected lines whose angles differ by `a`, in 0...pi/2.
    static func folded(_ a: Double) -> Double {
        var d = abs(a).truncatingRemainder(dividingBy: .pi)
        if d > .pi / 2 { d = .pi - d }
        return d
    }

    /// Every pair of near-parallel lines that do not meet inside the image and lie far enough
    /// apart to be opposite sides of a page.
    /// - Complexity: O(L²) for L lines.
    func parallelPairs(lines: [PageDetector.Line], angles: [Double]) -> [ParallelPair] {
        let (w, h) = (Double(width), Double(height))
        let minDim = min(w, h)
        let n = lines.count
        var pairs: [ParallelPair] = []
        for i in 0..<n {
            for j in (i + 1)..<n {
                let d = Self.folded(angles[i] - angles[j])
                guard d <= Self.maximumPairAngle else { continue }
                let margin = Self.pairMeetingMargin
                if let p = lines[i].intersection(lines[j]),
                    p.x > -margin * w, p.x < (1 + margin) * w, p.y > -margin * h, p.y < (1 + margin) * h
                {
                    continue
                }
                // Separation measured at the image centre.
                let sep = abs(
                    lines[j].distance(w / 2, h / 2) - lines[i].distance(w / 2, h / 2)
                        * (lines[i].nx * lines[j].nx + lines[i].ny * lines[j].ny < 0 ? -1 : 1))
                guard sep >= Self.minimumPairSeparation * minDim else { continue }
                // Mean undirected angle.
                var aj = angles[j]
                while aj - angles[i] > .pi / 2 { aj -= .pi }
                while aj - angles[i] < -.pi / 2 { aj += .pi }
                pairs.append(ParallelPair(i: i, j: j, angle: (angles[i] + aj) / 2))
            }
        }
        return pairs
    }

    /// The quad closed by two pairs of lines, scored, or nil when it is no plausible page
    /// (corners far outside the image, not convex, too small or too large, a side too short or
    /// too bare).
    /// - Complexity: O(1).
    func candidate(
        _ A: ParallelPair, _ B: ParallelPair, lines: [PageDetector.Line], supports: [LineSupport]
    ) -> QuadCandidate? {
        let (w, h) = (Double(width), Double(height))
        let minDim = min(w, h)
        let imageArea = w * h
        if A.i == B.i || A.i == B.j || A.j == B.i || A.j == B.j { return nil }
        guard Self.folded(A.angle - B.angle) >= Self.minimumCrossingAngle else { return nil }
        let sideIdx = [A.i, B.i, A.j, B.j]
        var corners: [Point] = []
        corners.reserveCapacity(4)
        let overshoot = Self.cornerOvershoot
        for k in 0..<4 {
            guard let c = lines[sideIdx[k]].intersection(lines[sideIdx[(k + 1) % 4]]),
                c.x > -overshoot * w, c.x < (1 + overshoot) * w, c.y > -overshoot * h, c.y < (1 + overshoot) * h
            else { return nil }
            corners.append(c)
        }
        // Convex, large enough, sane angles.
        var area2 = 0.0
        var sign = 0.0
        for k in 0..<4 {
            let a = corners[k], b = corners[(k + 1) % 4], c = corners[(k + 2) % 4]
            area2 += a.x * b.y - b.x * a.y
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return nil }
        }
        let area = abs(area2) / 2
        guard area >= Self.minimumQuadArea * imageArea, area <= Self.maximumQuadArea * imageArea else { return nil }
        let centre = PageDetector.centroid(corners)
        var lengths = [Double](repeating: 0, count: 4)
        var covBright = [Double](repeating: 0, count: 4), covDark = covBright
        for k in 0..<4 {
            let s = supports[sideIdx[k]]
            let a = corners[(k + 3) % 4], b = corners[k]
            let len = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
            if len < Self.minimumSideLength * minDim { return nil }
            lengths[k] = len
            let ta = s.parameter(a), tb = s.parameter(b)
            let outward = s.line.distance(to: centre) > 0 ? -1.0 : 1.0
            let posCov = s.coverage(ta, tb, positive: true)
            let negCov = s.coverage(ta, tb, positive: false)
            // Inside brighter: intensity falls going outward.
            covBright[k] = outward > 0 ? negCov : posCov
            covDark[k] = outward > 0 ? posCov : negCov
        }
        let perimeter = lengths.reduce(0, +)
        var bright = 0.0, dark = 0.0
        for k in 0..<4 { bright += covBright[k] * lengths[k]; dark += covDark[k] * lengths[k] }
        let insideBrighter = bright >= dark
        let cov = insideBrighter ? covBright : covDark
        let mean = max(bright, dark) / perimeter
        let minCov = cov.min()!
        guard minCov >= Self.minimumSideCoverage else { return nil }
        let areaFrac = area / imageArea
        // Support dominates; the weakest side and (mildly) the area break ties.
        let score =
            mean * mean * (Self.scoreFloor + Self.scoreWeakestWeight * minCov) * pow(areaFrac, Self.scoreAreaExponent)
        let weighted = Self.confidenceMeanWeight * mean + Self.confidenceWeakestWeight * minCov
        let confidence = max(0, min(1, Self.confidenceGain * weighted - Self.confidenceOffset))
        return QuadCandidate(
            lines: sideIdx.map { lines[$0] }, confidence: confidence,
            insideBrighter: insideBrighter, score: score)
    }
}
