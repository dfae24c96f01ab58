import QuireGeometry

/// A page's corner is where its edges stop.
///
/// A ruled line, a fold or a shadow boundary across a page is as straight and as well
/// supported as the page's own edge, so a quad closed by it scores like the page (a page
/// running off the frame, cut at a shadowed line across it; pinned by
/// `PageDetectorContinuationTests.pageRunningOffTheFrameIsNotCutAtAFold`). What gives it away is
/// that the page's edges do not stop there: the two sides meeting such a line run on past its corners as far as
/// the page goes (in either polarity: a printed page's edge beside a dark picture has the other
/// polarity than beside white paper). At a true corner they stop, or carry on as unrelated
/// background at most.
extension PageDetector {
    /// Confidence kept by a quad that the page's edges run on past on one side while the other
    /// leaves the frame: a true page on a background that happens to line up with it stays
    /// found (1 -> 0.8), a quad closed by a line across the page at 0.9 falls under `minConfidence`.
    static let runsOnPenalty = 0.8
    /// Highest confidence of a quad with a side on the frame's edge (a page running off it):
    /// three edges seen, the fourth inferred.
    static let frameSideConfidence = 0.85
    /// Confidence kept by a quad with a side both of whose neighbours run on past it, when no
    /// edge beyond it is found: always under `minConfidence`, the frame is kept.
    static let cutInsidePenalty = 0.6

    /// `best` once its sides are checked for lines across the page. A side both of whose
    /// neighbours run on past it (a fold, a rule between panels) moves out to the frame's edge
    /// when both run on to it, else to the page's edge beyond it when a candidate has one that
    /// stops there, else to the whole sheet when the panel beyond a fold is a candidate too, else
    /// the quad is unsure. One neighbour running on while the other leaves the frame makes the
    /// quad less sure.
    static func checkedForLinesAcross(
        _ best: QuadCandidate, on work: WorkImage, candidates: [QuadCandidate],
        fullWidth: Int, fullHeight: Int, scale: Double,
        minConfidence: Double = 0.75
    ) -> QuadCandidate {
        guard let ways = work.waysOnPast(best) else { return best }
        var checked = best
        if let k = ways.firstIndex(where: \.cutInside) {
            if let whole = work.extendedToFrame(
                best, ways: ways, fullWidth: fullWidth, fullHeight: fullHeight, scale: scale)
            {
                checked = whole
                checked.confidence = min(checked.confidence, frameSideConfidence)
            } else {
                let outer = work.outwardAlternative(best, side: k, candidates: candidates)
                // The page's edge beyond a fold stops at both ends. A neighbour still running on
                // past it makes it one more line across the page, and the quad as unsure as the
                // one it replaced (pinned by
                // `PageDetectorOutwardAlternativeTests.aRowOfBoxesWidenedByOneBoxIsNotThePage`).
                let outerRunsOn =
                    outer.map { outer in
                        guard let moved = outer.lines.firstIndex(where: { !best.lines.contains($0) }),
                            let way = work.waysOnPast(outer)?[moved]
                        else { return false }
                        return way.before.runsOn == true || way.after.runsOn == true
                    } ?? true
                if let outer, !outerRunsOn {
                    checked = outer
                } else if let folded = work.foldedPanels(
                    best, fold: k, candidates: candidates,
                    minConfidence: minConfidence)
                {
                    checked = folded
                } else {
                    checked = outer ?? best
                    checked.confidence *= cutInsidePenalty
                }
            }
        } else if ways.indices.contains(where: { work.sheetGoesOnPast(best, side: $0, ways: ways[$0]) }) {
            checked.confidence *= cutInsidePenalty
        } else if ways.contains(where: \.runsOn) {
            checked.confidence *= runsOnPenalty
        }
        return checked
    }
}

extension WorkImage {
    /// How far past a corner a side is followed, as a share of the image's short side.
    static let continuationReach = 0.08
    /// Gap left after the corner before following (blur and a rounded corner).
    static let continuationGap = 0.015
    /// Support (share of the followed length) above which a side runs on.
    static let continuationSupport = 0.6
    /// A way on meeting the frame within this share of `continuationReach` leaves the frame
    /// there: too short to say whether it runs on.
    static let continuationFrameShare = 0.5
    /// How far in from the frame's edge (pixels) a way on stops: the gradients' one-pixel border.
    static let continuationFrameInset = 1.0

    /// How side `s` of `candidate` goes on past `corner`, away from its other end `other`.
    struct WayOn {
        /// Whether it runs on for `continuationReach` (nil: the frame's edge comes first).
        var runsOn: Bool?
        /// Whether it runs on all the way to the frame's edge, and which edge that is
        /// (0 left, 1 top, 2 right, 3 bottom).
        var toFrame: Bool
        var border: Int
    }

