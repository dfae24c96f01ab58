import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// A page decoded in stored orientation (`DecodedFrame`) gives the same upright page, the same
/// detection copy and the same warp as the autorotated image (Tests/Fixtures/exif holds one
/// picture stored in each EXIF orientation).
@Suite struct DecodedFrameTests {
    static let folder = TestSupport.repoRoot.appendingPathComponent("Tests/Fixtures/exif").path

    @Test(arguments: [1, 3, 6, 8])
    func mapsRoundTrip(orientation: Int) throws {
        let map = try #require(StoredOrientation(orientation: orientation, storedWidth: 300, storedHeight: 450))
        for p in [Point(x: 0, y: 0), Point(x: 12.25, y: 300.5), Point(x: 449, y: 1)] {
            let back = map.display(map.stored(p))
            #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
        }
        // The stored frame's corners land on the display frame's corners.
        let (w, h) = map.displaySize
        let corners = [Point(x: 0, y: 0), Point(x: 300, y: 0), Point(x: 300, y: 450), Point(x: 0, y: 450)].map(
            map.display)
        #expect(
            Set(corners.map { [$0.x, $0.y] }) == Set([[0, 0], [Double(w), 0], [Double(w), Double(h)], [0, Double(h)]]))
    }

    @Test func mirroredOrientationsAreDeclined() {
        for o in [2, 4, 5, 7] { #expect(StoredOrientation(orientation: o, storedWidth: 10, storedHeight: 20) == nil) }
    }

    /// Every EXIF orientation, mirrored ones included, decodes to the autorotated image, pixel for pixel.
    @Test(arguments: ["Landscape", "Portrait"], Array(1...8))
    func decodesToTheUprightImage(kind: String, orientation: Int) throws {
        let path = "\(Self.folder)/\(kind)_\(orientation).jpg"
        guard FileManager.default.fileExists(atPath: path) else { return }
        let expected = try VIPSImage.load(file: path).autorotated().displayReady(keepGray: true, background: 255)
        let decoded = try PageDecoder(maxPixels: .max).decodeFrame(PageSource(path: path))
        #expect(decoded.exifOrientation == orientation)
        #expect((decoded.displayWidth, decoded.displayHeight) == (expected.width, expected.height))
        let got = try decoded.uprightImage()
        #expect(try got.maxAbsoluteDifference(to: expected) == 0)
    }

    /// A synthetic frame stored in each rotation: the warp folds the rotation into its
    /// homography, and the detection copy maps back onto the same display pixels.
    @Test(arguments: [1, 3, 6, 8])
    func storedRotationsWarpAndShrinkLikeTheUprightFrame(orientation: Int) throws {
        // 2050 x 1500: the copy factor is 3 and 2050 is not a multiple of it (the dropped
        // column moves to another side once rotated).
        let (w, h) = (2050, 1500)
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let o = (y * w + x) * 3
                pixels[o] = UInt8((x * 255) / w); pixels[o + 1] = UInt8((y * 255) / h);
                pixels[o + 2] = UInt8((x ^ y) & 127)
            }
        }
        // A bright 24 px marker centred at display (1500, 400).
        for y in 388..<412 { for x in 1488..<1512 { for c in 0..<3 { pixels[(y * w + x) * 3 + c] = 255 } } }
        let upright = try VIPSImage.fromPixels(pixels, width: w, height: h, bands: 3)
        let turns = [1: 0, 3: 2, 6: 3, 8: 1][orientation]!  // stored = upright turned back
        let storedImage = try upright.rotated(quarterTurns: turns).materialized()
        let map = try #require(
            StoredOrientation(
                orientation: orientation, storedWidth: storedImage.width,
                storedHeight: storedImage.height))
        let stored = DecodedFrame(
            frame: try VIPSFrame(rendering: storedImage), orientation: map,
            exifOrientation: orientation, format: .jpeg)
        let reference = try DecodedFrame(upright: upright)
        #expect(try stored.uprightImage().maxAbsoluteDifference(to: upright) == 0)

        let copy = stored.detectionCopy()
        let quad = Quad(
            topLeft: Point(x: 300, y: 150), topRight: Point(x: 1800, y: 250),
            bottomRight: Point(x: 1700, y: 1350), bottomLeft: Point(x: 200, y: 1250))
        let corrector = PageCorrector(options: CorrectionOptions())
        let (a, qa) = try corrector.straighten(stored, quad: quad, refinement: nil)
        let (b, qb) = try corrector.straighten(reference, quad: quad, refinement: nil)
        #expect((a.width, a.height) == (b.width, b.height))
        #expect(try a.maxAbsoluteDifference(to: b) <= 2)
        for (p, q) in zip(qa.corners, qb.corners) { #expect(abs(p.x - q.x) < 1e-6 && abs(p.y - q.y) < 1e-6) }

        // The marker's centre in the copy (taken before the warp released the frame's rows),
        // mapped to display pixels, is where it was drawn.
        #expect((copy.width, copy.height) == (683, 500))
        var (sx, sy, n) = (0.0, 0.0, 0.0)
        for y in 0..<copy.height {
            for x in 0..<copy.width
            where copy.pixels[(y * copy.width + x) * 3 + 2] > 250 && copy.pixels[(y * copy.width + x) * 3] > 250 {
                sx += Double(x); sy += Double(y); n += 1
            }
        }
        #expect(n > 0)
        let centre = PageAnalyzer.display(
            Quad(
                topLeft: Point(x: sx / n, y: sy / n), topRight: Point(x: sx / n, y: sy / n),
                bottomRight: Point(x: sx / n, y: sy / n), bottomLeft: Point(x: sx / n, y: sy / n)),
            copy
        ).topLeft
        #expect(abs(centre.x - 1500) <= 1.5 && abs(centre.y - 400) <= 1.5, "marker at \(centre)")
    }

    @Test func releasedRowsAreOutsideWhatTheWarpReads() throws {
        // Straightening releases the rows far from the page; the page must not change.
        let (w, h) = (600, 900)
        var pixels = [UInt8](repeating: 0, count: w * h)
        for i in pixels.indices { pixels[i] = UInt8(truncatingIfNeeded: i &* 7) }
        let image = try VIPSImage.fromPixels(pixels, width: w, height: h, bands: 1)
        let quad = Quad(
            topLeft: Point(x: 100, y: 300), topRight: Point(x: 500, y: 320),
            bottomRight: Point(x: 480, y: 600), bottomLeft: Point(x: 120, y: 580))
        let corrector = PageCorrector(options: CorrectionOptions())
        let frame = try DecodedFrame(upright: image)
        let (page, _) = try corrector.straighten(frame, quad: quad, refinement: nil)
        let expected = try PerspectiveWarp.warp(
            pixels: pixels, width: w, height: h, bands: 1, quad: quad,
            outputWidth: page.width, outputHeight: page.height)
        #expect(try page.pixelBytes() == expected)
        // The rows above and below the page now read as zero (returned to the kernel).
        let frameBytes = try frame.interleaved().pixels
        #expect(frameBytes[10 * w + 5] == 0 && frameBytes[(h - 10) * w + 5] == 0)
    }
}
