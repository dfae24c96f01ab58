import Foundation
import Testing
@testable import VipsBridge
import QuireImageTestSupport

/// `VIPSFrame.decodingPNG` (cvips_png_decode_into): libvips's pixels, or nil / a throw where
/// libvips's loader must decide.
@Suite struct PNGDecodeTests {
    /// A page-like test pattern: ramps and stripes, so every byte value and edge shows.
    static func pattern(width: Int, height: Int, bands: Int) throws -> VIPSImage {
        var bytes = [UInt8](repeating: 0, count: width * height * bands)
        for i in bytes.indices {
            let pixel = i / bands, x = pixel % width, y = pixel / width
            bytes[i] = UInt8(truncatingIfNeeded: (x * 7 + y * 3 + (i % bands) * 85) ^ (y / 5 % 2 == 0 ? 0 : 0x5A))
        }
        return try VIPSImage.fromPixels(bytes, width: width, height: height, bands: bands)
    }

    static func saved(_ image: VIPSImage, oneBit: Bool = false) throws -> String {
        let path = NSTemporaryDirectory() + "quire-png-\(UUID().uuidString.prefix(8)).png"
        try image.save(to: path, options: .init(format: .png, oneBit: oneBit), viaLibvips: true)
        return path
    }

    /// What libvips's loader gives for the file, and what the frame decoded by libpng holds.
    static func both(_ path: String) throws -> (libvips: [UInt8], frame: [UInt8]?) {
        let loaded = try VIPSImage.load(file: path)
        let frame = try VIPSFrame.decodingPNG(
            file: path, width: loaded.width, height: loaded.height, bands: loaded.bands)
        return (try loaded.pixelBytes(), frame.map { Array($0.pixels) })
    }

    @Test(arguments: [1, 3]) func eightBitGreyAndRGBAreLibvipssPixels(bands: Int) throws {
        let path = try Self.saved(Self.pattern(width: 257, height: 131, bands: bands))
        defer { unlink(path) }
        let (libvips, frame) = try Self.both(path)
        #expect(frame == libvips)
    }

    @Test func oneBitGreyIsExpandedAsLibvipsExpandsIt() throws {
        // 0 and 255 only: what a one-bit page holds (and the saver's threshold keeps).
        let grey = try Self.pattern(width: 203, height: 97, bands: 1)
        let bytes = try grey.pixelBytes().map { $0 >= 128 ? UInt8(255) : 0 }
        let path = try Self.saved(VIPSImage.fromPixels(bytes, width: 203, height: 97, bands: 1), oneBit: true)
        defer { unlink(path) }
        let (libvips, frame) = try Self.both(path)
        #expect(frame == libvips)
        #expect(frame == bytes)
    }

    @Test func aPaletteScanIsExpandedToRGBAsLibvipsExpandsIt() throws {
        // A committed palette PNG (Tools/accuracy/real-scans/SOURCES.md).
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent("Tools/accuracy/real-scans/sbrunner-deskew/deskew-3.png").path
        let (libvips, frame) = try Self.both(path)
        #expect(frame != nil)
        #expect(frame == libvips)
    }

    @Test func alphaAndAnotherSizeAreLeftToLibvips() throws {
        let path = try Self.saved(Self.pattern(width: 64, height: 32, bands: 4))
        defer { unlink(path) }
        #expect(try VIPSFrame.decodingPNG(file: path, width: 64, height: 32, bands: 4) == nil)
        #expect(try VIPSFrame.decodingPNG(file: path, width: 64, height: 32, bands: 3) == nil)
        let grey = try Self.saved(Self.pattern(width: 64, height: 32, bands: 1))
        defer { unlink(grey) }
        #expect(try VIPSFrame.decodingPNG(file: grey, width: 63, height: 32, bands: 1) == nil)
        #expect(try VIPSFrame.decodingPNG(file: grey, width: 64, height: 32, bands: 3) == nil)
    }

    @Test func aCutFileThrowsForLibvipsToDecide() throws {
        let path = try Self.saved(Self.pattern(width: 300, height: 200, bands: 3))
        defer { unlink(path) }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: path))
        #expect(throws: VIPSError.self) {
            _ = try VIPSFrame.decodingPNG(file: path, width: 300, height: 200, bands: 3)
        }
    }
}
