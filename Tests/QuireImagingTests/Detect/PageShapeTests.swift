import Testing
@testable import QuireImaging
@testable import QuirePageAnalysis

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

@Suite struct PageShapeTests {
    /// A page of known aspect, tilted in 3-D and seen through a pinhole camera centred on the
    /// image: the vanishing-point estimate recovers its aspect ratio.
    @Test(arguments: [(0.707, 0.3, -0.2, 0.4), (1.414, -0.25, 0.3, -0.3), (0.38, 0.2, 0.35, 0.1)])
    func recoversAspectOfAPinholeView(_ aspect: Double, _ rx: Double, _ ry: Double, _ rz: Double) {
        let (w, h, f) = (4000.0, 3000.0, 3500.0)
        func rotate(_ p: (Double, Double, Double)) -> (Double, Double, Double) {
            var (x, y, z) = p
            (y, z) = (y * cos(rx) - z * sin(rx), y * sin(rx) + z * cos(rx))
            (x, z) = (x * cos(ry) + z * sin(ry), -x * sin(ry) + z * cos(ry))
            (x, y) = (x * cos(rz) - y * sin(rz), x * sin(rz) + y * cos(rz))
            return (x, y, z)
        }
        let corners = [(-aspect / 2, -0.5), (aspect / 2, -0.5), (aspect / 2, 0.5), (-aspect / 2, 0.5)].map {
            c -> Point in
            let (x, y, z) = rotate((c.0, c.1, 0))
            let (X, Y, Z) = (x + 0.1, y - 0.05, z + 2.5)
            return Point(x: f * X / Z + w / 2, y: f * Y / Z + h / 2)
        }
        let quad = Quad(corners: corners)!
        let estimate = PageShape.aspectRatio(of: quad, imageWidth: w, imageHeight: h)
        #expect(abs(estimate / aspect - 1) < 0.005)
    }

    @Test func paperSizeSetsTheAspect() {
        let quad = Quad(
            topLeft: Point(x: 0, y: 0), topRight: Point(x: 1000, y: 0),
            bottomRight: Point(x: 1000, y: 1100), bottomLeft: Point(x: 0, y: 1100))
        let a4 = PageShape.outputSize(for: quad, imageWidth: 2000, imageHeight: 2000, paper: .a4)
        #expect(abs(Double(a4.width) / Double(a4.height) - 210.0 / 297.0) < 0.002)
        let auto = PageShape.outputSize(for: quad, imageWidth: 2000, imageHeight: 2000, paper: .auto)
        #expect(auto.width == 1000 && auto.height == 1100)
        let landscape = Quad(
            topLeft: Point(x: 0, y: 0), topRight: Point(x: 1400, y: 0),
            bottomRight: Point(x: 1400, y: 1000), bottomLeft: Point(x: 0, y: 1000))
        let letter = PageShape.outputSize(for: landscape, imageWidth: 2000, imageHeight: 2000, paper: .letter)
        #expect(abs(Double(letter.width) / Double(letter.height) - 11 / 8.5) < 0.002)
    }

    /// Sizes from corners far apart or degenerate never trap converting to Int.
    @Test func outputSidesAreClampedToWholePixels() {
        #expect(PageShape.pixels(.nan) == 1)
        #expect(PageShape.pixels(-5) == 1)
        #expect(PageShape.pixels(1e300) == PageShape.maxOutputSide)
        #expect(PageShape.pixels(.infinity) == PageShape.maxOutputSide)
        #expect(PageShape.pixels(1234.4) == 1234)
        let far = Quad(rect: Rect(x: 0, y: 0, width: 1e12, height: 1e12))
        let size = PageShape.outputSize(for: far, imageWidth: 100, imageHeight: 100, paper: .auto)
        #expect(size.width == PageShape.maxOutputSide && size.height == PageShape.maxOutputSide)
    }
}
