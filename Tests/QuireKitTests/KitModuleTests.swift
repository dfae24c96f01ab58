import Testing
import QuireKit

@Suite struct KitModuleTests {
    @Test func reexportsGeometry() { #expect(Size(width: 2, height: 1).aspectRatio == 2) }
}
