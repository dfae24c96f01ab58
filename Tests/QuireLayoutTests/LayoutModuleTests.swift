import Testing
import QuireLayout

@Suite struct LayoutModuleTests {
    @Test func reexportsGeometry() {
        #expect(Rect(x: 0, y: 0, width: 1, height: 1).intersects(Rect(x: 1, y: 1, width: 1, height: 1)))
    }
}
