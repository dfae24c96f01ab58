import Testing
import QuireLayout

@Suite struct PagerStripSyncTests {
    static let ratios: [Double] = [0.75, 1.5, 0.5, 2, 1]
    func make() -> PagerStripSync {
        PagerStripSync(
            pager: Layouts.Pager(viewport: Size(width: 390, height: 844), aspectRatios: Self.ratios),
            strip: Layouts.Strip(viewport: Size(width: 390, height: 66), aspectRatios: Self.ratios))
    }

    @Test func pagerDrivesStripContinuously() throws {
        var sync = make()
        // o = 1.5 pages → x_thumb = 5·37·(1.5/5) − 176.5 = −121: half-way between cells 1 and 2.
        let scrolled = sync.pagerDidScroll(to: Point(x: 585, y: 0))
        let x = try #require(scrolled)
        #expect(x.x == -121)
        #expect(sync.activeIndex == 2)  // round half up
        let second = sync.pagerDidScroll(to: Point(x: 390, y: 0))
        #expect(second?.x == 37 - 176.5)
        #expect(sync.activeIndex == 1)
    }

    @Test func stripMovesPagerPageByPage() {
        var sync = make()
        #expect(sync.stripDidScroll(to: Point(x: -176.5 + 10, y: 0)) == nil)  // still page 0: pager stays
        #expect(sync.stripDidScroll(to: Point(x: -176.5 + 2 * 37 - 5, y: 0)) == Point(x: 780, y: 0))
        #expect(sync.activeIndex == 2)
        #expect(sync.stripDidScroll(to: Point(x: -176.5 + 2 * 37 + 5, y: 0)) == nil)
    }

    @Test func configuringForcesOffsetsAndRotationKeepsTheActivePage() throws {
        var sync = make()
        #expect(sync.state == .configuring)
        #expect(sync.pagerTargetOffset(forProposed: Point(x: 999, y: 0)) == .zero)  // first layout centres item 0
        _ = sync.pagerDidScroll(to: Point(x: 1170, y: 0))
        #expect(sync.activeIndex == 3)
        let rotated = sync.changeViewports(pager: Size(width: 844, height: 390), strip: Size(width: 844, height: 66))
        let offsets = try #require(rotated)
        #expect(sync.state == .ready)
        #expect(offsets.pager == Point(x: 3 * 844, y: 0))
        #expect(offsets.strip.x == -292.5)  // 3·37 − (844 − 33 − 4)/2
        #expect(sync.strip.nearestIndex(at: offsets.strip) == 3)
        #expect(sync.pager.nearestIndex(at: offsets.pager) == 3)
        #expect(sync.pagerTargetOffset(forProposed: Point(x: 5, y: 0)) == Point(x: 5, y: 0))  // ready: unchanged
    }

    @Test func deletingTheLastPageKeepsTheActiveIndexInRange() throws {
        var sync = make()
        _ = sync.pagerDidScroll(to: Point(x: 4 * 390, y: 0))
        #expect(sync.activeIndex == 4)
        let deleted = sync.didDelete(index: 4)
        let offsets = try #require(deleted)
        #expect(sync.activeIndex == 3)  // the sample leaves 4 (out of range)
        #expect(offsets.pager == Point(x: 3 * 390, y: 0))
        for _ in 0..<4 { _ = sync.didDelete(index: 0) }
        #expect(sync.activeIndex == nil)
        #expect(sync.configuredOffsets == nil)
        #expect(sync.pagerDidScroll(to: .zero) == nil)
    }
}
