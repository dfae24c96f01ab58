import Foundation
import Testing

@testable import VipsBridge

/// `rotated(degrees:background:interpolation:)` and `analysisShrunk`, the deskew facet.
@Suite struct VIPSImageRotateTests {
    /// A black 200 x 100 image with a white horizontal bar through its middle.
    static func bar() throws -> VIPSImage {
        var px = [UInt8](repeating: 0, count: 200 * 100)
        for y in 46..<54 { for x in 20..<180 { px[y * 200 + x] = 255 } }
        return try VIPSImage.fromPixels(px, width: 200, height: 100, bands: 1)
    }

    /// Mean row of the white pixels in columns `x0..<x1`.
    static func barRow(_ px: [UInt8], width: Int, height: Int, x0: Int, x1: Int) -> Double {
        var sum = 0.0, weight = 0.0
        for y in 0..<height { for x in x0..<x1 where px[y * width + x] > 128 { sum += Double(y); weight += 1 } }
        return sum / max(1, weight)
    }

    @Test func positiveDegreesTurnClockwiseAsDisplayed() throws {
        let turned = try Self.bar().rotated(degrees: 10, background: [0])
        // The canvas grows to hold the rotated corners.
        let c = cos(10 * Double.pi / 180), s = sin(10 * Double.pi / 180)
        #expect(abs(Double(turned.width) - (200 * c + 100 * s)) <= 2)
        #expect(abs(Double(turned.height) - (200 * s + 100 * c)) <= 2)
        let px = try turned.pixelBytes()
        let left = Self.barRow(px, width: turned.width, height: turned.height, x0: 40, x1: 60)
        let right = Self.barRow(
            px, width: turned.width, height: turned.height,
            x0: turned.width - 60, x1: turned.width - 40)
        // Clockwise with y down: the bar falls to the right by about tan(10) per pixel.
        let expected = Double(turned.width - 100) * tan(10 * Double.pi / 180)
        #expect(right > left)
        #expect(abs((right - left) - expected) <= 2, "drop \(right - left), expected \(expected)")
    }

    @Test func uncoveredCornersTakeTheBackground() throws {
        let rgb = try VIPSImage.fromPixels([UInt8](repeating: 200, count: 50 * 40 * 3), width: 50, height: 40, bands: 3)
        let turned = try rgb.rotated(degrees: -30, background: [10, 20, 30], interpolation: .bicubic)
        #expect(turned.bands == 3)
        let corner = try turned.cropped(x: 0, y: 0, width: 1, height: 1).pixelBytes()
        #expect(corner == [10, 20, 30])
        let centre = try turned.cropped(x: turned.width / 2, y: turned.height / 2, width: 1, height: 1).pixelBytes()
        #expect(centre == [200, 200, 200])
    }

    @Test func analysisShrinkFitsTheLongSide() throws {
        let image = try VIPSImage.black(width: 3000, height: 2100, bands: 3)
        let small = try image.analysisShrunk(toLongSide: 1000)
        #expect(abs(small.width - 1000) <= 2 && abs(small.height - 700) <= 2)
        let same = try VIPSImage.black(width: 600, height: 400).analysisShrunk(toLongSide: 1000)
        #expect(same.width == 600 && same.height == 400)
    }

    /// The analysis copies' box filter in Quire's loop gives libvips's bytes: rows then
    /// columns each rounded, the last row and column repeated past odd edges, libvips's
    /// size (halves up), on grey, grey + alpha, RGB and RGBA, whole and fractional factors.
    @Test(arguments: [(1003, 757, 1), (757, 1003, 2), (640, 480, 3), (331, 203, 4), (2550, 3300, 1)])
    func analysisShrinkOwnLoopEqualsLibvips(_ size: (Int, Int, Int)) throws {
        let (width, height, bands) = size
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(width * height * bands)
        var px = [UInt8](repeating: 0, count: width * height * bands)
        for i in px.indices {
            // Noise over a ramp, so sums round both ways and carry the edge rows and columns.
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            px[i] = UInt8(truncatingIfNeeded: (i / bands) % width / 3 &+ Int(state >> 58))
        }
        // In memory, as the pipeline's pages are (a lazy image goes to libvips either way).
        let image = try VIPSImage.fromPixels(px, width: width, height: height, bands: bands).materialized()
        for factor in [2.0, 2.19, 3.0, 3.5, 4.125, 7.0, 8.3, 9.0] {
            let ours = try image.analysisShrunk(by: factor)
            let theirs = try image.analysisShrunk(by: factor, ownLoop: false)
            #expect(ours.width == theirs.width && ours.height == theirs.height, "factor \(factor)")
            #expect(ours.bands == theirs.bands && ours.hasAlpha == theirs.hasAlpha, "factor \(factor)")
            #expect(try ours.pixelBytes() == theirs.pixelBytes(), "factor \(factor), \(width)x\(height)x\(bands)")
        }
    }
}
