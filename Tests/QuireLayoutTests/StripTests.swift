import Testing
import QuireLayout
import QuireTestSupport

@Suite struct StripTests {
    let strip = Layouts.Strip(viewport: Size(width: 390, height: 66), aspectRatios: [0.75, 0.75, 2, 0.5, 1.5, 0.3])

    static func lines(_ items: [Layouts.Strip.Item]) -> [String] {
        items.map { item in
            Golden.line(item.attributes)
                + " e=\(Golden.number(item.state.expanding)) k=\(Golden.number(item.state.collapsing))"
                + " del=\(Golden.number(item.state.deleting)) dir=\(item.state.deletingDirection.rawValue)"
                + " frame=\(Golden.rect(item.attributes.frame))"
        }
    }

    @Test func goldenHalfWayBetweenCells1And2() {
        // X = o + farInset = 55.5: cell 1 (L = 37) has e = 0.5, cell 2 (L = 74) has e = 0.5.
        Golden.check("strip-halfway", Self.lines(strip.items(at: Point(x: 55.5 - 176.5, y: 0))))
    }

    @Test func handWorkedHalfWay() throws {
        let items = strip.items(at: Point(x: 55.5 - 176.5, y: 0))
        let one = try #require(items.first { $0.attributes.index == 1 })
        let two = try #require(items.first { $0.attributes.index == 2 })
        #expect(one.state.expanding == 0.5 && two.state.expanding == 0.5)
        // A1 = (66·0.75 − 33)·0.5 = 8.25 → width ceil(41.25) = 42; sym1 = (8.25 + 10)/2 = 9.125.
        #expect(one.attributes.size.width == 42)
        // A2 = (132 − 33)·0.5 = 49.5 → width 82.5 → ceil 83; sym2 = (49.5 + 10)/2 = 29.75.
        #expect(two.attributes.size.width == 83)
        // Cell 1 moves left by sym2; cell 2 right by sym1; cell 0 left by both; cell 3 right by both.
        #expect(one.attributes.transform.tx == -29.75)
        #expect(two.attributes.transform.tx == 9.125)
        #expect(items.first { $0.attributes.index == 0 }?.attributes.transform.tx == -38.875)
        #expect(items.first { $0.attributes.index == 3 }?.attributes.transform.tx == 38.875)
    }

    @Test func snappedOffsetFullyExpandsItsCell() throws {
        for i in 0..<strip.count {
            let o = try #require(strip.offset(forIndex: i))
            #expect(o.x == Double(i) * 37 - 176.5)
            let item = try #require(strip.item(ofIndex: i, at: o))
            #expect(item.state.expanding == 1)
            #expect(item.attributes.size.width == (66 * strip.aspectRatio(ofIndex: i)).rounded(.up))
            #expect(strip.nearestIndex(at: o) == i)
            // The focus line sits at screen x = (W − d)/2 = 193.
            #expect(item.attributes.frame.midX - o.x == 193)
        }
    }

    // Table: proposal (relative to −farInset) → snapped index. Ties go right; beyond the ends clamp.
    @Test(
        arguments: [
            (-500.0, 0), (0, 0), (18.4, 0), (18.5, 1), (36.9, 1), (55.5, 2), (92.4, 2), (92.5, 3),
            (185, 5), (1e9, 5), (-.infinity, 0), (.nan, 0)
        ] as [(Double, Int)])
    func snapping(relative: Double, expected: Int) {
        let target = strip.targetOffset(forProposed: Point(x: relative - 176.5, y: 0), velocity: .zero)
        #expect(target.x == Double(expected) * 37 - 176.5)
        #expect(strip.nearestIndex(at: target) == expected)
    }

    @Test func updatesOverwriteScrollStateInOrder() throws {
        var s = strip
        s.updates = [2: [.expand(0.25), .collapse(0.5), .expand(0.75)]]
        let item = try #require(s.item(ofIndex: 2, at: Point(x: -176.5, y: 0)))
        #expect(item.state.expanding == 0.75)
        #expect(item.state.collapsing == 0.5)
        #expect(item.attributes.alpha == 0.5)
        #expect(item.attributes.size.height == 33)
    }

    @Test func zeroAndOneItem() throws {
        let one = Layouts.Strip(viewport: Size(width: 390, height: 66), aspectRatios: [3])
        for o in [-1e6, -176.5, 0, 1e6] {
            #expect(one.nearestIndex(at: Point(x: o, y: 0)) == 0)
            #expect(one.targetOffset(forProposed: Point(x: o, y: 0), velocity: .zero).x == -176.5)
        }
        #expect(try #require(one.focusedFrame(ofIndex: 0)).width == 198)
        let none = Layouts.Strip(viewport: Size(width: 390, height: 66), aspectRatios: [Double]())
        #expect(none.contentSize.width == 0)
        #expect(none.focusedFrame(ofIndex: 0) == nil)
        #expect(none.targetOffset(forProposed: Point(x: 10, y: 0), velocity: .zero).x.isFinite)
    }

    @Test func missingRatiosUseTheDefaultAndClampingIsOptIn() {
        let s = Layouts.Strip(viewport: Size(width: 390, height: 66), aspectRatios: [nil, 0, 50])
        #expect(s.aspectRatio(ofIndex: 0) == 0.5)
        #expect(s.aspectRatio(ofIndex: 1) == 0.5)
        #expect(s.aspectRatio(ofIndex: 2) == 50)
        var clamped = s
        clamped.parameters.clampsAspectRatios = true
        #expect(clamped.aspectRatio(ofIndex: 2) == 5)
    }

    @Test func itemsMatchBruteForceWithUpdatesAndFarRects() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let n = Int.random(in: 1...40, using: &rng)
            var s = Layouts.Strip(
                viewport: Size(width: Double.random(in: 100...800, using: &rng), height: 66),
                aspectRatios: (0..<n).map { _ in Double.random(in: 0.1...6, using: &rng) })
            s.expandingRate = [0, 0.5, 1][Int.random(in: 0...2, using: &rng)]
            if Bool.random(using: &rng) {
                s.updates[Int.random(in: 0..<n, using: &rng)] = [.expand(Double.random(in: 0...1, using: &rng))]
                s.updates[Int.random(in: 0..<n, using: &rng)] = [.delete(Double.random(in: 0...1, using: &rng), .right)]
            }
            let offset = Point(x: Double.random(in: -400...(Double(n) * 37), using: &rng), y: 0)
            let rect = Rect(
                x: offset.x + Double.random(in: -300...300, using: &rng), y: 0,
                width: Double.random(in: 0...900, using: &rng), height: 10)
            let brute = (0..<n).compactMap { s.item(ofIndex: $0, at: offset) }.filter {
                $0.attributes.frame.intersects(rect)
            }
            let fast = s.items(at: offset, in: rect)
            #expect(fast.map(\.attributes.index) == brute.map(\.attributes.index))
            for (a, b) in zip(fast, brute) {
                #expect(abs(a.attributes.transform.tx - b.attributes.transform.tx) < 1e-9)
                #expect(a.attributes.size == b.attributes.size)
            }
        }
    }
}
