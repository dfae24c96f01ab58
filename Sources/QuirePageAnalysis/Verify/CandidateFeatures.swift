#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which part of the detector proposed a page candidate (issue 36, section 2).
public enum CandidateGenerator: String, CaseIterable, Sendable, Hashable {
    /// A quad of four near-parallel line pairs, ranked by edge support.
    case edgeLines = "edge"
    /// The sheet around a frame printed on it (`paperAround`).
    case paperRegion = "paper"
    /// A quad moved past a fold or a line across the page (`checkedForLinesAcross`).
    case folds = "fold"
    /// The band of paper between two edges running off the frame (`frameBand`).
    case frameBand = "band"
    /// One or two edges of a page running off the frame on two or three sides, closed by the
    /// frame's edges (`frameSideQuads`).
    case frameSides = "frameside"
    /// The largest bright, weakly saturated region's quad (`PaperRegion`), found without lines.
    case brightRegion = "region"
    /// The rules' quad with a side on the frame's edge moved onto a fold or glass edge inside it
    /// (`glassEdge`).
    case glassEdge = "glass"
    /// What the hand-set rules decide (refined, grown to the paper), when they report a quad.
    case rules
    /// The whole frame: keep the photo as it is, or deskew it as a scan.
    case wholeFrame = "frame"
}

