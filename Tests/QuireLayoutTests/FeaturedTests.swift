import Testing
import QuireLayout
import QuireTestSupport

@Suite struct FeaturedTests {
    let featured = Layouts.Featured(viewport: Size(width: 375, height: 667), count: 10)

    static func lines(_ items: [Layouts.Featured.Item]) -> [String] {
        items.map { item in
            Golden.line(item.attributes) + " role=\(item.role.rawValue) delta=\(Golden.number(item.delta))"
                + " cover=\(Golden.number(item.coverAlpha)) title=\(Golden.number(item.titleScale))"
                + " detail=\(Golden.number(item.detailAlpha)) frame=\(Golden.rect(item.attributes.frame))"
        }
    }

    @Test func goldens() {
        Golden.check("featured-half", Self.lines(featured.items(at: Point(x: 0, y: 450))))
        Golden.check("featured-top-bounce", Self.lines(featured.items(at: Point(x: 0, y: -90))))
    }

    @Test func handWorkedHalfWay() throws {
        // o = 450: f = 2, π = 0.5. Featured y = 450 − 50 = 400 (h 280); next (o + 280(1−π), 100 + 180π) = (590, 190).
        let items = featured.items(at: Point(x: 0, y: 450))
        let f = try #require(items.first { $0.role == .featured })
        #expect(f.attributes.index == 2)
        #expect(f.attributes.frame == Rect(x: 0, y: 400, width: 375, height: 280))
        #expect(abs(f.coverAlpha - 0.3) < 1e-12 && f.titleScale == 1 && f.detailAlpha == 1)
        let next = try #require(items.first { $0.role == .next })
        #expect(next.attributes.frame == Rect(x: 0, y: 590, width: 375, height: 190))
        #expect(next.delta == 0.5 && abs(next.coverAlpha - 0.525) < 1e-12 && next.titleScale == 0.5)
        let after = try #require(items.first { $0.attributes.index == 4 })
        #expect(after.attributes.frame == Rect(x: 0, y: 780, width: 375, height: 100))
        #expect(after.coverAlpha == 0.75 && after.detailAlpha == 0)
        #expect(items.map(\.attributes.zIndex) == items.map(\.attributes.index))
        #expect(featured.contentSize == Size(width: 375, height: 10 * 180 + 667 - 180))
    }

    @Test func topBounceKeepsNegativeProgress() throws {
        let items = featured.items(at: Point(x: 0, y: -90))
        let f = try #require(items.first { $0.role == .featured })
        #expect(abs(f.attributes.frame.minY - (-90 * (1 - 100.0 / 180))) < 1e-12)
        let next = try #require(items.first { $0.role == .next })
        #expect(next.attributes.size.height == 100)
        #expect(featured.featuredState(at: Point(x: 0, y: -90))?.progress == -0.5)
    }

    @Test func featuredIndexIsClampedPastTheEnd() throws {
        // The original lets f reach N and collapses the last cell during the bottom bounce.
        let end = Point(x: 0, y: 9 * 180 + 50)
        #expect(featured.featuredState(at: end)?.index == 9)
        let last = try #require(featured.item(ofIndex: 9, at: end))
        #expect(last.role == .featured && last.attributes.size.height == 280)
        #expect(featured.nearestIndex(at: Point(x: 0, y: 1e12)) == 9)
    }

    @Test(
        arguments: [
            (-500.0, 0.0), (0, 0), (89.9, 0), (90, 180), (269.9, 180), (270, 360), (1e9, 1620), (.nan, 0)
        ] as [(Double, Double)])
    func snappingRoundsHalfAwayAndClamps(proposed: Double, target: Double) throws {
        let t = featured.targetOffset(forProposed: Point(x: 0, y: proposed), velocity: .zero)
        #expect(t.y == target)
        let index = try #require(featured.nearestIndex(at: t))
        let item = try #require(featured.item(ofIndex: index, at: t))
        #expect(item.role == .featured && item.delta == 1)
    }

    @Test func zeroAndOneItem() {
        let none = Layouts.Featured(viewport: Size(width: 375, height: 667), count: 0)
        #expect(none.contentSize.height == 0)
        #expect(none.items(at: .zero).isEmpty && none.nearestIndex(at: .zero) == nil)
        let one = Layouts.Featured(viewport: Size(width: 375, height: 667), count: 1)
        #expect(one.items(at: .zero).map(\.role) == [.featured])
        #expect(one.targetOffset(forProposed: Point(x: 0, y: 400), velocity: .zero).y == 0)
    }

    @Test func itemsMatchBruteForce() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<300 {
            let n = Int.random(in: 1...30, using: &rng)
            let f = Layouts.Featured(viewport: Size(width: 375, height: 667), count: n)
            let offset = Point(x: 0, y: Double.random(in: -300...(Double(n) * 180 + 300), using: &rng))
            let rect = Rect(
                x: 0, y: Double.random(in: -300...(Double(n) * 180 + 300), using: &rng), width: 375,
                height: Double.random(in: 0...900, using: &rng))
            let brute = (0..<n).compactMap { f.item(ofIndex: $0, at: offset) }.filter {
                $0.attributes.frame.intersects(rect)
            }
            #expect(f.items(at: offset, in: rect) == brute)
        }
    }
}