    /// How the two sides meeting one side of a quad go on past its corners: the side before
    /// it, then the side after it.
    struct WaysPast {
        var before: WayOn, after: WayOn
        /// Both run on: the side is a line across the page (a fold, a rule between panels).
        var cutInside: Bool { before.runsOn == true && after.runsOn == true }
        /// One runs on, and the other runs on too or leaves the frame there.
        var runsOn: Bool {
            (before.runsOn == true || after.runsOn == true) && before.runsOn != false && after.runsOn != false
        }
    }

    /// How the line `support` is measured on goes on past `corner`, away from `other`.
    func wayOn(_ support: LineSupport, corner: Point, other: Point) -> WayOn {
        let minDim = Double(min(width, height))
        let reach = Self.continuationReach * minDim, gap = Self.continuationGap * minDim
        let (w, h) = (Double(width), Double(height))
        let dx = corner.x - other.x, dy = corner.y - other.y
        let len = (dx * dx + dy * dy).squareRoot()
        guard len > 1 else { return WayOn(runsOn: false, toFrame: false, border: 0) }
        let ux = dx / len, uy = dy / len
        let start = Point(x: corner.x + ux * gap, y: corner.y + uy * gap)
        // Distance to the frame's edge (`continuationFrameInset` in) along the way on, and which edge it is.
        let inset = Self.continuationFrameInset
        var toEdge = Double.infinity, border = 0
        for (p, u, low, high, lowBorder, highBorder) in [
            (start.x, ux, inset, w - 1 - inset, 0, 2), (start.y, uy, inset, h - 1 - inset, 1, 3)
        ] {
            if u > 1e-9, (high - p) / u < toEdge { toEdge = (high - p) / u; border = highBorder }
            if u < -1e-9, (low - p) / u < toEdge { toEdge = (low - p) / u; border = lowBorder }
        }
        func supported(_ length: Double) -> Bool {
            let ta = support.parameter(start)
            let tb = support.parameter(Point(x: start.x + ux * length, y: start.y + uy * length))
            // Either polarity: a printed page is not one colour, so its edge beside a dark
            // picture has the other polarity than beside white paper.
            return max(support.coverage(ta, tb, positive: true), support.coverage(ta, tb, positive: false))
                >= Self.continuationSupport
        }
        let runsOn: Bool? = toEdge < Self.continuationFrameShare * reach ? nil : supported(min(reach, toEdge))
        let toFrame = runsOn == true && toEdge > 0 && toEdge.isFinite && supported(toEdge)
        return WayOn(runsOn: runsOn, toFrame: toFrame, border: border)
    }

    /// For each side k of `candidate` (joining corners k-1 and k): how the two sides meeting it
    /// go on past its corners.
    func waysOnPast(_ candidate: QuadCandidate) -> [WaysPast]? {
        guard let corners = PageDetector.corners(of: candidate.lines) else { return nil }
        let supports = candidate.lines.map { support(for: $0) }
        // corners(of:) gives side i ∩ side i+1 at index i: side k runs from corners[k-1] to corners[k].
        return (0..<4).map { k in
            let before = (k + 3) % 4, after = (k + 1) % 4
            return WaysPast(
                before: wayOn(supports[before], corner: corners[before], other: corners[(k + 2) % 4]),
                after: wayOn(supports[after], corner: corners[k], other: corners[after]))
        }
    }

    /// Least step, in levels, from the surroundings beyond a running-on edge up to the band
    /// beyond a side for that band to count as the sheet going on.
    static let sheetStep: Float = 40
    /// How far beyond (and inside) a side the band and the paper are sampled, as a share of the
    /// short side.
    static let sheetProbe = 0.03
    /// Where along a side (shares of its length) the band beyond it is sampled: clear of the corners.
    static let sheetSamples = Array(stride(from: 0.2, through: 0.8, by: 0.1))
    /// Least samples on the image, of each of the band, the surroundings and the paper.
    static let sheetMinimumSamples = 4
    /// Most coloured the band beyond a side may be (max - min channel) to be grey paper.
    static let sheetMostSaturation: Float = 25
    /// How much darker than the page's lightest paper the band beyond may be (a grey band printed
    /// on the page's margin).
    static let sheetShade: Float = 70
    /// Least growth of the area for a candidate to be the page's edge beyond a fold rather than
    /// the same quad again.
    static let outwardMinimumGrowth = 1.05
    /// Least |cosine| between a side moved out to the frame and that frame edge (within 30 degrees).
    static let extendMinimumAlignment = 0.866

