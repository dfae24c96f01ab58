/// The sides of a candidate that lie on the frame's edge stand in for a page's sides the frame
/// cuts off (issue 36): that holds when the page's paper reaches the frame there. The feature
/// `frame_paper` tells a page running off the frame (paper along its frame sides) from the whole
/// frame or a quad closed by the frame over a desk or a stand (no paper there).
extension CandidateFeatures {
    /// The column of `frame_paper`.
    static let framePaperColumn = names.firstIndex(of: "frame_paper")!
    /// Samples along each side on the frame's edge, over its middle 80 %.
    static let framePaperSamples = 16
    /// How far inside the frame's edge (copy pixels) they are read: past its half-pixel border.
    static let framePaperDepth = 2.0

    /// The share of the samples just inside the sides of `quad` on the frame's edge that are
    /// paper (brighter than Otsu's level of the photo and weakly saturated, as `PaperRegion`'s
    /// cells); 0 when no side is on the frame's edge.
    static func framePaper(_ quad: Quad, image: CopyPixels, grid: PaperGrid?) -> Double {
        guard let grid, let sides = quad.sides else { return 0 }
        var paper = 0, seen = 0
        for (k, side) in sides.enumerated() {
            let a = quad.corners[k], b = quad.corners[(k + 1) % 4]
            guard PageDetector.isOnFrame(a, b, width: image.width, height: image.height) else { continue }
            for s in 0..<framePaperSamples {
                let t = 0.1 + 0.8 * Double(s) / Double(framePaperSamples - 1)
                let p = side.point(at: t, out: -framePaperDepth)
                guard let v = image.sample(p.x, p.y) else { continue }
                seen += 1
                if v.level > grid.threshold && v.saturation <= PaperRegion.maximumSaturation { paper += 1 }
            }
        }
        return seen > 0 ? Double(paper) / Double(seen) : 0
    }
}
