import Testing
@testable import QuireGeometry

@Suite struct AspectFitTests {
    @Test func portraitInLandscapeBoxIsCentredAndFullHeight() throws {
        let r = try AspectFit.rect(for: Size(width: 1, height: 2), in: Rect(x: 0, y: 0, width: 390, height: 844))
        #expect(r.width == 390)
        #expect(r.height == 780)
        #expect(r.minX == 0)
        #expect(r.minY == 32)
    }

    @Test func degenerateContentThrowsAndEmptyVariantDoesNotCrash() {
        for bad in [
            Size(width: 0, height: 10), Size(width: .nan, height: 1), Size(width: .infinity, height: 1),
            Size(width: -1, height: 2)
        ] {
            #expect(throws: AspectFit.Failure.self) {
                try AspectFit.rect(for: bad, in: Rect(x: 0, y: 0, width: 10, height: 10))
            }
            let r = AspectFit.rectOrEmpty(for: bad, in: Rect(x: 0, y: 0, width: 10, height: 10))
            #expect(r == Rect(x: 5, y: 5, width: 0, height: 0))
        }
        #expect(
            AspectFit.rectOrEmpty(for: Size(width: 1, height: 1), in: Rect(x: .nan, y: 0, width: 1, height: 1)) == .zero
        )
    }

    @Test func pixelSizeNeverEnlargesAndKeepsRatio() {
        #expect(
            AspectFit.pixelSize(for: PixelSize(width: 4000, height: 3000), fittingIn: 256, 256)
                == PixelSize(width: 256, height: 192))
        #expect(
            AspectFit.pixelSize(for: PixelSize(width: 100, height: 50), fittingIn: 256, 256)
                == PixelSize(width: 100, height: 50))
        #expect(
            AspectFit.pixelSize(for: PixelSize(width: 10000, height: 1), fittingIn: 256, 256)
                == PixelSize(width: 256, height: 1))
        #expect(AspectFit.pixelSize(for: PixelSize(width: 0, height: 1), fittingIn: 256, 256) == nil)
    }
}
