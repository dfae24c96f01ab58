import Testing
import QuireLayout

/// `items(at:in:limit:)`: the same items as `items(at:in:)` while they fit the limit, nil as
/// soon as more meet the rect (so `quire layout` can refuse a huge query without building it).
@Suite struct ItemLimitTests {
    static let everything = Rect(x: -1e7, y: -1e7, width: 2e7, height: 2e7)

    func check<L: CollectionLayout>(_ layout: L, at offset: Point = .zero) where L.Item: Equatable {
        let all = layout.items(at: offset, in: Self.everything)
        #expect(all.count > 3)
        #expect(layout.items(at: offset, in: Self.everything, limit: all.count) == all)
        #expect(layout.items(at: offset, in: Self.everything, limit: .max) == all)
        #expect(layout.items(at: offset, in: Self.everything, limit: all.count - 1) == nil)
        #expect(layout.items(at: offset, in: Self.everything, limit: 0) == nil)
        let visible = layout.items(at: offset, in: nil)
        #expect(layout.items(at: offset, in: nil, limit: visible.count) == visible)
    }

    @Test func pager() {
        check(Layouts.Pager(viewport: Size(width: 390, height: 844), aspectRatios: Array(repeating: 0.7, count: 500)))
    }
    @Test func strip() {
        var layout = Layouts.Strip(
            viewport: Size(width: 390, height: 66), aspectRatios: Array(repeating: nil, count: 500))
        layout.updates[7] = [.expand(0.5)]
        check(layout, at: Point(x: 100, y: 0))
    }
    @Test func halves() { check(Layouts.Halves(viewport: Size(width: 187, height: 812), count: 500)) }
    @Test func featured() {
        check(Layouts.Featured(viewport: Size(width: 375, height: 667), count: 500), at: Point(x: 0, y: 900))
    }
    @Test func carousel() {
        let layout = Layouts.Carousel(viewport: Size(width: 375, height: 180), count: 5)
        let all = layout.items(at: .zero, in: Self.everything)
        #expect(all.count == 3)
        #expect(layout.items(at: .zero, in: Self.everything, limit: 3) == all)
        #expect(layout.items(at: .zero, in: Self.everything, limit: 2) == nil)
    }
}
