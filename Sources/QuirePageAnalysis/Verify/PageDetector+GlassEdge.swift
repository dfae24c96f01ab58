#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A page's side that ends in a fold or in a scanner's glass (issue 36, section 2): on a book
/// scanner the page bends over the platen's apex into the glass, where the facing page's
/// reflection carries on as bright as the page, so a quad runs on over it to the frame's edge.
/// The apex is a straight edge parallel to that side, inside the quad: it is offered as a
/// candidate side, and how strong it is describes every candidate to the verifier.

extension PageDetector {
    /// Most a line may turn from a side (radians, about 4 degrees) to stand for that side.
    static let glassParallel = 0.07
    /// A line this close to a side (share of the distance to the opposite side) is that side.
    static let glassNearest = 0.03
    /// ...and one deeper than this share cuts the page itself (a rule, a gutter).
    static let glassDeepest = 0.4
    /// Edge support a line needs between the neighbouring sides to be a candidate side.
    static let glassSupport = 0.5

    /// The strongest line of `lines` (copy pixels) parallel to a side of `quad` that runs along
    /// the frame's edge, inside the quad near that side: the quad with that side moved onto the
    /// line, and the line's edge support there; nil when no side of the quad is on the frame or
    /// no line stands in for one.
    static func glassEdge(
        of quad: Quad, lines: [Line], work: WorkImage, scale: Double, width: Int, height: Int
    ) -> (quad: Quad, support: Double)? {
        let c = quad.corners
        var best: (quad: Quad, support: Double)? = nil
        for k in 0..<4 where isOnFrame(c[k], c[(k + 1) % 4], width: width, height: height) {
            let side = line(c[k], c[(k + 1) % 4]), opposite = line(c[(k + 2) % 4], c[(k + 3) % 4])
            let before = line(c[(k + 3) % 4], c[k]), after = line(c[(k + 1) % 4], c[(k + 2) % 4])
            let mid = Point(x: (c[k].x + c[(k + 1) % 4].x) / 2, y: (c[k].y + c[(k + 1) % 4].y) / 2)
            let far = Point(x: (c[(k + 2) % 4].x + c[(k + 3) % 4].x) / 2, y: (c[(k + 2) % 4].y + c[(k + 3) % 4].y) / 2)
            for l in lines {
                guard abs(l.nx * side.ny - l.ny * side.nx) <= sin(glassParallel),
                    abs(l.nx * opposite.ny - l.ny * opposite.nx) <= sin(glassParallel * 2)
                else { continue }
                let near = l.distance(mid.x, mid.y), away = l.distance(far.x, far.y)
                guard near * away < 0 else { continue }
                let depth = abs(near) / (abs(near) + abs(away))
                guard depth >= glassNearest, depth <= glassDeepest,
                    let a = before.intersection(l), let b = l.intersection(after)
                else { continue }
                var corners = c
                corners[k] = a
                corners[(k + 1) % 4] = b
                guard let moved = Quad(corners: corners), moved.isFinite, moved.isConvex,
                    let sides = moved.sides
                else { continue }
                let s = work.sideSupport(sides[k], scale: scale)
                let support = max(s.bright, s.dark)
                if support > best?.support ?? 0 { best = (moved, support) }
            }
        }
        return best
    }

    /// A glass edge counts (`glass_side`) only when moving the side onto it changes the quad by at
    /// least this share of their union (1 - IoU): a sheet's own edge a hair inside a side run onto
    /// the frame leaves the candidate the page either way (at IoU 0.95 with the moved quad both
    /// clear the 0.9 at which a quad is the page, or both nearly miss it), where a platen's apex
    /// or a fold well inside the page makes it the wrong quad. Without it the verifier held every
    /// such near-exact quad against the page and preferred a quad closed on print inside the sheet.
    static let glassMinimumShift = 0.05

    /// The hair-inside glass edge is let off (`glassMinimumShift`) only when at most this share of
    /// the samples just inside the quad's sides on the frame are paper (`frame_paper`): with the
    /// desk or the stand there, the page ends inside those sides and an edge a hair inside one is
    /// the sheet's own; with paper there the page runs off the frame, so an edge a hair inside a
    /// side on the frame is not the sheet's, and the quad is wrong by its other sides on the frame
    /// (an open book whose frame-side quad crosses the desk; `RealPhotoDetectionTests`).
    static let glassForgivenFramePaper = 0.5

    /// `glass_side` of `quad`: the edge support of its glass edge (`glassEdge`), 0 when it has
    /// none, or when moving the side onto it changes the quad by less than `glassMinimumShift`
    /// and at most `glassForgivenFramePaper` of its sides on the frame are paper (`framePaper`,
    /// nil where it is not measured, as in the cheap ranking: the shift alone decides).
    static func glassSide(
        of quad: Quad, lines: [Line], work: WorkImage, scale: Double, width: Int, height: Int,
        framePaper: Double? = nil
    ) -> Double {
        guard let glass = glassEdge(of: quad, lines: lines, work: work, scale: scale, width: width, height: height)
        else { return 0 }
        let hairInside = 1 - quad.intersectionOverUnion(with: glass.quad) < glassMinimumShift
        return hairInside && (framePaper ?? 0) <= glassForgivenFramePaper ? 0 : glass.support
    }

    /// The line through `a` and `b`.
    private static func line(_ a: Point, _ b: Point) -> Line {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = max(1e-9, (dx * dx + dy * dy).squareRoot())
        let nx = -dy / length, ny = dx / length
        return Line(nx: nx, ny: ny, c: nx * a.x + ny * a.y)
    }
}
