import QuireGeometry

extension LayoutReport {
    /// The report for pages that were written separately (shards of one batch) and are now put
    /// in one sequence: each page's index, aspect ratio, pager and strip geometry are
    /// recomputed for its place in `pages` — the same numbers `init(viewport:pages:errors:)`
    /// computes for one run over all of them, since both derive them from the pages' pixel sizes.
    /// Everything else in the records (files, correction, quad ...) is kept as given.
    /// - Complexity: O(n) layout queries for n pages.
    public static func relaidOut(viewport: Viewport, options: BatchOptions? = nil, pages: [Page], errors: [PageError])
        -> LayoutReport
    {
        let ratios = pages.map { Double($0.width) / Double(max(1, $0.height)) }
        let geometry = ReferenceGeometry(viewport: viewport, aspectRatios: ratios)
        let records = pages.enumerated().map { index, page -> Page in
            var p = page
            p.index = index
            p.aspectRatio = ratios[index]
            (p.pager, p.strip) = (geometry.pager(index), geometry.strip(index))
            return p
        }
        return LayoutReport(viewport: viewport, options: options, pages: records, errors: errors)
    }
}

/// The reference viewport's pager and strip, and each page's geometry in them as layout.json
/// records it: the one place both a fresh report and a re-laid-out (merged) one get it from.
public struct ReferenceGeometry: Sendable {
    public let pager: Layouts.Pager
    public let strip: Layouts.Strip

    /// The pager fills the viewport; the strip is `viewport.width` x `viewport.stripHeight`.
    public init(viewport: LayoutReport.Viewport, aspectRatios ratios: [Double]) {
        pager = Layouts.Pager(viewport: Size(width: viewport.width, height: viewport.height), aspectRatios: ratios)
        strip = Layouts.Strip(viewport: Size(width: viewport.width, height: viewport.stripHeight), aspectRatios: ratios)
    }

    /// Page `index` in the preview pager at rest (docs/layout-formulas.md#pager).
    public func pager(_ index: Int) -> LayoutReport.PagerGeometry {
        LayoutReport.PagerGeometry(
            frame: .init(pager.frame(ofIndex: index)), mask: .init(pager.mask(ofIndex: index)),
            snapOffset: pager.offset(forIndex: index)?.x ?? 0)
    }

    /// Page `index` in the thumbnail strip, resting and focused (docs/layout-formulas.md#strip).
    public func strip(_ index: Int) -> LayoutReport.StripGeometry {
        let resting = strip.restingFrame(ofIndex: index)
        return LayoutReport.StripGeometry(
            frame: .init(resting), focusedFrame: .init(strip.focusedFrame(ofIndex: index) ?? resting),
            snapOffset: strip.offset(forIndex: index)?.x ?? 0)
    }
}