    /// Whether the sheet goes on past side `k` of `candidate`: one side meeting it runs on to
    /// the frame's edge past it, and what lies just beyond side `k` is light, grey paper, much
    /// lighter than the surroundings beyond the running-on edge. A grey band printed down a
    /// page's margin is that: darker than the paper, so the paper check does not see it, and
    /// bounded by the page's own edges running on (pinned by
    /// `PageDetectorContinuationTests.aGreyBandPrintedDownAPageIsTheSheetGoingOn`). A page on a
    /// desk has the same desk beyond both sides.
    func sheetGoesOnPast(_ candidate: QuadCandidate, side k: Int, ways: WaysPast) -> Bool {
        let running: Int
        switch (ways.before.runsOn, ways.after.runsOn) {
        case (true, false) where ways.before.toFrame: running = (k + 3) % 4
        case (false, true) where ways.after.toFrame: running = (k + 1) % 4
        default: return false
        }
        guard let corners = PageDetector.corners(of: candidate.lines) else { return false }
        let centre = PageDetector.centroid(corners)
        let d = Self.sheetProbe * Double(min(width, height))
        /// Level (brightest channel) and saturation along side `s`, `offset` outward.
        func samples(_ s: Int, offset: Double) -> [(level: Float, saturation: Float)] {
            let a = corners[(s + 3) % 4], b = corners[s]
            let line = candidate.lines[s]
            let out = line.distance(to: centre) > 0 ? -1.0 : 1.0
            return Self.sheetSamples.compactMap { t in
                let x = a.x + (b.x - a.x) * t + line.nx * out * offset
                let y = a.y + (b.y - a.y) * t + line.ny * out * offset
                return colour(Point(x: x, y: y))
            }
        }
        func median(_ v: [Float]) -> Float? { v.isEmpty ? nil : v.sorted()[v.count / 2] }
        let beyond = samples(k, offset: d), around = samples(running, offset: d), paper = samples(k, offset: -d)
        let least = Self.sheetMinimumSamples
        guard beyond.count >= least, around.count >= least, paper.count >= least,
            let band = median(beyond.map(\.level)), let bandSaturation = median(beyond.map(\.saturation)),
            let surroundings = median(around.map(\.level)), let light = paper.map(\.level).max()
        else { return false }
        return band - surroundings >= Self.sheetStep && bandSaturation <= Self.sheetMostSaturation
            && band >= light - Self.sheetShade
    }

    /// Brightest channel and saturation (max - min) of the working copy at `p`, or nil off it.
    func colour(_ p: Point) -> (level: Float, saturation: Float)? {
        let xi = Int(p.x.rounded()), yi = Int(p.y.rounded())
        guard xi >= 0, yi >= 0, xi < width, yi < height else { return nil }
        let values = planes.map { $0[yi * width + xi] }
        return (values.max()!, values.max()! - values.min()!)
    }

    /// The best of `candidates` that keeps three sides of `inner` and moves the fourth (`side`)
    /// outward, to a side that is not itself a line across the page: the page's own edge
    /// beyond a fold. Nil when there is none.
    func outwardAlternative(_ inner: QuadCandidate, side k: Int, candidates: [QuadCandidate]) -> QuadCandidate? {
        let kept = (0..<4).filter { $0 != k }.map { inner.lines[$0] }
        guard let innerCorners = PageDetector.corners(of: inner.lines) else { return nil }
        let area = Polygon(innerCorners).area
        return candidates.filter { c in
            guard kept.allSatisfy({ c.lines.contains($0) }),
                let corners = PageDetector.corners(of: c.lines),
                Polygon(corners).area > area * Self.outwardMinimumGrowth
            else { return false }
            return !(waysOnPast(c)?.contains(where: \.cutInside) ?? false)
        }.max { $0.score < $1.score }
    }

    /// `candidate` with a side both of whose neighbours run on to the same edge of the frame
    /// moved out to that edge (a page running off the frame, first cut at a fold or a line
    /// across it), or nil when no side is like that. At most one side moves: a page running off
    /// two edges is taken whole by nobody's guess.
    func extendedToFrame(
        _ candidate: QuadCandidate, ways: [WaysPast], fullWidth: Int, fullHeight: Int,
        scale: Double
    ) -> QuadCandidate? {
        let moving = ways.indices.filter { k in
            ways[k].before.toFrame && ways[k].after.toFrame && ways[k].before.border == ways[k].after.border
        }
        guard moving.count == 1, let k = moving.first else { return nil }
        let border = ways[k].before.border
        // The frame's edge in working-copy pixel centres (x_full = (x + 0.5)·scale − 0.5).
        let edge: PageDetector.Line
        switch border {
        case 0: edge = PageDetector.Line(nx: 1, ny: 0, c: -0.5)
        case 1: edge = PageDetector.Line(nx: 0, ny: 1, c: -0.5)
        case 2: edge = PageDetector.Line(nx: 1, ny: 0, c: Double(fullWidth) / scale - 0.5)
        default: edge = PageDetector.Line(nx: 0, ny: 1, c: Double(fullHeight) / scale - 0.5)
        }
        // Only a side lying across the way the page runs on (within 30 degrees of the edge).
        let side = candidate.lines[k]
        guard abs(side.nx * edge.nx + side.ny * edge.ny) >= Self.extendMinimumAlignment else { return nil }
        var moved = candidate
        moved.lines[k] = edge
        return moved
    }
}
