import Testing
import QuireLayout

@Suite struct PagerTests {
    let pager = Layouts.Pager(viewport: Size(width: 390, height: 844), aspectRatios: [0.5, 2, 0.75, 1])

    static func lines(_ items: [Layouts.Pager.Item]) -> [String] {
        items.map { item in
            Golden.line(item.attributes) + " parallax=\(item.parallax.map(Golden.number) ?? "nil")"
                + " mask=\(Golden.rect(item.mask)) image.tx=\(Golden.number(item.imageTranslation))"
                + " visible=\(Golden.rect(item.visibleImageRect))"
        }
    }

    @Test func goldenQuarterWayFromPage1To2() {
        // o = 487.5 = 1.25 W: page 1 has ρ = −0.25 (tx −11, image +29.25), page 2 ρ = 0.75.
        Golden.check("pager-quarter", Self.lines(pager.items(at: Point(x: 487.5, y: 0))))
    }

    @Test func handWorkedParallaxAtAQuarter() throws {
        let items = pager.items(at: Point(x: 487.5, y: 0))
        #expect(items.map(\.attributes.index) == [1, 2])
        #expect(items[0].parallax == -0.25)
        #expect(items[0].attributes.transform.tx == -11)
        #expect(items[0].imageTranslation == 29.25)
        // Page 1 (ratio 2) mask: 390 × 195 centred at y 324.5; visible = mask ∩ (mask + 29.25).
        #expect(items[0].mask == Rect(x: 0, y: 324.5, width: 390, height: 195))
        #expect(items[0].visibleImageRect == Rect(x: 29.25, y: 324.5, width: 360.75, height: 195))
        #expect(items[1].parallax == 0.75)
        #expect(items[1].attributes.transform.tx == 33)
        #expect(items[1].imageTranslation == -87.75)
    }

    @Test func contentSizeAndEmptyPager() {
        #expect(pager.contentSize == Size(width: 1560, height: 844))
        let empty = Layouts.Pager(viewport: Size(width: 390, height: 844), aspectRatios: [])
        #expect(empty.contentSize.width == 0)
        #expect(empty.items(at: .zero).isEmpty)
        #expect(empty.nearestIndex(at: .zero) == nil)
        #expect(empty.offset(forIndex: 3) == nil)
        let zeroWidth = Layouts.Pager(viewport: Size(width: 0, height: 844), aspectRatios: [1])
        #expect(zeroWidth.items(at: .zero).isEmpty)
        #expect(zeroWidth.nearestIndex(at: .zero) == nil)
    }

    @Test(
        arguments: [
            (-1000.0, 0), (0, 0), (194.9, 0), (195, 1), (584.9, 1), (585, 2), (1170, 3), (1e12, 3),
            (.infinity, 3), (-.infinity, 0), (.nan, 0)
        ] as [(Double, Int)])
    func nearestIndexIsRoundHalfUpClamped(offset: Double, expected: Int) {
        #expect(pager.nearestIndex(at: Point(x: offset, y: 0)) == expected)
        #expect(pager.targetOffset(forProposed: Point(x: offset, y: 0), velocity: .zero).x == Double(expected) * 390)
    }

    @Test func touchingEdgesIntersectAndHugeRectsDoNotTrap() {
        // The rect [390, 390] touches pages 0 and 1 (closed intervals, docs/layout-formulas.md#conventions).
        let touching = pager.items(at: Point(x: 390, y: 0), in: Rect(x: 390, y: 0, width: 0, height: 10))
        #expect(touching.map(\.attributes.index) == [0, 1])
        let huge = pager.items(at: Point(x: 0, y: 0), in: Rect(x: -1e300, y: 0, width: 1e301, height: 10))
        #expect(huge.count == 4)
    }

    @Test func itemsMatchPerItemQuery() {
        for o in stride(from: -400.0, through: 1600, by: 37.5) {
            let offset = Point(x: o, y: 0)
            let brute = (0..<pager.count).compactMap { pager.item(ofIndex: $0, at: offset) }
                .filter {
                    pager.frame(ofIndex: $0.attributes.index).intersects(Rect(x: o, y: 0, width: 390, height: 844))
                }
            #expect(pager.items(at: offset) == brute)
        }
    }
}
