import Testing
import QuireLayout
import QuireTestSupport

/// Invariants over seeded random inputs, for every layout: finite values, alpha in [0, 1],
/// nearest index in range, snapped offsets that leave their item fully focused, and zero or
/// one item handled without traps.
@Suite struct InvariantTests {
    static let wild: [Double] = [0, -0.0, 1e-300, -1e9, 1e12, .infinity, -.infinity, .nan]

    func randomOffset(_ rng: inout SplitMix64, span: Double) -> Point {
        if Int.random(in: 0..<10, using: &rng) == 0 {
            return Point(x: Self.wild.randomElement(using: &rng)!, y: Self.wild.randomElement(using: &rng)!)
        }
        return Point(x: Double.random(in: -span...span, using: &rng), y: Double.random(in: -span...span, using: &rng))
    }

    @Test func pager() throws {
        var rng = SplitMix64(seed: 1)
        for round in 0..<400 {
            let n = [0, 1, Int.random(in: 2...50, using: &rng)][round % 3]
            let layout = Layouts.Pager(
                viewport: Size(
                    width: Double.random(in: 1...1200, using: &rng), height: Double.random(in: 0...1200, using: &rng)),
                aspectRatios: (0..<n).map { _ in
                    [Double.random(in: 0.1...5, using: &rng), 0, -1, .nan][
                        Int.random(in: 0..<4, using: &rng) == 0 ? Int.random(in: 1...3, using: &rng) : 0]
                })
            let offset = randomOffset(&rng, span: Double(n + 1) * layout.viewport.width)
            for item in layout.items(at: offset) {
                expectSane(item.attributes, "pager")
                #expect(item.imageTranslation.isFinite && item.mask.isFinite)
                #expect(item.parallax.map { $0.isFinite && abs($0) < 1 } ?? true)
            }
            let target = layout.targetOffset(forProposed: offset, velocity: .zero)
            #expect(target.isFinite)
            guard n > 0 else { #expect(layout.nearestIndex(at: offset) == nil); continue }
            let index = try #require(layout.nearestIndex(at: target))
            #expect((0..<n).contains(index))
            let item = try #require(layout.item(ofIndex: index, at: target))
            #expect(item.parallax == 0 && item.attributes.transform.isIdentity)
        }
    }

    @Test func strip() throws {
        var rng = SplitMix64(seed: 2)
        for round in 0..<400 {
            let n = [0, 1, Int.random(in: 2...50, using: &rng)][round % 3]
            var layout = Layouts.Strip(
                viewport: Size(
                    width: Double.random(in: 0...1200, using: &rng), height: Double.random(in: 1...200, using: &rng)),
                aspectRatios: (0..<n).map { _ in
                    Bool.random(using: &rng) ? Double.random(in: 0.05...8, using: &rng) : nil
                })
            if n > 0, Bool.random(using: &rng) {
                layout.updates[Int.random(in: 0..<n, using: &rng)] = [
                    .collapse(Double.random(in: 0...1, using: &rng)),
                    .delete(Double.random(in: 0...1, using: &rng), .right)
                ]
            }
            let offset = randomOffset(&rng, span: Double(n + 1) * 60)
            for item in layout.items(at: offset) { expectSane(item.attributes, "strip") }
            let target = layout.targetOffset(forProposed: offset, velocity: .zero)
            #expect(target.isFinite)
            guard n > 0 else { #expect(layout.nearestIndex(at: offset) == nil); continue }
            let index = try #require(layout.nearestIndex(at: target))
            #expect((0..<n).contains(index))
            layout.updates = [:]
            let item = try #require(layout.item(ofIndex: index, at: target))
            #expect(item.state.expanding == 1)
        }
    }

    @Test func halves() throws {
        var rng = SplitMix64(seed: 3)
        for round in 0..<400 {
            let n = [0, 1, Int.random(in: 2...50, using: &rng)][round % 3]
            let layout = Layouts.Halves(
                viewport: Size(
                    width: Double.random(in: 0...400, using: &rng), height: Double.random(in: 0...1000, using: &rng)),
                count: n, orientation: Bool.random(using: &rng) ? .left : .right)
            let offset = randomOffset(&rng, span: Double(n + 1) * 300)
            for item in layout.items(at: offset) { expectSane(item.attributes, "halves") }
            let target = layout.targetOffset(forProposed: offset, velocity: .zero)
            #expect(target.isFinite)
            guard n > 0 else { #expect(layout.nearestIndex(at: offset) == nil); continue }
            let index = try #require(layout.nearestIndex(at: target))
            #expect((0..<n).contains(index))
            #expect(try #require(layout.cell(ofIndex: index, at: target)).scale == 1)
        }
    }

    @Test func carousel() throws {
        var rng = SplitMix64(seed: 4)
        for round in 0..<400 {
            let n = [0, 1, Int.random(in: 2...50, using: &rng)][round % 3]
            let layout = Layouts.Carousel(
                viewport: Size(
                    width: Double.random(in: 0...1000, using: &rng), height: Double.random(in: 0...400, using: &rng)),
                count: n, centerIndex: Int.random(in: -100...100, using: &rng))
            let offset = randomOffset(&rng, span: 3000)
            let (recentred, o) = layout.recentred(at: offset)
            #expect(o.x.isFinite || !offset.x.isFinite)
            for item in recentred.items(at: o) { expectSane(item.attributes, "carousel") }
            guard layout.count > 0 else { #expect(layout.nearestIndex(at: offset) == nil); continue }
            #expect((0..<n).contains(recentred.centerIndex))
            if offset.isFinite {
                #expect(o.x >= layout.backwardThreshold && o.x <= layout.forwardThreshold)
                // Snapping then recentring rests on the rest offset, with the centre banner fully shown.
                let target = recentred.targetOffset(forProposed: o, velocity: .zero)
                let (settled, rest) = recentred.recentred(at: target)
                #expect(abs(rest.x - settled.restOffset.x) < 1e-9)
                let centre = settled.frame(of: .center)
                #expect(centre.minX - rest.x >= 0 && centre.maxX - rest.x <= settled.viewport.width + 1e-9)
                #expect((0..<n).contains(try #require(settled.nearestIndex(at: rest))))
            }
        }
    }

    @Test func featured() throws {
        var rng = SplitMix64(seed: 5)
        for round in 0..<400 {
            let n = [0, 1, Int.random(in: 2...50, using: &rng)][round % 3]
            let layout = Layouts.Featured(
                viewport: Size(
                    width: Double.random(in: 0...800, using: &rng), height: Double.random(in: 0...1200, using: &rng)),
                count: n)
            let offset = randomOffset(&rng, span: Double(n + 1) * 180)
            for item in layout.items(at: offset) {
                expectSane(item.attributes, "featured")
                #expect(item.coverAlpha >= 0 && item.coverAlpha <= 1 && item.delta >= 0 && item.delta <= 1)
            }
            let target = layout.targetOffset(forProposed: offset, velocity: .zero)
            #expect(target.isFinite)
            guard n > 0 else { #expect(layout.nearestIndex(at: offset) == nil); continue }
            let index = try #require(layout.nearestIndex(at: target))
            #expect((0..<n).contains(index))
            #expect(try #require(layout.item(ofIndex: index, at: target)).role == .featured)
        }
    }

    @Test func hugeCountsStayCheap() {
        // A million items: the visible query touches only the visible cells (no O(N) scan).
        let n = 1_000_000
        let strip = Layouts.Strip(
            viewport: Size(width: 390, height: 66), aspectRatios: [Double?](repeating: nil, count: n))
        #expect(strip.items(at: Point(x: 37.0 * 999_999 - 176.5, y: 0)).count <= 12)
        let featured = Layouts.Featured(viewport: Size(width: 375, height: 667), count: n)
        #expect(featured.items(at: Point(x: 0, y: 180.0 * 500_000)).count <= 8)
        let halves = Layouts.Halves(viewport: Size(width: 187, height: 812), count: n)
        #expect(halves.items(at: Point(x: 0, y: 300.0 * 500_000)).count <= 10)
    }
}
