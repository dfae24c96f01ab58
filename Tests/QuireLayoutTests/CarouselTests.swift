import Testing
import QuireLayout

@Suite struct CarouselTests {
    // 375 pt wide: iw = 343, step 351, rest offset iw − 8 = 335.
    let carousel = Layouts.Carousel(viewport: Size(width: 375, height: 180), count: 5, centerIndex: 0)

    static func lines(_ items: [Layouts.Carousel.Item]) -> [String] {
        items.map { Golden.line($0.attributes) + " slot=\($0.slot.rawValue) radius=\(Golden.number($0.cornerRadius))" }
    }

    @Test func goldenAtRest() {
        Golden.check("carousel-rest", Self.lines(carousel.items(at: carousel.restOffset)))
    }

    @Test func geometryFollowsLayoutsSection6() {
        #expect(carousel.bannerWidth == 343)
        #expect(carousel.contentSize == Size(width: 3 * 343 + 16, height: 180))
        #expect(carousel.restOffset == Point(x: 335, y: 0))
        #expect(carousel.frame(of: .center) == Rect(x: 351, y: 0, width: 343, height: 180))
        #expect(Layouts.Carousel.Slot.allCases.map(carousel.dataIndex(of:)) == [4, 0, 1])
        #expect(abs(carousel.forwardThreshold - (5.0 / 3 * 343 - 32)) < 1e-9)
        #expect(abs(carousel.backwardThreshold - 343.0 / 3) < 1e-12)
        // At rest the centre banner's screen x is the side offset (16) and 8 pt ears show.
        let items = carousel.items(at: carousel.restOffset)
        #expect(items.map(\.slot) == [.left, .center, .right])
        #expect(items[1].attributes.frame.minX - 335 == 16)
        #expect(items[0].attributes.frame.maxX - 335 == 8)
        #expect(items.map(\.attributes.zIndex) == [0, 1, 2])
    }

    // One-third snapping table: proposal → target offset and slot.
    // Right wins when minX(right) + g < t + W: 702 + 114.33 < t + 375 ⇔ t > 441.33.
    // Left wins when maxX(left) − g > t: 343 − 114.33 > t ⇔ t < 228.67.
    @Test(
        arguments: [
            (335.0, 335.0, "center"), (441, 335, "center"), (442, 686, "right"), (1000, 686, "right"),
            (229, 335, "center"), (228, -16, "left"), (-100, -16, "left")
        ] as [(Double, Double, String)])
    func snapping(proposed: Double, target: Double, slot: String) {
        let p = Point(x: proposed, y: 0)
        #expect(carousel.targetOffset(forProposed: p, velocity: .zero).x == target)
        #expect(carousel.targetSlot(forProposed: p).rawValue == slot)
    }

    @Test func recentringWrapsAroundAndEndsAtRest() {
        // After snapping right (686) the recentring steps one slot: offset 335, centre 1.
        let (next, o1) = carousel.recentred(at: Point(x: 686, y: 0))
        #expect(o1.x == 335 && next.centerIndex == 1)
        // Snapping left (−16) steps back: offset 335, centre wraps to 4.
        let (previous, o2) = carousel.recentred(at: Point(x: -16, y: 0))
        #expect(o2.x == 335 && previous.centerIndex == 4)
        // Offsets between the thresholds are left alone.
        let (same, o3) = carousel.recentred(at: Point(x: 400, y: 0))
        #expect(o3.x == 400 && same.centerIndex == 0)
        // A far offset is applied until stable in one call, with the index wrapping.
        let (far, o4) = carousel.recentred(at: Point(x: 335 + 351 * 12, y: 0))
        #expect(o4.x == 335 && far.centerIndex == 12 % 5)
        let (farBack, o5) = carousel.recentred(at: Point(x: 335 - 351 * 7, y: 0))
        #expect(o5.x == 335 && farBack.centerIndex == (5 - 7 % 5) % 5)
        // Stable: recentring the result changes nothing.
        #expect(far.recentred(at: o4).offset == o4)
    }

    @Test func oscillatingConfigurationsAreRefused() {
        var wide = carousel
        wide.parameters.insetLeft = 300
        wide.parameters.insetRight = 300
        #expect(wide.problem == .oscillates)
        #expect(wide.count == 0 && wide.items(at: .zero).isEmpty)
        // iw < 3·(2·16 + 16 − 8) = 120 oscillates; 120 is the first width that does not.
        #expect(Layouts.Carousel(viewport: Size(width: 151, height: 50), count: 3).problem == .oscillates)
        #expect(Layouts.Carousel(viewport: Size(width: 152, height: 50), count: 3).problem == nil)
        #expect(Layouts.Carousel(viewport: Size(width: 32, height: 50), count: 3).problem == .noBannerWidth)
    }

    @Test func oneTwoAndZeroItems() {
        let one = Layouts.Carousel(viewport: Size(width: 375, height: 180), count: 1)
        #expect(one.items(at: one.restOffset).map(\.attributes.index) == [0, 0, 0])
        let two = Layouts.Carousel(viewport: Size(width: 375, height: 180), count: 2, centerIndex: 1)
        #expect(two.items(at: two.restOffset).map(\.attributes.index) == [0, 1, 0])
        let none = Layouts.Carousel(viewport: Size(width: 375, height: 180), count: 0)
        #expect(none.items(at: .zero).isEmpty)
        #expect(none.nearestIndex(at: .zero) == nil)
        #expect(none.recentred(at: Point(x: 1e9, y: 0)).offset.x == 1e9)
    }
}