/// Named features of one candidate quad, measured on the detection copy only (its pixels and
/// the detector's working-copy gradient), so the verifier sees what the rules see.
///
/// Every feature is a plain number near 0...1 (a share, a level over 255, a ratio), so that a
/// logistic model over them stays readable and its L2 penalty treats them alike.
package enum CandidateFeatures {
    /// The feature names, in the order `measure` returns them (the columns of the candidate table).
    package static let names: [String] =
        [
            "support_min", "support_mean", "sides_on_frame", "contrast_min", "contrast_mean",
            "paper_inside", "paper_outside", "paper_share_inside", "ink_inside", "printed_on_paper",
            "border_ink_max", "border_ink_mean", "saturation_inside", "saturation_outside",
            "area_fraction", "log_aspect", "angle_deviation", "opposite_mismatch", "frame_margin",
            "centre_offset", "scan_rectangle", "flat_frame", "line_score_share", "outside_paper_share",
            "ink_outside", "content_across", "rule_sides", "print_around", "nested_on_paper",
            "print_beyond", "from_frame", "glass_side", "region_iou", "frame_paper",
            "near_square", "text_line_side", "solid_ink"
        ]
    /// The column of `glass_side`: the edge support of a fold or glass edge inside the quad,
    /// parallel to a side on the frame's edge (`PageDetector.glassSide`); 0 when none, or when
    /// moving the side onto it hardly changes the quad.
    static let glassColumn = names.firstIndex(of: "glass_side")!
    /// The column of `print_around`: whether the quad lies in print (`PrintAround.liesInPrint`).
    static let printAroundColumn = names.firstIndex(of: "print_around")!
    /// The column of `region_iou`: the quad's IoU with the bright paper region's (`PaperRegion`).
    static let regionColumn = names.firstIndex(of: "region_iou")!
    /// The columns of `support_min`, `support_mean` and `line_score_share`.
    static let supportMinColumn = names.firstIndex(of: "support_min")!
    static let supportMeanColumn = names.firstIndex(of: "support_mean")!
    static let lineScoreColumn = names.firstIndex(of: "line_score_share")!
    /// The features read without pixel samples (`geometry`, edge support and line score on the
    /// working copy, the glass side, the paper region's overlap): what ranks candidates cheaply.
    static let cheapColumns =
        [
            "support_min", "support_mean", "sides_on_frame", "area_fraction", "log_aspect", "angle_deviation",
            "opposite_mismatch", "frame_margin", "centre_offset", "scan_rectangle", "flat_frame", "line_score_share",
            "from_frame", "glass_side", "region_iou", "near_square"
        ].map { names.firstIndex(of: $0)! }

    /// The aspect (log of the long side over the short, as `log_aspect`) under which a quad
    /// reads as nearly square: ln 1.16. Paper is cut longer than that (A sizes 1.41, letter 1.29,
    /// cards and receipts more) and stays over it at the usual slant of a photo; marker cards,
    /// stickers, square boxes and pictures printed on a page do not. `near_square` rises from 0
    /// there to 1 for a square, so the model can weigh squareness apart from the aspect, whose
    /// pages lie in the middle of its range.
    static let nearSquareAspect = 0.15

    /// `near_square` of a quad whose `log_aspect` is `aspect`.
    static func nearSquare(_ aspect: Double) -> Double { max(0, 1 - aspect / nearSquareAspect) }

    /// How far either side of a side its line is searched for a thin printed rule, as a share
    /// of the long side: the refined side may sit on either edge of a rule a few pixels wide.
    static let ruleReach = 0.006
    /// Samples of a side (share) that must show a thin dark line with the same tone on both
    /// sides for the side to count as a printed rule.
    static let ruleShare = 0.5

    /// How far outside and inside each side contrast is read, as a share of the long side: past
    /// the blur of the edge, short of the next structure.
    static let contrastDistance = 0.015
    /// How far outside the quad its surroundings' paper is read, as a share of the long side (as
    /// the paper check does).
    static let surroundDistance = PageDetector.paperProbeDistance
    /// How far inside each side the page's border is read for print cut by the side.
    static let borderDistance = 0.02
    /// Levels under the paper's that count as ink (as the paper check's ink).
    static let inkStep = 60
    /// Levels within which a sample counts as the page's paper.
    static let paperStep = 30
    /// Samples along each side.
    static let sideSamples = 24

    /// The features of `quad` (pixel-centre coordinates of the copy) from `generator`.
    /// - Parameter lineScoreShare: the candidate's line score over the best line quad's
    ///   (`lineScore`), the same measure for every generator's candidate.
    /// - Parameter printAround: whether to measure `print_around` (the costliest feature); 0 if not.
    static func measure(
        _ quad: Quad, generator: CandidateGenerator, lineScoreShare: Double,
        pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bands: Int,
        work: WorkImage?, scale: Double, flatFrame: Bool, grid: PaperGrid?, printAround: Bool = true
    ) -> [Double] {
        let long = Double(max(width, height))
        let image = CopyPixels(pixels: pixels, width: width, height: height, bands: bands)
        let sides = quad.sides ?? []
        let onFrame = (0..<4).map {
            PageDetector.isOnFrame(quad.corners[$0], quad.corners[($0 + 1) % 4], width: width, height: height)
        }
        let inside = insideSamples(quad, image)
        let paper = upperQuartile(inside.map { $0.level })
        // Outside: the ring at `surroundDistance`, sides on the frame's edge have none.
        var outside: [(level: Int, saturation: Int)] = []
        var contrasts: [Double] = [], borderInk: [Double] = []
        var brightIn = 0.0, darkIn = 0.0
        var support: [(bright: Double, dark: Double)] = []
        for (k, side) in sides.enumerated() where !onFrame[k] {
            var steps: [Double] = []
            var ink = 0, seen = 0
            for s in 0..<sideSamples {
                let t = 0.1 + 0.8 * Double(s) / Double(sideSamples - 1)
                let far = side.point(at: t, out: surroundDistance * long)
                if let v = image.sample(far.x, far.y) { outside.append(v) }
                let o = side.point(at: t, out: contrastDistance * long)
                let i = side.point(at: t, out: -contrastDistance * long)
                if let a = image.sample(i.x, i.y), let b = image.sample(o.x, o.y) {
                    steps.append(Double(a.level - b.level))
                }
                let edge = side.point(at: t, out: -borderDistance * long)
                if let v = image.sample(edge.x, edge.y) {
                    seen += 1
                    if v.level <= paper - inkStep { ink += 1 }
                }
            }
            let m = median(steps)
            contrasts.append(m)
            if m >= 0 { brightIn += m } else { darkIn -= m }
            borderInk.append(seen > 0 ? Double(ink) / Double(seen) : 0)
            support.append(work?.sideSupport(side, scale: scale) ?? (0, 0))
        }
        let brighter = brightIn >= darkIn
        let supports = support.map { brighter ? $0.bright : $0.dark }
        let signed = contrasts.map { (brighter ? $0 : -$0) / 255 }
        let outsidePaper = outside.count >= 8 ? upperQuartile(outside.map { $0.level }) : paper
        let paperShare =
            inside.isEmpty
            ? 0 : Double(inside.filter { abs($0.level - paper) <= paperStep }.count) / Double(inside.count)
        let inkShare =
            inside.isEmpty ? 0 : Double(inside.filter { $0.level <= paper - inkStep }.count) / Double(inside.count)
        let printed = PageDetector.liesInsidePaper(quad, pixels: pixels, width: width, height: height, bands: bands)

        let (aspect, worstAngle, mismatch) = shape(quad)
        let (w, h) = (Double(width), Double(height))
        let (margin, offset) = position(quad, width: w, height: h)
        let display = quad.map { Point(x: $0.x + 0.5, y: $0.y + 0.5) }

        var features: [Double] = [
            supports.min() ?? 0,
            supports.isEmpty ? 0 : supports.reduce(0, +) / Double(supports.count),
            Double(onFrame.filter { $0 }.count) / 4,
            signed.min() ?? 0,
            signed.isEmpty ? 0 : signed.reduce(0, +) / Double(signed.count),
            Double(paper) / 255,
            Double(outsidePaper) / 255,
            paperShare,
            inkShare,
            printed ? 1 : 0,
            borderInk.max() ?? 0,
            borderInk.isEmpty ? 0 : borderInk.reduce(0, +) / Double(borderInk.count),
            median(inside.map { Double($0.saturation) }) / 255,
            median(outside.map { Double($0.saturation) }) / 255,
            min(1, quad.area / (w * h)),
            aspect,
            worstAngle / (.pi / 2),
            mismatch,
            max(0, margin) / long,
            min(1, offset),
            FrameChecks.isScanRectangle(display) ? 1 : 0,
            flatFrame ? 1 : 0,
            lineScoreShare
        ]
        // Who proposed the candidate is not a feature (it made the verifier a copy of the
        // rules); only the whole frame, an option of a different kind, is told apart.
        features += printedMatter(quad, sides: sides, onFrame: onFrame, paper: paper, image: image, long: long)
        let inPrint =
            printAround && PrintAround.liesInPrint(quad, pixels: pixels, width: width, height: height, bands: bands)
        let beyond = PaperBeyond.measure(quad, image: image, grid: grid)
        // glass_side and region_iou are filled in once every candidate is known.
        features += [inPrint ? 1 : 0, beyond.paper, beyond.print, generator == .wholeFrame ? 1 : 0, 0, 0]
        features.append(framePaper(quad, image: image, grid: grid))
        features.append(nearSquare(aspect))
        features.append(textLineSide(quad, sides: sides, onFrame: onFrame, paper: paper, image: image, long: long))
        features.append(solidInk(quad, paper: paper, image: image, long: long))
        return features
    }

    /// The features of `quad` (copy pixel centres) that depend on its corners alone, as `measure`
    /// computes them, in their columns; every other column 0.
    static func geometry(_ quad: Quad, width: Int, height: Int, flatFrame: Bool, isWholeFrame: Bool) -> [Double] {
        var features = [Double](repeating: 0, count: names.count)
        let (w, h) = (Double(width), Double(height))
        let onFrame = (0..<4).filter {
            PageDetector.isOnFrame(quad.corners[$0], quad.corners[($0 + 1) % 4], width: width, height: height)
        }
        let (aspect, worstAngle, mismatch) = shape(quad)
        let (margin, offset) = position(quad, width: w, height: h)
        let display = quad.map { Point(x: $0.x + 0.5, y: $0.y + 0.5) }
        let values: [(String, Double)] = [
            ("sides_on_frame", Double(onFrame.count) / 4), ("area_fraction", min(1, quad.area / (w * h))),
            ("log_aspect", aspect), ("angle_deviation", worstAngle / (.pi / 2)), ("opposite_mismatch", mismatch),
            ("frame_margin", max(0, margin) / Double(max(width, height))), ("centre_offset", min(1, offset)),
            ("scan_rectangle", FrameChecks.isScanRectangle(display) ? 1 : 0), ("flat_frame", flatFrame ? 1 : 0),
            ("from_frame", isWholeFrame ? 1 : 0), ("near_square", nearSquare(aspect))
        ]
        for (name, value) in values { features[names.firstIndex(of: name)!] = value }
        return features
    }

    /// The quad's position: its nearest corner's distance to the frame's edge (pixels), and its
    /// centre's offset from the frame's (a share of the half diagonal).
    static func position(_ quad: Quad, width w: Double, height h: Double) -> (margin: Double, offset: Double) {
        let c = quad.corners
        let margin = c.map { min($0.x + 0.5, $0.y + 0.5, w - 0.5 - $0.x, h - 0.5 - $0.y) }.min() ?? 0
        let centre = Point(x: c.map(\.x).reduce(0, +) / 4, y: c.map(\.y).reduce(0, +) / 4)
        let offset =
            ((centre.x - w / 2) * (centre.x - w / 2) + (centre.y - h / 2) * (centre.y - h / 2)).squareRoot()
            / (0.5 * (w * w + h * h).squareRoot())
        return (margin, offset)
    }

    /// What tells a sheet's edge from print on a sheet, per side not on the frame's edge (means
    /// over those sides): the share of the samples just outside that are the inside's paper
    /// (a printed box has the page's paper around it, a sheet has the desk), the share outside
    /// that is ink (print beside the side), the share where ink lies both just inside and just
    /// outside (text running across the side), and the share of sides that are thin dark rules
    /// with the same tone on both sides (a box's rule, where a sheet's edge has paper on one side).
    static func printedMatter(
        _ quad: Quad, sides: [Quad.Side], onFrame: [Bool], paper: Int, image: CopyPixels, long: Double
    ) -> [Double] {
        var paperOut = 0, inkOut = 0, outSeen = 0, across = 0, acrossSeen = 0, rules = 0, measured = 0
        let reach = max(1, Int((ruleReach * long).rounded()))
        for (k, side) in sides.enumerated() where !onFrame[k] {
            measured += 1
            var ruleHits = 0, ruleSeen = 0
            for s in 0..<sideSamples {
                let t = 0.1 + 0.8 * Double(s) / Double(sideSamples - 1)
                for distance in [borderDistance, surroundDistance] {
                    let o = side.point(at: t, out: distance * long)
                    guard let v = image.sample(o.x, o.y) else { continue }
                    outSeen += 1
                    if abs(v.level - paper) <= paperStep { paperOut += 1 }
                    if v.level <= paper - inkStep { inkOut += 1 }
                }
                let i = side.point(at: t, out: -borderDistance * long),
                    o = side.point(at: t, out: borderDistance * long)
                if let a = image.sample(i.x, i.y), let b = image.sample(o.x, o.y) {
                    acrossSeen += 1
                    if a.level <= paper - inkStep, b.level <= paper - inkStep { across += 1 }
                }
                let inner = side.point(at: t, out: -contrastDistance * long)
                let outer = side.point(at: t, out: contrastDistance * long)
                guard let a = image.sample(inner.x, inner.y), let b = image.sample(outer.x, outer.y) else { continue }
                var line = 255
                for d in -reach...reach {
                    let p = side.point(at: t, out: Double(d))
                    if let v = image.sample(p.x, p.y) { line = min(line, v.level) }
                }
                ruleSeen += 1
                if abs(a.level - b.level) <= paperStep, min(a.level, b.level) - line >= inkStep / 2 { ruleHits += 1 }
            }
            if ruleSeen > 0, Double(ruleHits) >= ruleShare * Double(ruleSeen) { rules += 1 }
        }
        func share(_ a: Int, _ b: Int) -> Double { b > 0 ? Double(a) / Double(b) : 0 }
        return [
            share(paperOut, outSeen), share(inkOut, outSeen), share(across, acrossSeen), share(rules, measured)
        ]
    }

    /// A 9 x 9 grid over the quad (bilinear between its corners), kept off its sides.
    static func insideSamples(_ quad: Quad, _ image: CopyPixels) -> [(level: Int, saturation: Int)] {
        var inside: [(level: Int, saturation: Int)] = []
        let c = quad.corners
        for i in 0..<9 {
            for j in 0..<9 {
                let u = 0.1 + 0.8 * Double(i) / 8, v = 0.1 + 0.8 * Double(j) / 8
                let top = c[0] + (c[1] - c[0]) * u, bottom = c[3] + (c[2] - c[3]) * u
                let p = top + (bottom - top) * v
                if let s = image.sample(p.x, p.y) { inside.append(s) }
            }
        }
        return inside
    }

    /// The quad's shape: the log aspect of its mean opposite sides, its worst corner's departure
    /// from a right angle (radians), and how far its opposite sides differ (share of the longer).
    static func shape(_ quad: Quad) -> (aspect: Double, worstAngle: Double, mismatch: Double) {
        let c = quad.corners, e = quad.edgeLengths
        let across = (e.top + e.bottom) / 2, down = (e.left + e.right) / 2
        let aspect = across > 0 && down > 0 ? abs(log(across / down)) : 0
        var worstAngle = 0.0
        for i in 0..<4 {
            let a = c[(i + 3) % 4] - c[i], b = c[(i + 1) % 4] - c[i]
            let cosine =
                (a.x * b.x + a.y * b.y)
                / max(1e-9, (a.x * a.x + a.y * a.y).squareRoot() * (b.x * b.x + b.y * b.y).squareRoot())
            worstAngle = max(worstAngle, abs(acos(max(-1, min(1, cosine))) - .pi / 2))
        }
        let mismatch = max(
            abs(e.top - e.bottom) / max(1e-9, max(e.top, e.bottom)),
            abs(e.left - e.right) / max(1e-9, max(e.left, e.right)))
        return (aspect, worstAngle, mismatch)
    }

    static func upperQuartile(_ values: [Int]) -> Int {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count * 3 / 4]
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}

