import QuireGeometry

/// A quad on a scan is the sheet's edge against the scanner lid, never a rectangle of the
/// sheet's own print (issue 36): a music score's staff systems, a table or a ruled box have four
/// straight, well supported sides, so the line score takes them for a page; but around them lies
/// more of the same paper with more print on it, which no scanner lid carries. Unlike the paper
/// check beside each side (`liesInsidePaper`, one distance out), this looks at everything between
/// the quad and the frame's edge, so print a staff system's height away still counts.
package enum PrintAround {
    /// Grid points across the frame, per axis: every region of the frame is seen.
    static let gridSteps = 48
    /// Points this close to the quad or to the frame's edge (share of the long side) are not
    /// read: the quad's own edge blur and a scanner's dark strips along the border are no print.
    static let clearance = 0.02
    /// Share of the frame that must lie outside the quad (past the clearance) to judge it.
    static let minimumOutsideShare = 0.1
    /// Share of the outside points that must be the quad's own paper (a lid of another tone is
    /// not the sheet).
    static let paperShare = 0.5
    /// Share of the outside points that must be ink: print beside the quad, where a blank lid
    /// or a plain margin has none.
    static let inkShare = 0.02
    /// Levels within which a point is the quad's paper (as the paper check's tolerance).
    static let paperTolerance = PageDetector.paperLevelTolerance
    /// Levels under the paper that count as ink (as the paper check's ink).
    static let inkContrast = PageDetector.inkContrast

    /// Whether `quad` (copy pixel centres) lies inside printed paper like its own: at least half
    /// of the frame around it is its paper and at least 2 % is ink.
    package static func liesInPrint(_ quad: Quad, pixels: [UInt8], width: Int, height: Int, bands: Int) -> Bool {
        pixels.withUnsafeBufferPointer { liesInPrint(quad, pixels: $0, width: width, height: height, bands: bands) }
    }

    /// `liesInPrint` on a buffer of the copy's pixels.
    static func liesInPrint(
        _ quad: Quad, pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bands: Int
    ) -> Bool {
        guard width >= 16, height >= 16, bands >= 1, pixels.count >= width * height * bands, quad.isConvex else {
            return false
        }
        func level(_ x: Int, _ y: Int) -> Int {
            let o = (y * width + x) * bands
            var m = Int(pixels[o])
            for c in 1..<min(bands, 3) { m = max(m, Int(pixels[o + c])) }
            return m
        }
        let long = Double(max(width, height)), margin = clearance * long
        let centre = Point(x: quad.corners.map(\.x).reduce(0, +) / 4, y: quad.corners.map(\.y).reduce(0, +) / 4)
        // The quad grown by the clearance about its centre: points inside it are not outside.
        let grown = quad.map { p in
            let d = p - centre
            let r = max(1e-9, (d.x * d.x + d.y * d.y).squareRoot())
            return p + d * ((r + margin * 1.5) / r - 1)
        }
        var inside: [Int] = [], outside: [Int] = []
        for i in 0..<gridSteps {
            for j in 0..<gridSteps {
                let x = (Double(i) + 0.5) * Double(width) / Double(gridSteps)
                let y = (Double(j) + 0.5) * Double(height) / Double(gridSteps)
                let v = level(Int(x), Int(y))
                if quad.contains(Point(x: x, y: y)) {
                    inside.append(v)
                } else if !grown.contains(Point(x: x, y: y)), x >= margin, y >= margin,
                    x <= Double(width) - margin, y <= Double(height) - margin
                {
                    outside.append(v)
                }
            }
        }
        guard inside.count >= 8, Double(outside.count) >= minimumOutsideShare * Double(gridSteps * gridSteps) else {
            return false
        }
        let sorted = inside.sorted()
        let paper = sorted[sorted.count * 3 / 4]
        guard paper >= PageDetector.minimumPaperLevel else { return false }
        let onPaper = outside.filter { abs($0 - paper) <= paperTolerance }.count
        let ink = outside.filter { $0 <= paper - inkContrast }.count
        let n = Double(outside.count)
        return Double(onPaper) >= paperShare * n && Double(ink) >= inkShare * n
    }
}

extension Quad {
    /// Whether `p` lies inside this convex quad (on the same side of every side).
    func contains(_ p: Point) -> Bool {
        var sign = 0.0
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4]
            let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if cross == 0 { continue }
            if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
        }
        return true
    }
}
