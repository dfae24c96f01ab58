import Testing
@testable import QuireGeometry

/// A deskew's turn, laid out as libvips' rotate lays it: about the centre, onto a grown canvas.
@Suite struct AffineTransformTests {
    @Test func aQuarterTurnMovesTheTopLeftCornerToTheTopRight() {
        let (turn, canvas) = AffineTransform.turn(degrees: 90, width: 200, height: 100)
        #expect(abs(canvas.width - 100) < 1e-9 && abs(canvas.height - 200) < 1e-9)
        let p = turn.apply(to: Point(x: 0, y: 0))
        #expect(abs(p.x - 100) < 1e-9 && abs(p.y) < 1e-9, "\(p)")
    }

    @Test func aSmallTurnKeepsTheCornersOnTheGrownCanvasAndGoesBack() throws {
        let (turn, canvas) = AffineTransform.turn(degrees: 3, width: 1000, height: 1300)
        let corners = [Point(x: 0, y: 0), Point(x: 1000, y: 0), Point(x: 1000, y: 1300), Point(x: 0, y: 1300)]
        let turned = corners.map { turn.apply(to: $0) }
        // The turned page touches every side of its canvas and stays inside it.
        #expect(abs(turned.map(\.x).min()!) < 1e-9 && abs(turned.map(\.y).min()!) < 1e-9)
        #expect(abs(turned.map(\.x).max()! - canvas.width) < 1e-9 && abs(turned.map(\.y).max()! - canvas.height) < 1e-9)
        // Clockwise: the top-left corner moves right along the top.
        #expect(turned[0].x > 0 && abs(turned[0].y) < 1e-9)
        let back = try #require(turn.inverted())
        for (p, q) in zip(corners, turned) { #expect(back.apply(to: q).distance(to: p) < 1e-9) }
    }
}
