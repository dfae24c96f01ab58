import Testing
import QuireImaging

@Suite struct ImagingModuleTests {
    @Test func reexportsGeometry() { #expect(Size(width: 2, height: 1).aspectRatio == 2) }
}
