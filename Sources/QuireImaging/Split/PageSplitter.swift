import QuireGeometry
import VipsBridge

/// `--split` and `--split-order`: whether open books are written as two pages, and in which order.
public struct SplitOptions: Sendable, Hashable, Codable {
    /// `auto` writes each page of a spread as its own page; `none` keeps a spread as one page.
    public enum Mode: String, Sendable, Hashable, Codable, CaseIterable { case auto, none }
    /// Reading order of a spread's pages: `ltr` left page first, `rtl` right page first
    /// (Arabic, Hebrew, Japanese books).
    public enum Order: String, Sendable, Hashable, Codable, CaseIterable { case ltr, rtl }
    public var mode: Mode
    public var order: Order

    /// Splitting in `mode`, pages in `order`; the defaults are those of `quire process`.
    public init(mode: Mode = .auto, order: Order = .ltr) {
        self.mode = mode
        self.order = order
    }
}

/// Which page of a split spread a written page is (recorded in layout.json).
public struct PageSplit: Sendable, Hashable, Codable {
    public enum Side: String, Sendable, Hashable, Codable { case left, right }
    /// The page's place among the spread's pages in reading order: 1 or 2.
    public var part: Int
    /// How many pages the spread was split into (2).
    public var count: Int
    /// Which half of the spread it is.
    public var side: Side
    /// The half, in pixels of the corrected spread before it was split.
    public var rect: Rect
    /// What showed the gutter: ink-free inner margins or the fold.
    public var gutter: SpreadFinder.Gutter.Kind

    /// Page `part` of `count`, the `side` half `rect` of a spread whose gutter showed as `gutter`.
    public init(part: Int, count: Int = 2, side: Side, rect: Rect, gutter: SpreadFinder.Gutter.Kind) {
        self.part = part
        self.count = count
        self.side = side
        self.rect = rect
        self.gutter = gutter
    }
}

/// Splits a corrected page that shows an open book into its two pages (`SpreadFinder` decides).
///
/// Each half keeps what correction found, made true for the half: a straightened photo's half
/// gets the part of the spread's quad it came from (mapped back through the warp's homography,
/// so layout.json still says where in the source the page lies); a scan's half is deskewed and
/// trimmed again on its own, since the two pages of a book on the glass rarely lie at the same
/// angle (unpaper's spreads: -0.8 and 2.6 degrees).
struct PageSplitter: Sendable {
    var options: SplitOptions
    /// The corrections file's `split` for this page, replacing the decision: kept whole, cut at
    /// the gutter found (the middle when none is), or cut at a share of the width.
    var choice: CorrectionEntry.Split? = nil

    /// One page to write.
    struct Part {
        var image: VIPSImage
        var record: CorrectionRecord
        var split: PageSplit?
    }

    /// The page itself, or its two pages in reading order.
    /// - Parameter preview: a small copy of `page` (its preview) the gutter is looked for on;
    ///   the page itself when nil.
    func split(_ page: VIPSImage, record: CorrectionRecord, preview: VIPSImage? = nil) throws -> [Part] {
        let aspect = Double(page.width) / Double(max(1, page.height))
        let whole = [Part(image: page, record: record, split: nil)]
        let gutter: SpreadFinder.Gutter
        switch choice {
        case .join?:
            return whole
        case .at(let share)?:
            gutter = SpreadFinder.Gutter(kind: .given, position: share)
        case .gutter?:
            let found = try StageProfile.measure(
                "2f spread", { try Self.gutter(of: preview ?? page, aspectRatio: aspect) })
            gutter = found ?? SpreadFinder.Gutter(kind: .given, position: 0.5)
        case nil:
            guard options.mode == .auto, SpreadFinder.aspectRange.contains(aspect),
                let found = try StageProfile.measure(
                    "2f spread", { try Self.gutter(of: preview ?? page, aspectRatio: aspect) })
            else {
                return whole
            }
            gutter = found
        }
        guard page.width >= 2 else { return whole }
        let cut = min(page.width - 1, max(1, Int((gutter.position * Double(page.width)).rounded())))
        let rects = [
            Rect(x: 0, y: 0, width: Double(cut), height: Double(page.height)),
            Rect(x: Double(cut), y: 0, width: Double(page.width - cut), height: Double(page.height))
        ]
        var parts: [Part] = []
        for (index, rect) in rects.enumerated() {
            let side: PageSplit.Side = index == 0 ? .left : .right
            var half = try page.cropped(x: Int(rect.x), y: 0, width: Int(rect.width), height: page.height)
            var halfRecord = record
            switch record.kind {
            case .perspective:
                halfRecord.quad = record.quad.flatMap { Self.subQuad(of: $0, page: page, rect: rect) }
            case .deskew:
                // In memory before it is read: a crop is a libvips view, and each of the
                // half's readings (its skew copy, its trim copy, the turn) would otherwise
                // compute it again through libvips's own shrink, where Quire's loop reads a
                // memory image directly with the same bytes (`cvips_analysis_shrink`). The
                // pipeline makes every written part resident anyway (`finish`).
                half = try half.inMemory()
                let skew = try SkewEstimate.estimate(page: half)
                if skew.confidence >= SkewEstimator.minimumConfidence, abs(skew.degrees) >= 0.05 {
                    half = try ScanDeskew.deskewAndTrim(half, skew: skew).image
                    halfRecord.skewDegrees = (((record.skewDegrees ?? 0) + skew.degrees) * 1000).rounded() / 1000
                }
            case .none:
                break
            }
            let part = options.order == .ltr ? index + 1 : 2 - index
            parts.append(
                Part(
                    image: half, record: halfRecord,
                    split: PageSplit(part: part, side: side, rect: rect, gutter: gutter.kind)))
        }
        return parts.sorted { $0.split!.part < $1.split!.part }
    }

    /// The spread's gutter, from a small grey copy of `page` (about 1000 px long, as skew
    /// estimation uses); `aspectRatio` is the full page's. The copy is made by block means
    /// when `page` is 8-bit in memory (a preview), far cheaper than libvips's shrink of a
    /// landscape page (docs/benchmarks.md, "Figures behind design choices").
    static func gutter(of page: VIPSImage, aspectRatio: Double) throws -> SpreadFinder.Gutter? {
        let small = try PageCorrector.gray(page, longSide: ScanDeskew.analysisLongSide)
        return SpreadFinder.gutter(gray: small.gray, width: small.width, height: small.height, aspectRatio: aspectRatio)
    }

    /// The part of `quad` (display pixels of the source) that `rect` of the page warped from it shows.
    static func subQuad(of quad: Quad, page: VIPSImage, rect: Rect) -> Quad? {
        guard let h = Homography(rectWidth: Double(page.width), height: Double(page.height), to: quad) else {
            return nil
        }
        return Quad(corners: Quad(rect: rect).corners.compactMap(h.apply))
    }
}
