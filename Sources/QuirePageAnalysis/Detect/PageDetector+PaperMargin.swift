/// The page is the paper, not a frame printed on it.
///
/// A bank note's printed border, a form's outer rule or a certificate's frame is a strong,
/// straight, four-sided edge, often stronger than the sheet's own edge against a light desk,
/// so it wins the quad search at confidence 1 (pinned by
/// `PageDetectorPaperMarginTests.aPrintedNoteIsFoundByItsSheet`). What gives it away is a thin band of the page's paper just
/// outside it. When three or four sides have that band, the best candidate that holds the
/// frame, lies close around it and is itself well supported is the sheet.
extension PageDetector {
    /// How far outside each side the band is looked for, as a share of the long side.
    static let marginProbeDistance = 0.012
    /// How far the sheet's edge may lie outside the frame, as a share of the long side.
    static let marginMaximumWidth = 0.08

    /// `best`, or the candidate around it that is the sheet it is printed on.
    func paperAround(
        _ best: QuadCandidate, candidates: [QuadCandidate], pixels: UnsafeBufferPointer<UInt8>,
        width: Int, height: Int, bands: Int, scale: Double
    ) -> QuadCandidate {
        func quad(_ c: QuadCandidate) -> Quad? {
            guard let corners = Self.corners(of: c.lines.map { Self.fullScale($0, scale: scale) }) else { return nil }
            let q = Self.quad(corners)
            return q.isFinite && q.isConvex ? q : nil
        }
        let longSide = Double(max(width, height))
        var current = best
        // A frame inside a frame inside the sheet (a note's border and its inner panel): a few steps out.
        for _ in 0..<3 {
            // A box with print around it is printed on a page (a receipt's header box): the
            // paper check keeps the frame for it; only a frame on a plain band is a sheet's border.
            guard let inner = quad(current),
                Self.paperMarginSides(inner, pixels: pixels, width: width, height: height, bands: bands) >= 3,
                !Self.liesInsidePaper(inner, pixels: pixels, width: width, height: height, bands: bands)
            else { return current }
            let enclosing = candidates.filter { c in
                guard c.confidence >= minConfidence, c.insideBrighter == current.insideBrighter,
                    let outer = quad(c), outer.area > inner.area * 1.01, outer.area <= inner.area * 1.8
                else { return false }
                let overlap = Polygon(inner.corners).clipped(toConvex: Polygon(outer.corners)).area
                guard overlap >= 0.98 * inner.area else { return false }
                // The sheet lies inside the frame: one running off it is a page filling the
                // frame, and the frame printed on it is not a sheet's border.
                let inset = 0.01 * longSide
                guard
                    outer.corners.allSatisfy({
                        $0.x >= inset && $0.y >= inset && $0.x <= Double(width) - inset
                            && $0.y <= Double(height) - inset
                    })
                else { return false }
                // Each corner of the sheet close to the frame's: a thin margin all round.
                return zip(inner.corners, outer.corners).allSatisfy {
                    (($0.x - $1.x) * ($0.x - $1.x) + ($0.y - $1.y) * ($0.y - $1.y)).squareRoot()
                        <= Self.marginMaximumWidth * longSide * 1.5
                }
            }
            guard let sheet = enclosing.max(by: { $0.score < $1.score }) else { return current }
            current = sheet
        }
        return current
    }

    /// `quad` moved out to the sheet's edge when it is a frame printed on the sheet (three or
    /// four sides with a paper band outside): each side is pushed outward, parallel to itself,
    /// for as long as the line just outside it is still paper, at most `marginMaximumWidth`
    /// of the long side. Sides without a band stay where they are; a quad that is not a
    /// printed frame is returned unchanged.
    static func grownToPaper(
        _ quad: Quad, pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
        bands: Int
    ) -> Quad {
        guard paperMarginSides(quad, pixels: pixels, width: width, height: height, bands: bands) >= 3,
            let reference = paperReference(quad, pixels: pixels, width: width, height: height, bands: bands)
        else { return quad }
        guard let quadSides = quad.sides else { return quad }
        let maxOffset = Int(Double(max(width, height)) * marginMaximumWidth)
        let bandSearch = max(2, Int(2 * Double(max(width, height)) * marginProbeDistance))
        var sides: [Line] = []
        var moved = 0
        for side in quadSides {
            /// Share of paper on the line `k` pixels outside the side (nil when mostly off the frame).
            func paperShare(_ k: Int) -> Double? {
                var paper = 0, seen = 0
                for s in 0..<25 {
                    let t = 0.15 + 0.7 * Double(s) / 24
                    let p = side.point(at: t, out: Double(k))
                    guard let v = sample(pixels, p.x, p.y, width: width, height: height, bands: bands) else { continue }
                    seen += 1
                    if reference.isPaper(v) { paper += 1 }
                }
                return seen * 3 >= 25 * 2 ? Double(paper) / Double(seen) : nil
            }
            var offset = 0
            // The band starts a few pixels out, past the printed line itself.
            if let start = (1...bandSearch).first(where: { (paperShare($0) ?? 0) >= 0.7 }) {
                var k = start
                while k < maxOffset, let share = paperShare(k + 1), share >= 0.5 { k += 1 }
                // Paper up to the frame's edge, or wider than a border's margin: the page fills
                // the frame and this is a box printed on it, not a sheet's border.
                if k >= maxOffset || paperShare(k + 1) == nil { return quad }
                offset = k
                moved += 1
            }
            let n = side.outward
            sides.append(Line(nx: n.x, ny: n.y, c: n.x * side.start.x + n.y * side.start.y + Double(offset)))
        }
        guard moved >= 3, let corners = corners(of: sides) else { return quad }
        let grown = Self.quad(corners)
        return grown.isFinite && grown.isConvex ? grown : quad
    }

