import QuireImaging
import QuireLayout

extension LayoutReport {
    /// The report for pages that were written separately (shards of one batch) and are now put
    /// in one sequence: each page's index, aspect ratio, pager and strip geometry are
    /// recomputed for its place in `pages` — the same numbers `init(viewport:pages:errors:)`
    /// computes for one run over all of them, since both derive them from the pages' pixel sizes.
    /// Everything else in the records (files, correction, quad ...) is kept as given.
    /// - Complexity: O(n) layout queries for n pages.
    public static func relaidOut(viewport: Viewport, pages: [Page], errors: [PageError]) -> LayoutReport {
        let ratios = pages.map { Double($0.width) / Double(max(1, $0.height)) }
        let pager = Layouts.Pager(viewport: Size(width: viewport.width, height: viewport.height), aspectRatios: ratios)
        let strip = Layouts.Strip(viewport: Size(width: viewport.width, height: viewport.stripHeight), aspectRatios: ratios)
        let records = pages.enumerated().map { index, page -> Page in
            var p = page
            p.index = index
            p.aspectRatio = ratios[index]
            p.pager = PagerGeometry(
                frame: RectValue(pager.frame(ofIndex: index)),
                mask: RectValue(pager.mask(ofIndex: index)),
                snapOffset: pager.offset(forIndex: index)?.x ?? 0)
            p.strip = StripGeometry(
                frame: RectValue(strip.restingFrame(ofIndex: index)),
                focusedFrame: RectValue(strip.focusedFrame(ofIndex: index) ?? strip.restingFrame(ofIndex: index)),
                snapOffset: strip.offset(forIndex: index)?.x ?? 0)
            return p
        }
        return LayoutReport(viewport: viewport, pages: records, errors: errors)
    }
}
