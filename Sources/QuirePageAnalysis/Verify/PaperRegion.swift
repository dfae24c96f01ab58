/// A page candidate that owes nothing to the line search (issue 36, section 2): the largest
/// connected region of bright, weakly saturated pixels (paper against a desk, a dark cradle or a
/// coloured cover), and the largest quad with its corners on that region's convex hull.
///
/// Why a region: where a side of the sheet makes no straight edge the Hough space can find (a
/// curled corner, a side lost in glare), or where a printed box outscores the sheet's edges, the
/// paper itself is still one bright blob; the verifier weighs this candidate against the lines'.
enum PaperRegion {
    /// Long side of the grid the region is found on: enough cells that a sheet filling a tenth
    /// of the frame spans dozens of them, few enough that the search costs well under 1 ms.
    static let gridLongSide = 160
    /// Highest saturation (max minus min channel, 0-255) a paper cell may have: white, cream and
    /// grey paper pass, a wooden desk or a red book cover does not.
    static let maximumSaturation = 48
    /// The region must cover at least this share of the frame to be proposed (smaller bright
    /// blobs are labels, glare or a sky, not a page anyone photographs).
    static let minimumShare = 0.05
    /// A region covering more than this share of the frame is the whole frame, already a candidate.
    static let maximumShare = 0.97
    /// Hull vertices kept for the largest-quad search (evenly along the hull): O(n³) quads.
    static let maximumHullVertices = 48

    /// The region's largest inscribed quad in copy pixel centres, reading order; nil when no
    /// region of a plausible size stands out.
    static func quad(pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bands: Int) -> Quad? {
        PaperGrid(pixels: pixels, width: width, height: height, bands: bands).flatMap(quad(grid:))
    }

    /// The same on a grid already made (the candidates' features read the same grid).
    static func quad(grid: PaperGrid) -> Quad? {
        let (gw, gh, step) = (grid.width, grid.height, grid.step)
        let paper = grid.level.indices.map { Int(grid.level[$0]) > grid.threshold && !grid.saturated[$0] }
        guard let region = largestComponent(paper, width: gw, height: gh) else { return nil }
        let share = Double(region.count) / Double(gw * gh)
        guard share >= minimumShare, share <= maximumShare else { return nil }
        // Each row's outermost cells, at their outer edges in copy pixels: enough for the hull.
        var left = [Int](repeating: Int.max, count: gh), right = [Int](repeating: -1, count: gh)
        for i in region {
            let (x, y) = (i % gw, i / gw)
            left[y] = min(left[y], x)
            right[y] = max(right[y], x)
        }
        var points: [Point] = []
        for y in 0..<gh where right[y] >= 0 {
            let top = Double(y * step), bottom = Double((y + 1) * step - 1)
            let l = Double(left[y] * step), r = Double((right[y] + 1) * step - 1)
            points += [Point(x: l, y: top), Point(x: l, y: bottom), Point(x: r, y: top), Point(x: r, y: bottom)]
        }
        let hull = convexHull(points)
        guard hull.count >= 4 else { return nil }
        let kept =
            hull.count <= maximumHullVertices
            ? hull : (0..<maximumHullVertices).map { hull[$0 * hull.count / maximumHullVertices] }
        guard let q = largestQuad(kept) else { return nil }
        return q.readingOrdered()
    }

    /// The cells of the largest 4-connected component of `mask`, or nil when it is empty.
    static func largestComponent(_ mask: [Bool], width: Int, height: Int) -> [Int]? {
        var seen = [Bool](repeating: false, count: mask.count)
        var best: [Int] = []
        var stack: [Int] = []
        for start in mask.indices where mask[start] && !seen[start] {
            var component: [Int] = []
            seen[start] = true
            stack.append(start)
            while let i = stack.popLast() {
                component.append(i)
                let (x, y) = (i % width, i / width)
                /// Pushes the neighbour `j` when it is in the mask and not yet seen.
                func visit(_ j: Int) {
                    if mask[j], !seen[j] {
                        seen[j] = true
                        stack.append(j)
                    }
                }
                // Left, right, up, down, as before (no array of neighbours made a pixel).
                if x > 0 { visit(i - 1) }
                if x + 1 < width { visit(i + 1) }
                if y > 0 { visit(i - width) }
                if y + 1 < height { visit(i + width) }
            }
            if component.count > best.count { best = component }
        }
        return best.isEmpty ? nil : best
    }

    /// The convex hull (Andrew's monotone chain), counter-clockwise in y-up terms, no repeats.
    static func convexHull(_ points: [Point]) -> [Point] {
        let sorted = Set(points).sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard sorted.count >= 3 else { return sorted }
        func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var lower: [Point] = [], upper: [Point] = []
        for p in sorted {
            while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
            lower.append(p)
        }
        for p in sorted.reversed() {
            while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
            upper.append(p)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }

    /// The largest-area quad with its corners among `hull`'s vertices (in hull order): for each
    /// diagonal, the farthest vertex on either side of it.
    static func largestQuad(_ hull: [Point]) -> Quad? {
        let n = hull.count
        func triangle(_ a: Point, _ b: Point, _ c: Point) -> Double {
            abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)) / 2
        }
        var best: (area: Double, corners: [Int])? = nil
        for i in 0..<(n - 2) {
            for k in (i + 2)..<n where (k + 1) % n != i {
                var left: (Double, Int) = (-1, -1), right: (Double, Int) = (-1, -1)
                for j in (i + 1)..<k {
                    let a = triangle(hull[i], hull[j], hull[k])
                    if a > left.0 { left = (a, j) }
                }
                for l in (k + 1)..<(n + i) {
                    let a = triangle(hull[i], hull[l % n], hull[k])
                    if a > right.0 { right = (a, l % n) }
                }
                guard left.1 >= 0, right.1 >= 0 else { continue }
                let area = left.0 + right.0
                if area > best?.area ?? 0 { best = (area, [i, left.1, k, right.1]) }
            }
        }
        guard let best else { return nil }
        return Quad(corners: best.corners.map { hull[$0] })
    }
}

/// The coarse grid the paper region is found on: each cell's level (max channel) and whether it
/// is too saturated to be paper, with Otsu's level between the photo's dark and bright cells.
struct PaperGrid {
    var level: [UInt8]
    var saturated: [Bool]
    var width: Int, height: Int
    /// Copy pixels per cell.
    var step: Int
    /// Otsu's level over the cells: paper is brighter.
    var threshold: Int

    /// The grid of a copy at least 16 pixels a side, or nil.
    init?(pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bands: Int) {
        guard width >= 16, height >= 16, bands >= 1, pixels.count >= width * height * bands else { return nil }
        step = max(1, max(width, height) / PaperRegion.gridLongSide)
        (self.width, self.height) = (width / step, height / step)
        level = [UInt8](repeating: 0, count: self.width * self.height)
        saturated = [Bool](repeating: false, count: self.width * self.height)
        for gy in 0..<self.height {
            for gx in 0..<self.width {
                let o = ((gy * step + step / 2) * width + gx * step + step / 2) * bands
                if bands < 3 {
                    level[gy * self.width + gx] = pixels[o]
                } else {
                    let (r, g, b) = (pixels[o], pixels[o + 1], pixels[o + 2])
                    level[gy * self.width + gx] = max(r, g, b)
                    saturated[gy * self.width + gx] =
                        Int(max(r, g, b)) - Int(min(r, g, b)) > PaperRegion.maximumSaturation
                }
            }
        }
        threshold = PageTone.otsu(level)
    }
}
