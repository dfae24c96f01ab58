import Testing
import QuireLayout

@Suite struct StripCoreTests {
    let strip = Layouts.Strip(viewport: Size(width: 390, height: 66), aspectRatios: [0.75, 0.75, 2, 0.5])

    @Test func derivedValuesFollowLayoutsSection3() {
        #expect(strip.itemSize == Size(width: 33, height: 66))
        #expect(strip.farInset == 176.5)
        #expect(strip.contentSize == Size(width: 4 * 37, height: 66))
        #expect(strip.offset(forIndex: 0) == Point(x: -176.5, y: 0))
    }

    @Test func focusedCellExpandsAndPushesNeighbours() throws {
        let items = strip.items(at: Point(x: -176.5, y: 0), in: nil)
        let first = try #require(items.first { $0.attributes.index == 0 })
        #expect(first.state.expanding == 1)
        #expect(first.attributes.size.width == 50)  // ceil(33 + 16.5)
        let second = try #require(items.first { $0.attributes.index == 1 })
        #expect(second.attributes.transform.tx == 18.25)  // (16.5 + 20) / 2
        #expect(second.attributes.center.x == 53.5)
    }

    @Test func snappingTiesGoRightAndEmptyStripHasNoIndex() {
        // q = 0.5 exactly between cells 0 and 1.
        #expect(strip.targetOffset(forProposed: Point(x: -176.5 + 18.5, y: 0), velocity: .zero).x == -176.5 + 37)
        #expect(strip.targetOffset(forProposed: Point(x: -176.5 + 18, y: 0), velocity: .zero).x == -176.5)
        let empty = Layouts.Strip(viewport: Size(width: 390, height: 66), aspectRatios: [Double]())
        #expect(empty.nearestIndex(at: .zero) == nil)
        #expect(empty.offset(forIndex: 0) == nil)
        #expect(empty.items(at: .zero, in: nil).isEmpty)
    }
}

@Suite struct PagerCoreTests {
    let pager = Layouts.Pager(viewport: Size(width: 390, height: 844), aspectRatios: [0.5, 2])

    @Test func parallaxHalfWayBetweenPages() throws {
        let items = pager.items(at: Point(x: 195, y: 0), in: nil)
        #expect(items.map(\.attributes.index) == [0, 1])
        #expect(items[0].parallax == -0.5)
        #expect(items[0].attributes.transform.tx == -22)
        #expect(items[0].imageTranslation == 390 * 0.3 * 0.5)
        #expect(items[1].parallax == 0.5)
    }

    @Test func restingPageHasZeroParallaxAndNeighboursNone() {
        let items = pager.items(at: Point(x: 390, y: 0), in: nil)
        #expect(items.first { $0.attributes.index == 1 }?.parallax == 0)
        #expect(items.first { $0.attributes.index == 0 }?.parallax == nil)
        #expect(pager.mask(ofIndex: 1) == Rect(x: 0, y: 324.5, width: 390, height: 195))
    }
}
