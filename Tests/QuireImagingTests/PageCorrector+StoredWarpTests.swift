import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// Warping from the file's stored pixels with the quad mapped into stored coordinates gives the
/// same upright page as warping the autorotated image (Samples/scans/exif: one picture stored
/// in each EXIF orientation).
@Suite struct StoredWarpTests {
    static let folder = TestSupport.repoRoot.appendingPathComponent("Samples/scans/exif").path

    @Test(arguments: [1, 3, 6, 8])
    func mapsRoundTrip(orientation: Int) throws {
        let map = try #require(StoredOrientation(orientation: orientation, storedWidth: 300, storedHeight: 450))
        for p in [Point(x: 0, y: 0), Point(x: 12.25, y: 300.5), Point(x: 449, y: 1)] {
            let back = map.display(map.stored(p))
            #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
        }
        // The stored frame's corners land on the display frame's corners.
        let (w, h) = map.displaySize
        let corners = [Point(x: 0, y: 0), Point(x: 300, y: 0), Point(x: 300, y: 450), Point(x: 0, y: 450)].map(map.display)
        #expect(Set(corners.map { [$0.x, $0.y] }) == Set([[0, 0], [Double(w), 0], [Double(w), Double(h)], [0, Double(h)]]))
    }

    @Test func mirroredOrientationsAreDeclined() {
        for o in [2, 4, 5, 7] { #expect(StoredOrientation(orientation: o, storedWidth: 10, storedHeight: 20) == nil) }
    }

    @Test(arguments: ["Landscape", "Portrait"], [1, 3, 6, 8])
    func sameAsWarpingTheUprightImage(kind: String, orientation: Int) throws {
        let path = "\(Self.folder)/\(kind)_\(orientation).jpg"
        guard FileManager.default.fileExists(atPath: path) else { return }
        let upright = try VIPSImage.load(file: path).autorotated().displayReady(keepGray: true, background: 255)
        let (w, h) = (Double(upright.width), Double(upright.height))
        // A keystoned quad inside the frame, TL TR BR BL in display pixels.
        let quad = Quad(topLeft: Point(x: 0.12 * w, y: 0.08 * h), topRight: Point(x: 0.9 * w, y: 0.15 * h),
                        bottomRight: Point(x: 0.82 * w, y: 0.93 * h), bottomLeft: Point(x: 0.05 * w, y: 0.85 * h))
        let corrector = PageCorrector(options: CorrectionOptions())
        let expected = try corrector.straighten(upright, quad: quad)
        let got = try #require(try corrector.straightenFromStoredPixels(
            source: PageSource(path: path), displayWidth: upright.width, displayHeight: upright.height, quad: quad,
            insideBrighter: true, refineRadius: 0))
        #expect(got.image.width == expected.width && got.image.height == expected.height)
        let a = try got.image.pixelBytes(), b = try expected.pixelBytes()
        #expect(a.count == b.count)
        let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 255
        #expect(worst <= 2, "max pixel difference \(worst)")
        for (p, q) in zip(got.quad.corners, quad.corners) { #expect(abs(p.x - q.x) < 1e-6 && abs(p.y - q.y) < 1e-6) }
    }

    @Test func declinesAFrameOfAnotherSize() throws {
        let path = "\(Self.folder)/Landscape_1.jpg"
        guard FileManager.default.fileExists(atPath: path) else { return }
        let quad = Quad(topLeft: Point(x: 1, y: 1), topRight: Point(x: 50, y: 1), bottomRight: Point(x: 50, y: 50),
                        bottomLeft: Point(x: 1, y: 50))
        let got = try PageCorrector(options: CorrectionOptions()).straightenFromStoredPixels(
            source: PageSource(path: path), displayWidth: 7, displayHeight: 9, quad: quad, insideBrighter: true, refineRadius: 0)
        #expect(got == nil)
    }
}