    /// What the paper of the page inside `quad` looks like: the brightest tenth of samples just
    /// inside its sides (its paper, or its lightest print) and their typical saturation.
    struct PaperReference {
        var light: Int, saturation: Int
        /// The paper among `samples` (not empty): the level a share `lightShare` of them stays
        /// under (the paper, or its lightest print), and the median saturation of those near it.
        init(samples: [(level: Int, saturation: Int)], lightShare: Double) {
            let levels = samples.map(\.level).sorted()
            let light = levels[min(levels.count - 1, Int(Double(levels.count) * lightShare))]
            let near = samples.filter { $0.level >= light - 24 }.map(\.saturation).sorted()
            self.light = light
            saturation = near.isEmpty ? 0 : near[near.count / 2]
        }
        func isPaper(_ v: (level: Int, saturation: Int)) -> Bool {
            v.level >= light - 10 && v.saturation <= saturation + 14 && v.saturation <= 40
        }
    }

    static func sample(
        _ pixels: UnsafeBufferPointer<UInt8>, _ x: Double, _ y: Double, width: Int, height: Int,
        bands: Int
    ) -> (level: Int, saturation: Int)? {
        let xi = Int(x), yi = Int(y)
        guard x >= 0, y >= 0, xi < width, yi < height else { return nil }
        let o = (yi * width + xi) * bands
        if bands < 3 { return (Int(pixels[o]), 0) }
        let r = Int(pixels[o]), g = Int(pixels[o + 1]), b = Int(pixels[o + 2])
        return (max(r, g, b), max(r, g, b) - min(r, g, b))
    }

    static func paperReference(
        _ quad: Quad, pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
        bands: Int
    ) -> PaperReference? {
        let pts = quad.corners
        let cx = pts.map(\.x).reduce(0, +) / 4, cy = pts.map(\.y).reduce(0, +) / 4
        let d = 3 * Double(max(width, height)) * marginProbeDistance
        var inside: [(level: Int, saturation: Int)] = []
        for i in 0..<4 {
            let a = pts[i], b = pts[(i + 1) % 4]
            for s in 0..<15 {
                let t = 0.15 + 0.7 * Double(s) / 14
                let px = a.x + (b.x - a.x) * t, py = a.y + (b.y - a.y) * t
                let dx = cx - px, dy = cy - py
                let n = max(1e-9, (dx * dx + dy * dy).squareRoot())
                if let v = sample(pixels, px + dx / n * d, py + dy / n * d, width: width, height: height, bands: bands)
                {
                    inside.append(v)
                }
            }
        }
        guard inside.count >= 8 else { return nil }
        return PaperReference(samples: inside, lightShare: 0.9)
    }

    /// How many sides of `quad` have a band of bright, unsaturated paper just outside them, as
    /// bright as the brightest part of the quad's inside (its paper or its light print). A desk,
    /// a stand or a shadow is darker or more coloured; a side on the frame's edge has no band.
    static func paperMarginSides(
        _ quad: Quad, pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
        bands: Int
    ) -> Int {
        guard let reference = paperReference(quad, pixels: pixels, width: width, height: height, bands: bands) else {
            return 0
        }
        guard let quadSides = quad.sides else { return 0 }
        let d = Double(max(width, height)) * marginProbeDistance
        let steps = 15
        var sides = 0
        for side in quadSides {
            var out: [(level: Int, saturation: Int)] = []
            for s in 0..<steps {
                let t = 0.15 + 0.7 * Double(s) / Double(steps - 1)
                let p = side.point(at: t, out: d)
                if let v = sample(pixels, p.x, p.y, width: width, height: height, bands: bands) { out.append(v) }
            }
            guard out.count * 3 >= steps * 2 else { continue }
            if out.filter(reference.isPaper).count * 10 >= out.count * 7 { sides += 1 }
        }
        return sides
    }
}
