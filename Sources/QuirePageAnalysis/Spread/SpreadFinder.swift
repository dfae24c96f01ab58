/// Finds an open book's two pages on a corrected page: where the gutter between them is.
///
/// A spread is told from a single page by three things together, all of which must hold, so
/// that a single page is never cut in two (a wrong split hands the user two half pages):
/// - its shape: landscape, `aspectRange` (two portrait pages side by side are 1.2-1.6 wide);
/// - a gutter near the middle: either a band at least `minimumGutterWidth` of the width that no
///   ink crosses (the inner margins of two printed pages; a single page's column gap is
///   narrower, and a headline running across both pages crosses it), or the fold of a
///   photographed book: a narrow line far darker than the paper on both sides of it (the
///   shadow where the pages meet), centred within the middle tenth;
/// - ink on both halves (a blank facing page is no reason to split);
/// - text lines running across, not up or down (a single page lying a quarter turn round).
///
/// Works on the small grey copy the skew estimate uses (about 1000 px on the long side).
public enum SpreadFinder {
    /// Width / height of a page that may be a spread.
    package static let aspectRange = 1.15...1.85
    /// The narrowest ink-free gutter, as a share of the width (real scanned spreads: 8-9 %;
    /// `SpreadFinderTests.aScannedSpreadSplitsInItsInkFreeGutter`).
    static let minimumGutterWidth = 0.03
    /// The ink-free gutter's centre must lie in this share of the width.
    static let gutterZone = 0.4...0.6
    /// Every other blank band inside the pages must be narrower than this share of the gutter.
    static let gutterDominance = 0.6
    /// A fold's darkest column must lie in this share of the width.
    static let foldZone = 0.45...0.55
    /// A fold is at least this much darker than the paper (grey levels, and this share of the
    /// paper level), measured on the smoothed profile: photographed spreads 39 (0.20) and 62
    /// (0.26); single landscape pages of the real sets 23 (0.16, an unevenly lit table, and no
    /// valley) and under 2 (`SpreadFinderTests.aPhotographedSpreadSplitsAtItsFold`,
    /// `singlePagesAreNeverSplit`).
    static let minimumFoldDepth = 25.0
    static let minimumFoldShare = 0.18
    /// A fold is a shadow, not a printed rule: at least this share of the width at half depth.
    static let minimumFoldLine = 0.004
    /// A fold is narrow: at half its depth no wider than this share of the width.
    static let maximumFoldWidth = 0.05
    /// Each half holds at least this share of the page's ink.
    static let minimumInkShare = 0.2
    /// A page whose ink lines up this much more sharply in columns than in rows lies a quarter
    /// turn round. Spreads' table rules make columns win too, by less: scanned spreads
    /// 0.69-0.76, photographed registers 1.63 and 1.74; the sideways single pages of the real
    /// set that showed a gutter 9.8-39, their text lines alone 1.2-27
    /// (`SpreadFinderTests.aPageLyingAQuarterTurnRoundIsNotSplit`).
    static let sidewaysMargin = 2.5

    /// Where a spread's pages meet.
    public struct Gutter: Sendable, Hashable {
        /// What showed the gutter; `given` for a cut a corrections file asked for (its `split`).
        public enum Kind: String, Sendable, Hashable, Codable { case margins, fold, given }
        public var kind: Kind
        /// The cut, as a share of the page's width (0-1).
        public var position: Double
        /// A gutter shown by `kind` at `position` (a share of the page's width, 0-1).
        public init(kind: Kind, position: Double) { (self.kind, self.position) = (kind, position) }
    }

    /// The gutter of the page whose small grey copy is `gray` (`width` x `height`), or nil when
    /// it is not a spread.
    /// - Parameter aspectRatio: width / height of the full page (the copy's rounding aside).
    /// - Complexity: O(width x height).
    public static func gutter(gray: [UInt8], width: Int, height: Int, aspectRatio: Double? = nil) -> Gutter? {
        guard width >= 64, height >= 32, gray.count >= width * height,
            aspectRange.contains(aspectRatio ?? Double(width) / Double(height))
        else { return nil }
        let (xs, _, weights) = SkewEstimator.inkPoints(gray: gray, width: width, height: height)
        let bands = 100
        var ink = [Double](repeating: 0, count: bands)
        for i in xs.indices {
            ink[min(bands - 1, max(0, Int(xs[i] * Float(bands) / Float(width))))] += Double(weights[i])
        }
        let total = ink.reduce(0, +)
        guard total > 0 else { return nil }
        let found = margins(ink: ink) ?? fold(gray: gray, width: width, height: height)
        guard let found else { return nil }
        // Ink on both sides of the cut.
        let cut = found.position * Double(bands)
        var left = 0.0
        for (band, value) in ink.enumerated() {
            left += value * min(1, max(0, cut - Double(band)))
        }
        guard left >= minimumInkShare * total, total - left >= minimumInkShare * total else { return nil }
        // Two pages side by side have their lines running across. A single page lying a quarter
        // turn round is as landscape, and a gap between two of its lines (or a heading's dark
        // band) looks like a gutter (a photographed invoice and article page, turned, were cut
        // in two at one).
        guard !SkewEstimator.linesRunDown(gray: gray, width: width, height: height, margin: sidewaysMargin) else {
            return nil
        }
        return found
    }

