/// Two cues for print mistaken for the page (issue 36, branch t-verify), both read on the detection
/// copy's pixels like the other `CandidateFeatures`:
///
/// - `text_line_side`: a side that runs along a line of text, with the page's paper on both sides
///   of it, is a line through the print (a quad closed on a text line's baseline), not the
///   sheet's edge, which has the desk or the frame beyond it.
/// - `solid_ink`: a wide, solid dark area inside the quad (a marker card's code, a photograph or
///   a dark figure) where a page carries thin strokes of text.
extension CandidateFeatures {
    /// The column of `text_line_side`.
    static let textLineColumn = names.firstIndex(of: "text_line_side")!
    /// The column of `solid_ink`.
    static let solidInkColumn = names.firstIndex(of: "solid_ink")!

    /// How far either side of a side lines parallel to it are read for a row of text, as a share
    /// of the long side: a line of text and the gap to the next at the sizes a page fills a photo.
    static let textReach = 0.03
    /// Parallel lines read on each side of the side, evenly up to `textReach`.
    static let textOffsets = 8
    /// Lines nearer the side than this share of the long side are left out: the side's own edge
    /// blur or shadow would read as a row of ink along any edge.
    static let textGap = 0.004
    /// Samples along each parallel line, over the side's middle 80 %.
    static let textSamples = 32

    /// `text_line_side` of `quad`: over its sides not on the frame's edge, the largest share of
    /// ink along one line parallel to a side within `textReach` of it, counted only where the
    /// lines at `textReach` on both sides are mostly the page's paper (their median within
    /// `paperStep` of `paper`); 0 when no side has paper on both sides.
    static func textLineSide(
        _ quad: Quad, sides: [Quad.Side], onFrame: [Bool], paper: Int, image: CopyPixels, long: Double
    ) -> Double {
        var best = 0.0
        for (k, side) in sides.enumerated() where !onFrame[k] {
            let reach = textReach * long
            guard isPaper(lineLevels(side, out: reach, image: image), paper: paper),
                isPaper(lineLevels(side, out: -reach, image: image), paper: paper)
            else { continue }
            for step in 0..<textOffsets {
                let distance = textGap * long + (reach - textGap * long) * Double(step) / Double(textOffsets - 1)
                for out in [distance, -distance] {
                    let levels = lineLevels(side, out: out, image: image)
                    guard levels.count >= textSamples / 2 else { continue }
                    let ink = levels.filter { $0 <= paper - inkStep }.count
                    best = max(best, Double(ink) / Double(levels.count))
                }
            }
        }
        return best
    }

    /// The levels along the line parallel to `side` at `out` pixels outward (negative: inward).
    static func lineLevels(_ side: Quad.Side, out: Double, image: CopyPixels) -> [Int] {
        (0..<textSamples).compactMap { s in
            let p = side.point(at: 0.1 + 0.8 * Double(s) / Double(textSamples - 1), out: out)
            return image.sample(p.x, p.y)?.level
        }
    }

    /// Whether most of a line's levels are the page's paper (its median within `paperStep`).
    static func isPaper(_ levels: [Int], paper: Int) -> Bool {
        guard levels.count >= textSamples / 2 else { return false }
        return abs(levels.sorted()[levels.count / 2] - paper) <= paperStep
    }

    /// How far from an inside sample (share of the long side) its four neighbours are read: wider
    /// than a stroke of text at the sizes a page fills a photo, so only a solid area is ink at all five.
    static let solidReach = 0.008

    /// `solid_ink` of `quad`: the share of its 9 x 9 inside grid (`insideSamples`' points) that is
    /// ink, as are the four samples `solidReach` away across and down.
    static func solidInk(_ quad: Quad, paper: Int, image: CopyPixels, long: Double) -> Double {
        let c = quad.corners, d = solidReach * long
        var solid = 0, seen = 0
        for i in 0..<9 {
            for j in 0..<9 {
                let u = 0.1 + 0.8 * Double(i) / 8, v = 0.1 + 0.8 * Double(j) / 8
                let top = c[0] + (c[1] - c[0]) * u, bottom = c[3] + (c[2] - c[3]) * u
                let p = top + (bottom - top) * v
                guard let centre = image.sample(p.x, p.y) else { continue }
                seen += 1
                guard centre.level <= paper - inkStep else { continue }
                let around = [(d, 0.0), (-d, 0.0), (0.0, d), (0.0, -d)].compactMap {
                    image.sample(p.x + $0.0, p.y + $0.1)
                }
                if around.count == 4, around.allSatisfy({ $0.level <= paper - inkStep }) { solid += 1 }
            }
        }
        return seen > 0 ? Double(solid) / Double(seen) : 0
    }
}
