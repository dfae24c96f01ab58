/// What lies beyond a candidate's sides, on the candidate's own terms (issue 36): a sheet has the
/// desk, a stand or the frame's edge beyond most of its sides; a figure, a box or a table printed
/// on a sheet has more paper beyond them, with more print on it. Unlike the paper check beside
/// each side (`liesInsidePaper`: the inside's paper, one distance out) this reads paper by the
/// photo's own light and colour (a yellow figure on cream paper has no paper of its own tone
/// around it), and unlike the old `nested_on_paper` it needs no larger quad around the candidate.
extension CandidateFeatures {
    /// The column of `nested_on_paper`: the share of the quad's four sides beyond which paper
    /// continues (`PaperBeyond`).
    static let nestedColumn = names.firstIndex(of: "nested_on_paper")!
    /// The column of `print_beyond`: the share of the four sides beyond which paper carries print.
    static let printBeyondColumn = names.firstIndex(of: "print_beyond")!
}

/// Paper and print beyond each side of a quad, read on the detection copy.
enum PaperBeyond {
    /// Rays out of each side, spread over its middle 80 %.
    static let rays = 16
    /// Samples along each ray, from `nearest` to `farthest` (shares of the long side): past the
    /// side's own blur, and about as far as a page's margin and a line or two of print beyond it.
    static let samples = 8
    static let nearest = 0.012
    static let farthest = 0.09
    /// A side continues on paper when at least this share of its samples are paper.
    static let paperShare = 0.5
    /// A side carries print beyond it when at least this share of its rays meet ink with paper
    /// still further out (print on the same sheet, not the desk's far edge).
    static let printShare = 0.1
    /// Levels under the paper's that count as ink (as the other features' ink).
    static let inkStep = CandidateFeatures.inkStep

    /// The shares of the four sides of `quad` (copy pixel centres) beyond which paper continues,
    /// and beyond which that paper carries print; sides on the frame's edge have nothing beyond.
    static func measure(
        _ quad: Quad, image: CopyPixels, grid: PaperGrid?
    ) -> (paper: Double, print: Double) {
        guard let grid, let sides = quad.sides else { return (0, 0) }
        let long = Double(max(image.width, image.height))
        var paperSides = 0, printSides = 0
        for (k, side) in sides.enumerated() {
            let a = quad.corners[k], b = quad.corners[(k + 1) % 4]
            if PageDetector.isOnFrame(a, b, width: image.width, height: image.height) { continue }
            // Each ray's samples: nil off the frame, else (is paper, level).
            var rayList: [[(paper: Bool, level: Int)?]] = []
            var paperLevels: [Int] = [], seen = 0
            for r in 0..<rays {
                let t = 0.1 + 0.8 * Double(r) / Double(rays - 1)
                var ray: [(paper: Bool, level: Int)?] = []
                for s in 0..<samples {
                    let d = nearest + (farthest - nearest) * Double(s) / Double(samples - 1)
                    let p = side.point(at: t, out: d * long)
                    guard let v = image.sample(p.x, p.y) else {
                        ray.append(nil)
                        continue
                    }
                    let paper = v.level > grid.threshold && v.saturation <= PaperRegion.maximumSaturation
                    if paper { paperLevels.append(v.level) }
                    seen += 1
                    ray.append((paper, v.level))
                }
                rayList.append(ray)
            }
            guard seen > 0, Double(paperLevels.count) >= paperShare * Double(seen) else { continue }
            paperSides += 1
            let paper = CandidateFeatures.upperQuartile(paperLevels)
            let printed = rayList.filter { ray in
                guard let ink = ray.firstIndex(where: { $0.map { !$0.paper && $0.level <= paper - inkStep } ?? false })
                else { return false }
                return ray[(ink + 1)...].contains { $0?.paper == true }
            }.count
            if Double(printed) >= printShare * Double(rays) { printSides += 1 }
        }
        return (Double(paperSides) / 4, Double(printSides) / 4)
    }
}
