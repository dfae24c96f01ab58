import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

@Suite struct PageMaskTests {
    @Test func fillsTheQuad() {
        let quad = Quad(
            topLeft: Point(x: 2, y: 1), topRight: Point(x: 7, y: 1),
            bottomRight: Point(x: 7, y: 5), bottomLeft: Point(x: 2, y: 5))
        let mask = PageMask.pixels(quad: quad, width: 10, height: 8)
        // Pixel centres x + 0.5 in 2...7 and y + 0.5 in 1...5: columns 2-6, rows 1-4.
        #expect(mask.filter { $0 == 255 }.count == 5 * 4)
        #expect(mask[1 * 10 + 2] == 255 && mask[4 * 10 + 6] == 255)
        #expect(mask[0] == 0 && mask[5 * 10 + 4] == 0 && mask[3 * 10 + 7] == 0 && mask[3 * 10 + 1] == 0)
    }

    @Test func areaFollowsATiltedQuad() {
        let quad = Quad(
            topLeft: Point(x: 50, y: 10), topRight: Point(x: 190, y: 60),
            bottomRight: Point(x: 150, y: 190), bottomLeft: Point(x: 10, y: 140))
        let mask = PageMask.pixels(quad: quad, width: 200, height: 200)
        let inside = Double(mask.filter { $0 == 255 }.count)
        #expect(abs(inside - quad.area) / quad.area < 0.02)
    }

    @Test func writesAGreyPNG() throws {
        let path = NSTemporaryDirectory() + "quire-mask-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let quad = Quad(rect: Rect(x: 4, y: 4, width: 20, height: 10))
        try PageMask.write(quad: quad, width: 32, height: 24, to: path)
        let image = try VIPSImage.load(file: path)
        #expect(image.width == 32 && image.height == 24 && image.bands == 1)
        #expect(try image.pixelBytes() == PageMask.pixels(quad: quad, width: 32, height: 24))
    }
}
