import Foundation
import Testing
@testable import VipsBridge

/// Pixels rendered straight into a Swift array, and images filled in libvips's own buffer.
@Suite struct VIPSImageMemoryTests {
    static func picture(width: Int, height: Int, bands: Int) -> [UInt8] {
        (0..<(width * height * bands)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 / 13) }
    }

    @Test(arguments: [1, 3, 4])
    func directBytesEqualPixelBytes(bands: Int) throws {
        let bytes = Self.picture(width: 37, height: 23, bands: bands)
        // A lazy pipeline (a crop), so the bytes are computed, not just copied.
        let image = try VIPSImage.fromPixels(bytes, width: 37, height: 23, bands: bands).cropped(
            x: 3, y: 2, width: 30, height: 19)
        #expect(try image.pixelBytesDirect() == image.pixelBytes())
    }

    @Test func filledImageHoldsWhatWasWritten() throws {
        let bytes = Self.picture(width: 41, height: 17, bands: 3)
        let image = try VIPSImage.filled(width: 41, height: 17, bands: 3) { buffer in
            for i in 0..<buffer.count { buffer[i] = bytes[i] }
        }
        #expect(image.width == 41 && image.height == 17 && image.bands == 3)
        #expect(try image.pixelBytes() == bytes)
        // It can be encoded and read back like any image.
        let path = NSTemporaryDirectory() + "quire-filled-\(UUID().uuidString.prefix(8)).png"
        defer { unlink(path) }
        try image.save(to: path, options: .init(format: .png))
        #expect(try VIPSImage.load(file: path).pixelBytes() == bytes)
    }

    @Test func badSizesAreErrors() {
        #expect(throws: VIPSError.self) { try VIPSImage.filled(width: 0, height: 5, bands: 3) { _ in } }
    }
}
