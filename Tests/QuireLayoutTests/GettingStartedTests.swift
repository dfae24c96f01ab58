import Testing
import QuireLayout

/// The code of the DocC article "Getting started: QuireLayout in your own app"
/// (Sources/QuireLayout/QuireLayout.docc/GettingStarted.md), run as written: importing
/// QuireLayout alone is enough, and each step gives what the article says.
@Suite struct GettingStartedTests {
    @Test func theArticlesStepsWork() {
        let ratios = [0.707, 0.707, 1.414, 0.75]
        let screen = Size(width: 390, height: 844)

        let pager = Layouts.Pager(viewport: screen, aspectRatios: ratios)
        let strip = Layouts.Strip(viewport: Size(width: 390, height: 66), aspectRatios: ratios)

        let cell = pager.frame(ofIndex: 2)
        let image = pager.mask(ofIndex: 2)
        #expect(cell == Rect(x: 2 * 390, y: 0, width: 390, height: 844))
        // A landscape page fits the cell's width.
        #expect(abs(image.width - 390) < 1e-9 && abs(image.height - 390 / 1.414) < 1e-9)

        let visible = pager.items(at: Point(x: 500, y: 0)).map(\.attributes.index)
        #expect(visible.contains(1) && visible.contains(2))

        var sync = PagerStripSync(pager: pager, strip: strip, activeIndex: 0, state: .ready)
        let stripOffset = sync.pagerDidScroll(to: Point(x: 440, y: 0))
        #expect(stripOffset != nil)
        #expect(sync.activeIndex == 1)
    }
}
