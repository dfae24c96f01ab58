import Testing
@testable import QuireGeometry

@Suite struct QuadTests {
    @Test func identicalQuadsHaveIoUOne() {
        let q = Quad(rect: Rect(x: 10, y: 10, width: 100, height: 50))
        #expect(abs(q.intersectionOverUnion(with: q) - 1) < 1e-12)
    }

    @Test func halfOverlapIsOneThird() {
        let a = Quad(rect: Rect(x: 0, y: 0, width: 2, height: 1))
        let b = Quad(rect: Rect(x: 1, y: 0, width: 2, height: 1))
        #expect(abs(a.intersectionOverUnion(with: b) - 1.0 / 3.0) < 1e-12)
    }

    @Test func disjointAndDegenerateQuadsScoreZero() {
        let a = Quad(rect: Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(a.intersectionOverUnion(with: Quad(rect: Rect(x: 5, y: 5, width: 1, height: 1))) == 0)
        #expect(a.intersectionOverUnion(with: Quad(rect: Rect(x: 0, y: 0, width: 0, height: 1))) == 0)
    }

    @Test func homographyMapsRectCornersOntoQuad() throws {
        let quad = Quad(
            topLeft: Point(x: 12, y: 30), topRight: Point(x: 410, y: 8),
            bottomRight: Point(x: 440, y: 600), bottomLeft: Point(x: 5, y: 560))
        let h = try #require(Homography(rectWidth: 300, height: 400, to: quad))
        let mapped = [Point(x: 0, y: 0), Point(x: 300, y: 0), Point(x: 300, y: 400), Point(x: 0, y: 400)].compactMap {
            h.apply($0)
        }
        for (m, c) in zip(mapped, quad.corners) { #expect(m.distance(to: c) < 1e-9) }
        let inv = try #require(h.inverted())
        let back = try #require(inv.apply(quad.bottomRight))
        #expect(back.distance(to: Point(x: 300, y: 400)) < 1e-9)
    }

    @Test func collinearPointsGiveNoHomography() {
        let line = [Point(x: 0, y: 0), Point(x: 1, y: 1), Point(x: 2, y: 2), Point(x: 3, y: 3)]
        #expect(Homography(from: line, to: line) == nil)
    }

    @Test func convexity() {
        #expect(Quad(rect: Rect(x: 0, y: 0, width: 1, height: 1)).isConvex)
        let bowtie = Quad(
            topLeft: Point(x: 0, y: 0), topRight: Point(x: 1, y: 1), bottomRight: Point(x: 1, y: 0),
            bottomLeft: Point(x: 0, y: 1))
        #expect(!bowtie.isConvex)
    }

    @Test func sidesPointOutwardWhicheverWayTheCornersRun() throws {
        let clockwise = Quad(rect: Rect(x: 10, y: 20, width: 100, height: 50))
        let reversed = try #require(Quad(corners: clockwise.corners.reversed()))
        for quad in [clockwise, reversed] {
            let sides = try #require(quad.sides)
            for side in sides {
                // A point just outside the side's middle is outside the rectangle.
                let p = side.point(at: 0.5, out: 1)
                #expect(p.x < 10 || p.x > 110 || p.y < 20 || p.y > 70, "\(side)")
                #expect(abs(side.outward.x * side.outward.x + side.outward.y * side.outward.y - 1) < 1e-12)
            }
        }
        #expect(clockwise.sides?[0].point(at: 1, out: 0) == Point(x: 110, y: 20))
        let degenerate = Quad(
            topLeft: Point(x: 0, y: 0), topRight: Point(x: 0.5, y: 0),
            bottomRight: Point(x: 10, y: 10), bottomLeft: Point(x: 0, y: 10))
        #expect(degenerate.sides == nil)
    }
}
