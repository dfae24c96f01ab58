import Testing
import VipsBridge

@Suite struct VIPSImageTests {
    @Test func pixelsRoundTripThroughPNG() throws {
        var bytes = [UInt8](repeating: 0, count: 8 * 4 * 3)
        for i in bytes.indices { bytes[i] = UInt8(i % 251) }
        let image = try VIPSImage.fromPixels(bytes, width: 8, height: 4, bands: 3)
        let png = try image.encoded(options: .init(format: .png))
        let decoded = try VIPSImage.load(data: png)
        #expect(decoded.width == 8 && decoded.height == 4 && decoded.bands == 3)
        #expect(try decoded.pixelBytes() == bytes)
    }

    /// Pixels built in Swift (a cleaned page, a warped photo) stay in memory: a pipeline here
    /// had the preview made by libvips and the page encode compute the copy again.
    @Test(arguments: [1, 2, 3, 4]) func pixelsFromSwiftAreInMemory(bands: Int) throws {
        let bytes = (0..<(37 * 23 * bands)).map { UInt8(($0 * 7) % 256) }
        let image = try VIPSImage.fromPixels(bytes, width: 37, height: 23, bands: bands)
        #expect(image.isInMemory)
        #expect(image.isGray == (bands < 3))
        #expect(try image.withPixels { Array($0) } == bytes)
    }

    @Test func garbageIsAClearLoadError() throws {
        #expect(throws: VIPSError.self) { try VIPSImage.load(data: [1, 2, 3, 4, 5, 6, 7, 8]) }
    }

    @Test func imagesAreReleased() throws {
        // The count is process-wide and other suites run in parallel holding a few images of
        // their own, so compare against a leak's size (2 images an iteration), not exactly.
        let before = VIPSRuntime.liveImageCount
        for _ in 0..<200 {
            let image = try VIPSImage.black(width: 64, height: 64, bands: 3)
            _ = try image.resized(horizontal: 0.5, vertical: 0.5).pixelBytes()
        }
        #expect(VIPSRuntime.liveImageCount < before + 100)
    }
}