/// Level (max channel) and saturation (max − min) of the detection copy's pixels.
struct CopyPixels {
    let pixels: UnsafeBufferPointer<UInt8>
    let width: Int, height: Int, bands: Int

    func sample(_ x: Double, _ y: Double) -> (level: Int, saturation: Int)? {
        let xi = Int((x).rounded()), yi = Int((y).rounded())
        guard x.isFinite, y.isFinite, xi >= 0, yi >= 0, xi < width, yi < height else { return nil }
        let o = (yi * width + xi) * bands
        if bands < 3 { return (Int(pixels[o]), 0) }
        let r = Int(pixels[o]), g = Int(pixels[o + 1]), b = Int(pixels[o + 2])
        return (max(r, g, b), max(r, g, b) - min(r, g, b))
    }
}

extension WorkImage {
    /// The line search's score (`candidate`) of any quad (copy pixels), from its sides' edge
    /// support on this copy: sides on the frame's edge have no edge and are left out; 0 when
    /// every side is. So `line_score_share` means the same for every generator's candidate.
    func lineScore(_ quad: Quad, scale: Double, width: Int, height: Int) -> Double {
        lineScoreAndSupports(quad, scale: scale, width: width, height: height).score
    }

    /// `lineScore` with the `sideSupport` of each side it measured (those off the frame's edge,
    /// in order), for a caller that needs both without measuring the sides twice.
    func lineScoreAndSupports(_ quad: Quad, scale: Double, width: Int, height: Int)
        -> (score: Double, supports: [(bright: Double, dark: Double)])
    {
        guard let sides = quad.sides else { return (0, []) }
        var bright = 0.0, dark = 0.0, perimeter = 0.0
        var coverage: [(bright: Double, dark: Double)] = []
        for (k, side) in sides.enumerated() {
            let a = quad.corners[k], b = quad.corners[(k + 1) % 4]
            if PageDetector.isOnFrame(a, b, width: width, height: height) { continue }
            let length = (side.step.x * side.step.x + side.step.y * side.step.y).squareRoot()
            let s = sideSupport(side, scale: scale)
            coverage.append(s)
            bright += s.bright * length
            dark += s.dark * length
            perimeter += length
        }
        guard perimeter > 0 else { return (0, coverage) }
        let brighter = bright >= dark
        let mean = max(bright, dark) / perimeter
        let weakest = coverage.map { brighter ? $0.bright : $0.dark }.min() ?? 0
        let area = min(1, quad.area / (Double(width) * Double(height)))
        let score =
            mean * mean * (Self.scoreFloor + Self.scoreWeakestWeight * weakest) * pow(area, Self.scoreAreaExponent)
        return (score, coverage)
    }

