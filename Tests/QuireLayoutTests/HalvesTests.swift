import Testing
import QuireLayout
import QuireTestSupport

@Suite struct HalvesTests {
    // The storyboard's column on a 375 pt screen: 187 × 812, so P = 300 and inset 256.
    let left = Layouts.Halves(viewport: Size(width: 187, height: 812), count: 8, orientation: .left)
    var right: Layouts.Halves { var r = left; r.orientation = .right; return r }

    static func lines(_ items: [Layouts.Halves.Item]) -> [String] {
        items.map { item in
            Golden.line(item.attributes) + " role=\(item.role.rawValue) n=\(Golden.number(item.normalizedDistance))"
                + " s=\(Golden.number(item.scale)) frame=\(Golden.rect(item.attributes.frame))"
        }
    }

    @Test func goldenBetweenPizzas0And1() {
        Golden.check("halves-left-between", Self.lines(left.items(at: Point(x: 0, y: -256 + 100))))
        Golden.check("halves-right-centred", Self.lines(right.items(at: Point(x: 0, y: 44))))
    }

    @Test func derivedValues() {
        #expect(left.pizzaSize == 300)
        #expect(Layouts.Halves(viewport: Size(width: 159, height: 568), count: 1).pizzaSize == 230)
        #expect(left.contentInset == EdgeInsets(top: 256, left: 0, bottom: 256, right: 0))
        #expect(left.contentSize == Size(width: 187, height: 2400))
        #expect(left.offset(forIndex: 0) == Point(x: 0, y: -256))
        #expect(left.offset(forIndex: 1) == Point(x: 0, y: 44))
        #expect(left.pizzaIndex(at: Point(x: 0, y: -256)) == 0.5)
    }

    @Test func handWorkedCentredPizzaAndItsNeighbour() throws {
        let items = left.items(at: Point(x: 0, y: -256))
        let cell0 = try #require(items.first { $0.role == .cell && $0.attributes.index == 0 })
        #expect(cell0.scale == 1 && cell0.attributes.alpha == 1)
        #expect(cell0.attributes.center == Point(x: 91.5, y: 150))
        // Pizza 1: Δ = 300 → n = 1, s = 0.4, hOff = 56.1, vOff = −30.
        let cell1 = try #require(items.first { $0.role == .cell && $0.attributes.index == 1 })
        #expect(cell1.scale == 0.4 && cell1.attributes.alpha == 0.4)
        #expect(abs(cell1.attributes.center.x - 147.6) < 1e-12)
        #expect(cell1.attributes.center.y == 420)
        // Left halves pin their right edge at W − 2; right halves their left edge at 2.
        #expect(abs(cell1.attributes.frame.maxX - 185) < 1e-12)
        let mirrored = try #require(right.items(at: Point(x: 0, y: -256)).first { $0.attributes.index == 1 })
        #expect(abs(mirrored.attributes.frame.minX - 2) < 1e-12)
        // One header, for the centred pizza: the 60 pt band above it, (16, −60, 155, 60).
        let headers = items.filter { $0.role == .header }
        #expect(headers.count == 1)
        #expect(headers[0].attributes.frame == Rect(x: 16, y: -60, width: 155, height: 60))
        #expect(headers[0].attributes.zIndex == 2)
        #expect(items.last?.role == .header)  // cells first, then headers
    }

    @Test func headersCrossFadeAndSlide() throws {
        // 100 pt past pizza 0: Δ0 = −100 (n −0.5), Δ1 = 200 (n 1, no header).
        let items = left.items(at: Point(x: 0, y: -156))
        let headers = items.filter { $0.role == .header }
        #expect(headers.map(\.attributes.index) == [0])
        #expect(headers[0].attributes.alpha == 0.5)
        #expect(headers[0].attributes.transform.ty == -10)
    }

    // Snapping table with the same-cell rule: current offset rests on pizza 0 (−256).
    @Test(
        arguments: [
            (-256.0 + 100, 0, true), (-256 + 149, 0, true), (-256 + 150, 1, false), (44 + 299, 2, false),
            (1e9, 7, false), (-1e9, 0, true), (.nan, 0, true)
        ] as [(Double, Int, Bool)])
    func snapping(proposed: Double, index: Int, sameCell: Bool) throws {
        let current = Point(x: 0, y: -256)
        let snap = try #require(left.snap(proposed: Point(x: 0, y: proposed), velocity: .zero, current: current))
        #expect(snap.index == index)
        #expect(snap.sameCell == sameCell)
        #expect(snap.restingOffset == left.offset(forIndex: index))
        #expect(snap.immediateOffset == (sameCell ? current : snap.restingOffset))
        // The resting offset centres its pizza at full scale.
        let cell = try #require(left.cell(ofIndex: index, at: snap.restingOffset))
        #expect(cell.scale == 1)
    }

    @Test func pulledInCellsAreReturnedAndDegenerateSizesGiveNothing() {
        // A rect just above the centred pizza, missing pizza 0's default frame but not its pulled frame.
        let rect = Rect(x: 0, y: 1200 - 10, width: 187, height: 5)
        let items = left.items(at: Point(x: 0, y: 1100), in: rect)
        for item in items where item.role == .cell {
            #expect(
                item.attributes.frame.intersects(rect)
                    || left.defaultFrame(ofIndex: item.attributes.index).intersects(rect))
        }
        var zero = left
        zero.parameters.pizzaSize = 0
        #expect(zero.count == 0)
        #expect(zero.items(at: .zero).isEmpty)
        #expect(zero.nearestIndex(at: .zero) == nil)
        let empty = Layouts.Halves(viewport: Size(width: 187, height: 812), count: 0)
        #expect(empty.contentSize.height == 0 && empty.items(at: .zero).isEmpty)
    }

    @Test func itemsMatchBruteForce() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<2000 {
            let n = Int.random(in: 1...30, using: &rng)
            var parameters = Layouts.Halves.Parameters()
            if Bool.random(using: &rng) {
                parameters.pizzaSize = Double.random(in: 20...400, using: &rng)
                parameters.scaleFactor = Double.random(in: 0...1, using: &rng)
                parameters.criticalOffsetFromCenter = Double.random(in: 1...900, using: &rng)
            }
            let h = Layouts.Halves(viewport: Size(width: 187, height: 812), count: n, parameters: parameters)
            let offset = Point(x: 0, y: Double.random(in: -600...(Double(n) * h.pizzaSize), using: &rng))
            let rect = Rect(
                x: 0, y: offset.y + Double.random(in: -900...900, using: &rng), width: 187,
                height: Double.random(in: 0...1200, using: &rng))
            let brute = (0..<n).compactMap { h.cell(ofIndex: $0, at: offset) }
                .filter {
                    $0.attributes.frame.intersects(rect)
                        || h.defaultFrame(ofIndex: $0.attributes.index).intersects(rect)
                }
            #expect(h.items(at: offset, in: rect).filter { $0.role == .cell } == brute)
        }
    }
}
