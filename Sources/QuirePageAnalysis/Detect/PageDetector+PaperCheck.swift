/// The page is the paper: a quad whose surroundings are the same bright, low-saturation paper
/// as its inside is a structure printed on the page (a table, a text column, a picture box),
/// not the page. On real photos such quads score as well as true pages (four straight, fully
/// supported sides), so the line score alone cannot tell them apart; the pixels beside the
/// sides can. When the check fires the detector keeps the whole frame with a low confidence,
/// which on a real photo is never the harmful outcome a wrong crop is.
extension PageDetector {
    /// How far outside (and inside) each side the pixels are sampled, as a share of the long side.
    static let paperProbeDistance = 0.04
    /// Samples taken along each side.
    static let paperProbeSteps = 21
    /// Paper is no darker than the page's paper level less this many grey levels.
    static let paperLevelTolerance = 12
    /// Paper is at most this much more saturated than the page's paper.
    static let paperSaturationTolerance = 16
    /// Ink is at least this many levels darker than the paper.
    static let inkContrast = 60
    /// The outside is the paper (the quad a dark box printed on it) when it is this much brighter.
    static let darkInsideMargin = 40
    /// Paper darker than this is no paper: the check does not fire.
    static let minimumPaperLevel = 120
    /// Samples within this many levels of the paper level tell the paper's saturation.
    static let paperSaturationBand = 24
    /// Tenths of a side's outer samples that must be paper for the side to lie on paper.
    static let paperTenths = 3
    /// Tenths of a side's outer samples that must be ink (print beside it, not a plain desk).
    static let inkTenths = 1

    /// Whether a side of `quad` has printed paper like the quad's own just outside it: at least
    /// 30 % of the samples there are paper (no darker than the page's paper less 12 levels, at
    /// most 16 more saturated) and at least 10 % are ink (60 levels darker). That side is then a
    /// line on the page (a table rule, a column edge), so the quad is not the whole page. A plain
    /// light desk is paper-coloured but carries no ink, so a page on it keeps its quad.
    /// Sides whose outer samples mostly fall off the frame (a page cut off by the frame) do not
    /// count either way.
    static func liesInsidePaper(
        _ quad: Quad, pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
        bands: Int
    ) -> Bool {
        guard let sides = quad.sides else { return false }
        let d = Double(max(width, height)) * paperProbeDistance
        let steps = paperProbeSteps

        /// Brightness (max channel) and saturation (max − min) of the pixel at (x, y), or nil off the frame.
        func sample(_ x: Double, _ y: Double) -> (Int, Int)? {
            let xi = Int(x), yi = Int(y)
            guard x >= 0, y >= 0, xi < width, yi < height else { return nil }
            let o = (yi * width + xi) * bands
            if bands < 3 { return (Int(pixels[o]), 0) }
            let r = Int(pixels[o]), g = Int(pixels[o + 1]), b = Int(pixels[o + 2])
            return (max(r, g, b), max(r, g, b) - min(r, g, b))
        }

        var inside: [(Int, Int)] = []
        var outside: [[(Int, Int)]] = []
        var outsideTried: [Int] = []
        for side in sides {
            var out: [(Int, Int)] = []
            for s in 0..<steps {
                let t = 0.1 + 0.8 * Double(s) / Double(steps - 1)
                let p = side.point(at: t, out: -d), q = side.point(at: t, out: d)
                if let v = sample(p.x, p.y) { inside.append(v) }
                if let v = sample(q.x, q.y) { out.append(v) }
            }
            outside.append(out)
            outsideTried.append(steps)
        }
        guard inside.count >= 8 else { return false }
        // The paper of the page: the bright samples (text and pictures are the dark ones) of
        // the quad's inside, or of its outside when that is brighter: a dark picture box or
        // photo printed on a page has the page's paper around it, not inside (a scan turned
        // 35 degrees lost everything but its halftone picture that way). Their saturation
        // tells paper from a light desk, which is as bright but more coloured.
        func upperQuartile(_ values: [(Int, Int)]) -> Int {
            let levels = values.map(\.0).sorted()
            return levels.isEmpty ? 0 : levels[levels.count * 3 / 4]
        }
        let around = outside.flatMap { $0 }
        let insidePaper = upperQuartile(inside), outsidePaper = around.count >= 8 ? upperQuartile(around) : 0
        let darkInside = outsidePaper > insidePaper + darkInsideMargin
        let paperSamples = darkInside ? around : inside
        let paper = darkInside ? outsidePaper : insidePaper
        guard paper >= minimumPaperLevel else { return false }
        let paperSats = paperSamples.filter { $0.0 >= paper - paperSaturationBand }.map(\.1).sorted()
        let paperSat = paperSats.isEmpty ? 0 : paperSats[paperSats.count / 2]
        func isPaper(_ v: (Int, Int)) -> Bool {
            v.0 >= paper - paperLevelTolerance && v.1 <= paperSat + paperSaturationTolerance
        }
        func isInk(_ v: (Int, Int)) -> Bool { v.0 <= paper - inkContrast }
        var paperSides = 0
        for (i, out) in outside.enumerated() where out.count * 2 >= outsideTried[i] {
            // Paper with print on it: a plain light desk is paper-coloured but holds no ink.
            let paperShare = out.filter(isPaper).count * 10, inkShare = out.filter(isInk).count * 10
            if paperShare >= out.count * paperTenths && inkShare >= out.count * inkTenths { paperSides += 1 }
        }
        return paperSides >= 1
    }
}