    /// The share of a side (copy pixels) that is an edge on the working copy, for the page
    /// brighter and darker than its surroundings: the line score's coverage, for any quad.
    func sideSupport(_ side: Quad.Side, scale: Double) -> (bright: Double, dark: Double) {
        let length = (side.step.x * side.step.x + side.step.y * side.step.y).squareRoot() / scale
        let count = max(8, Int(length))
        var bright = 0.0, dark = 0.0
        let nx = Float(side.outward.x), ny = Float(side.outward.y)
        gx.withUnsafeBufferPointer { gx in
            gy.withUnsafeBufferPointer { gy in
                for s in 0..<count {
                    let t = 0.05 + 0.9 * Double(s) / Double(count - 1)
                    let p = side.point(at: t, out: 0)
                    // Copy pixel centres to working-copy pixel centres.
                    let x = (p.x + 0.5) / scale - 0.5, y = (p.y + 0.5) / scale - 0.5
                    var bestBright: Float = 0, bestDark: Float = 0
                    for o in -1...1 {
                        let xi = (x + Double(o) * side.outward.x).roundedInt
                        let yi = (y + Double(o) * side.outward.y).roundedInt
                        guard xi >= 1, yi >= 1, xi < width - 1, yi < height - 1 else { continue }
                        let i = yi * width + xi
                        let gn = gx[i] * nx + gy[i] * ny
                        let gt = -gx[i] * ny + gy[i] * nx
                        if abs(gt) > 0.45 * abs(gn) { continue }
                        let v = min(1, abs(gn) / threshold)
                        // Intensity falling outward: the inside is brighter.
                        if gn < 0 { bestBright = max(bestBright, v) } else { bestDark = max(bestDark, v) }
                    }
                    bright += Double(bestBright)
                    dark += Double(bestDark)
                }
            }
        }
        return (bright / Double(count), dark / Double(count))
    }
}
