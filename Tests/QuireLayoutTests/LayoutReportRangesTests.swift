import QuireGeometry
import QuireLayout
import Testing

/// `LayoutReport.checkRanges` on reports built in memory, where numbers JSON cannot hold
/// (NaN, infinity) can occur.
@Suite struct LayoutReportRangesTests {
    static func report(ratio: Double, snapOffset: Double = 0) -> LayoutReport {
        let rect = LayoutReport.RectValue(Rect(x: 0, y: 0, width: 1, height: 1))
        let page = LayoutReport.Page(
            index: 0, source: "p.jpg", sourcePage: 0, orientation: 1, width: 750, height: 1000, aspectRatio: ratio,
            files: .init(page: "pages/0001.jpg", preview: "previews/0001.jpg", thumbnail: "thumbs/0001.jpg"),
            pager: .init(frame: rect, mask: rect, snapOffset: snapOffset),
            strip: .init(frame: rect, focusedFrame: rect, snapOffset: 0))
        return LayoutReport(viewport: .init(), pages: [page], errors: [])
    }

    @Test func aValidReportPasses() throws {
        try Self.report(ratio: 0.75).checkRanges()
        // A page narrower than 1:20,000 is written with an aspect ratio of 0 (4 decimals).
        try Self.report(ratio: 0).checkRanges()
    }

    @Test func notANumberIsRefused() {
        #expect(
            throws: LayoutReportRangeError(path: "pages[0].aspectRatio", reason: "expected 0...10000000, found nan")
        ) {
            try Self.report(ratio: .nan).checkRanges()
        }
        #expect(
            throws: LayoutReportRangeError(
                path: "pages[0].pager.snapOffset", reason: "expected a finite number, found inf")
        ) {
            try Self.report(ratio: 1, snapOffset: .infinity).checkRanges()
        }
    }
}