    /// The widest run of bands with (almost) no ink whose centre lies in `gutterZone`: under a
    /// tenth of a typical inked band (the 75th percentile).
    static func margins(ink: [Double]) -> Gutter? {
        let bands = ink.count
        let typical = ink.sorted()[bands * 3 / 4]
        guard typical > 0 else { return nil }
        var best: (start: Int, length: Int)?
        var runs: [(start: Int, length: Int)] = []
        var start: Int?
        for band in 0...bands {
            if band < bands, ink[band] < 0.1 * typical {
                if start == nil { start = band }
                continue
            }
            guard let s = start else { continue }
            start = nil
            let length = band - s
            runs.append((s, length))
            let centre = (Double(s) + Double(length) / 2) / Double(bands)
            if gutterZone.contains(centre), length > (best?.length ?? 0) { best = (s, length) }
        }
        guard let best, Double(best.length) / Double(bands) >= minimumGutterWidth else { return nil }
        // Two pages' inner margins are wider than any gap inside either page: a leaflet's
        // blank bands between its panels are all alike (a folded leaflet lying sideways had one
        // in the middle zone and two more as wide).
        let inner = runs.filter {
            $0.start != best.start && $0.start > bands / 10 && $0.start + $0.length < bands - bands / 10
        }
        guard inner.allSatisfy({ Double($0.length) < gutterDominance * Double(best.length) }) else { return nil }
        return Gutter(kind: .margins, position: (Double(best.start) + Double(best.length) / 2) / Double(bands))
    }

    /// A fold: the darkest point (in `foldZone`) of the paper's brightness across the page —
    /// column medians, so text does not count, smoothed over a hundredth of the width, so a
    /// table's thin rule does not count either (a 1 px rule at 98 beside a shaded fold at 150,
    /// paper 190; `SpreadFinderTests.aPhotographedSpreadSplitsAtItsFold`). It must be a valley: `minimumFoldDepth` under the
    /// paper (the 75th percentile), no wider than `maximumFoldWidth` at half its depth, rising
    /// back at least 60 % of its depth on both sides (a page lit unevenly slopes, it has no valley).
    static func fold(gray: [UInt8], width: Int, height: Int) -> Gutter? {
        // Column medians from one histogram per column, filled row by row.
        var histograms = [Int32](repeating: 0, count: width * 256)
        for y in 0..<height {
            for x in 0..<width { histograms[x * 256 + Int(gray[y * width + x])] += 1 }
        }
        let medians = (0..<width).map { x -> Double in
            var seen: Int32 = 0
            for level in 0..<256 {
                seen += histograms[x * 256 + level]
                if Int(seen) * 2 > height { return Double(level) }
            }
            return 255
        }
        let k = max(3, width / 100)
        let smooth = (0..<width).map { x -> Double in
            let a = max(0, x - k / 2), b = min(width, a + k)
            return medians[a..<b].reduce(0, +) / Double(b - a)
        }
        let paper = medians.sorted()[width * 3 / 4]
        let lo = Int(foldZone.lowerBound * Double(width)), hi = Int(foldZone.upperBound * Double(width))
        guard let darkest = (lo...hi).min(by: { smooth[$0] < smooth[$1] }), darkest > lo, darkest < hi else {
            return nil
        }
        let depth = paper - smooth[darkest]
        guard depth >= max(minimumFoldDepth, minimumFoldShare * paper) else { return nil }
        let half = paper - depth / 2
        var left = darkest, right = darkest
        while left > 0, smooth[left - 1] < half { left -= 1 }
        while right < width - 1, smooth[right + 1] < half { right += 1 }
        guard Double(right - left + 1) / Double(width) <= maximumFoldWidth else { return nil }
        // A shadow, not a printed rule: at full detail still at least `minimumFoldLine` wide at
        // half its depth (a rule is 1-3 px at this scale; a fold's shadow 7 and more).
        let window = max(0, darkest - k)...min(width - 1, darkest + k)
        guard let deepest = window.min(by: { medians[$0] < medians[$1] }) else { return nil }
        let line = paper - (paper - medians[deepest]) / 2
        var a = deepest, b = deepest
        while a > 0, medians[a - 1] < line { a -= 1 }
        while b < width - 1, medians[b + 1] < line { b += 1 }
        guard Double(b - a + 1) >= max(4, minimumFoldLine * Double(width)) else { return nil }
        // It rises back on both sides (2-8 % of the width out).
        let near = max(1, width * 2 / 100), far = max(2, width * 8 / 100)
        for side in [-1, 1] {
            let xs = (near...far).map { darkest + side * $0 }.filter { (0..<width).contains($0) }
            guard let top = xs.map({ smooth[$0] }).max(), top >= smooth[darkest] + 0.6 * depth else { return nil }
        }
        return Gutter(kind: .fold, position: (Double(darkest) + 0.5) / Double(width))
    }
}
