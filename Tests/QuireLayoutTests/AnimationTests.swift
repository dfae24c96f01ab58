import Testing
import QuireLayout

@Suite struct AnimationTests {
    let strip = Layouts.Strip(viewport: Size(width: 390, height: 66), aspectRatios: [0.75, 1.5, 0.5, 2, 1])

    @Test func easings() {
        for e in Easing.allCases {
            #expect(e(0) == 0 && e(1) == 1 && e(-3) == 0 && e(7) == 1 && e(.nan) == 0)
        }
        #expect(Easing.easeInOut(0.25) == 0.125)
        #expect(Easing.easeInOut(0.5) == 0.5)
        #expect(Easing.easeInOut(0.75) == 0.875)
        #expect(Easing.easeIn(0.5) == 0.25)
        #expect(animationProgress(elapsed: 0.075, duration: 0.15) == 0.5)
        #expect(animationProgress(elapsed: 0, duration: 0) == 1)  // zero duration: one tick at p = 1
    }

    @Test func scrollAnimationsMoveTheExpandingRate() {
        let begin = StripAnimation.scrollBegin(currentRate: 1)
        #expect(begin.duration == 0.15)
        #expect(begin.frame(in: strip, progress: 0, offset: .zero).expandingRate == 1)
        #expect(begin.frame(in: strip, progress: 0.25, offset: .zero).expandingRate == 0.875)
        #expect(begin.frame(in: strip, progress: 1, offset: .zero).expandingRate == 0)
        let end = StripAnimation.scrollEnd(currentRate: 0.4)
        #expect(abs(end.duration - 0.09) < 1e-12)
        #expect(end.frame(in: strip, progress: 1, offset: .zero).expandingRate == 1)
    }

    func frames(_ s: Layouts.Strip, at offset: Point) -> [Rect] {
        s.items(at: offset, in: Rect(x: -1000, y: 0, width: 3000, height: 66)).map(\.attributes.frame)
    }

    func expectClose(_ a: [Rect], _ b: [Rect], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.count == b.count, sourceLocation: sourceLocation)
        for (x, y) in zip(a, b) {
            #expect(
                abs(x.minX - y.minX) < 1e-9 && abs(x.width - y.width) < 1e-9 && abs(x.height - y.height) < 1e-9,
                "\(x) != \(y)", sourceLocation: sourceLocation)
        }
    }

    @Test func moveEndpointsEqualTheStaticStates() throws {
        let start = try #require(strip.offset(forIndex: 1))
        let move = try #require(StripAnimation.move(in: strip, at: start, to: 3))
        let f0 = move.frame(in: strip, progress: 0, offset: start)
        #expect(f0.offset == start && f0.expandingRate == 0)
        expectClose(frames(strip.applying(f0), at: f0.offset), frames(strip, at: start))
        let f1 = move.frame(in: strip, progress: 1, offset: start)
        let end = try #require(strip.offset(forIndex: 3))
        #expect(f1.offset == end && f1.expandingRate == 1 && f1.updates.isEmpty)
        // The last eased tick (ε = 1 with updates) shows the same frames as the completed state.
        var lastTick = strip
        lastTick.expandingRate = 0
        lastTick.updates = [3: [.expand(1)], 1: [.expand(0)]]
        expectClose(frames(lastTick, at: end), frames(strip, at: end))
        // Half way: offset half way (easeInOut(0.5) = 0.5), target and source half expanded.
        let half = move.frame(in: strip, progress: 0.5, offset: start)
        #expect(half.offset.x == (start.x + end.x) / 2)
        #expect(half.updates == [3: [.expand(0.5)], 1: [.expand(0.5)]])
        // Same index: the fromIndex entry is written second and wins.
        let same = StripAnimation.move(from: 2, to: 2, startOffset: start).frame(
            in: strip, progress: 0.25, offset: start)
        #expect(same.updates == [2: [.expand(0.125), .expand(0.875)]])
    }

    @Test func deleteCollapsesThenShiftsAndEndsWhereTheRemovedStripIs() throws {
        let k = 2
        let at = try #require(strip.offset(forIndex: k))
        let phases = try #require(StripAnimation.deletion(in: strip, index: k))
        #expect(phases.delete == .delete(index: k, direction: .right))
        // Collapse at 0 is the static state; at 1 the cell is gone but neighbours have not moved.
        let c0 = phases.collapse.frame(in: strip, progress: 0, offset: at)
        expectClose(frames(strip.applying(c0), at: at), frames(strip, at: at))
        let c1 = strip.applying(phases.collapse.frame(in: strip, progress: 1, offset: at))
        let collapsed = try #require(c1.item(ofIndex: k, at: at))
        #expect(collapsed.attributes.size == Size(width: 0, height: 0) && collapsed.attributes.alpha == 0)
        #expect(
            c1.item(ofIndex: k + 1, at: at)?.attributes.frame == strip.item(ofIndex: k + 1, at: at)?.attributes.frame)
        // Delete at 0 equals collapse at 1.
        let d0 = strip.applying(phases.delete.frame(in: strip, progress: 0, offset: at))
        expectClose(frames(d0, at: at), frames(c1, at: at))
        // Delete at 1 equals the strip with the item removed (no 4 pt jump).
        let d1 = strip.applying(phases.delete.frame(in: strip, progress: 1, offset: at))
        let removed = try #require(strip.removingItem(at: k, offset: at))
        var animated = frames(d1, at: at)
        animated.remove(at: k)
        expectClose(animated, frames(removed.strip, at: removed.offset))
    }

    @Test func deletingTheLastItemClosesToTheLeft() throws {
        let k = strip.count - 1
        let at = try #require(strip.offset(forIndex: k))
        let phases = try #require(StripAnimation.deletion(in: strip, index: k))
        #expect(phases.delete == .delete(index: k, direction: .left))
        let d1 = strip.applying(phases.delete.frame(in: strip, progress: 1, offset: at))
        let removed = try #require(strip.removingItem(at: k, offset: at))
        // Compare on screen: the removal moves the offset back one pitch.
        let animated = Array(frames(d1, at: at).dropLast()).map { $0.offsetBy(dx: -at.x, dy: 0) }
        let after = frames(removed.strip, at: removed.offset).map { $0.offsetBy(dx: -removed.offset.x, dy: 0) }
        expectClose(animated, after)
    }

    @Test func classicDeleteShowsTheFourPointJump() throws {
        var classic = strip
        classic.parameters.deletionClosesSpacing = false
        let k = 2
        let at = try #require(classic.offset(forIndex: k))
        let phases = try #require(StripAnimation.deletion(in: classic, index: k))
        let d1 = classic.applying(phases.delete.frame(in: classic, progress: 1, offset: at))
        let neighbour = try #require(d1.item(ofIndex: k + 1, at: at))
        let removed = try #require(classic.removingItem(at: k, offset: at))
        let settled = try #require(removed.strip.item(ofIndex: k, at: removed.offset))
        #expect(neighbour.attributes.frame.midX - settled.attributes.frame.midX == 4)
    }

    @Test func deletingTheOnlyItemWorks() throws {
        let one = Layouts.Strip(viewport: Size(width: 390, height: 66), aspectRatios: [1])
        let phases = try #require(StripAnimation.deletion(in: one, index: 0))
        let f = phases.delete.frame(in: one, progress: 0.5, offset: .zero)
        #expect(f.updates.keys.sorted() == [0])
        let removed = try #require(one.removingItem(at: 0, offset: .zero))
        #expect(removed.strip.count == 0 && removed.offset.x.isFinite)
        #expect(StripAnimation.deletion(in: one, index: 1) == nil)
    }
}
