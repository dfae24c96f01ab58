import Testing
@testable import QuireGeometry

/// A quad measured on a turned frame, mapped back into the source it was turned from.
@Suite struct QuadQuarterTurnTests {
    /// `p` of a `w` x `h` frame as it shows once the frame is turned a quarter clockwise
    /// (written out independently: the first column from the bottom becomes the top row).
    static func turnedOnce(_ p: Point, height h: Double) -> Point { Point(x: h - p.y, y: p.x) }

    static let quad = Quad(
        topLeft: Point(x: 10, y: 20), topRight: Point(x: 350, y: 12),
        bottomRight: Point(x: 380, y: 290), bottomLeft: Point(x: 4, y: 270))

    @Test(arguments: [0, 1, 2, 3, 5, -1])
    func pointsComeBackThroughEveryTurn(turns: Int) {
        let (w, h) = (400.0, 300.0)
        var (tw, th) = (w, h)
        var corners = Self.quad.corners
        for _ in 0..<(((turns % 4) + 4) % 4) {
            corners = corners.map { Self.turnedOnce($0, height: th) }
            (tw, th) = (th, tw)
        }
        let turned = Quad(corners: corners)!
        let back = turned.unturned(quarterTurns: turns, sourceWidth: w, sourceHeight: h)
        // The same points under the same names: the page's own corners as it reads.
        for (b, o) in zip(back.corners, Self.quad.corners) { #expect(b.distance(to: o) < 1e-9) }
    }

    @Test func aQuarterTurnsFrameMapsOntoTheSourceFrame() {
        // The turned frame of a 400 x 300 source is 300 x 400; its top-left is the source's bottom-left.
        let frame = Quad(rect: Rect(x: 0, y: 0, width: 300, height: 400))
        let back = frame.unturned(quarterTurns: 1, sourceWidth: 400, sourceHeight: 300)
        #expect(
            back.corners == [Point(x: 0, y: 300), Point(x: 0, y: 0), Point(x: 400, y: 0), Point(x: 400, y: 300)])
        let half = Quad(rect: Rect(x: 0, y: 0, width: 400, height: 300))
            .unturned(quarterTurns: 2, sourceWidth: 400, sourceHeight: 300)
        #expect(
            half.corners == [Point(x: 400, y: 300), Point(x: 0, y: 300), Point(x: 0, y: 0), Point(x: 400, y: 0)])
    }
}
