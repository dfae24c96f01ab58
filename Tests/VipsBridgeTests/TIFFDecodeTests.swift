import Foundation
import Testing
@testable import VipsBridge
import QuireImageTestSupport

/// `VIPSFrame.decodingTIFF` (cvips_tiff_decode_into): libvips's pixels, or nil / a throw where
/// libvips's loader must decide.
@Suite struct TIFFDecodeTests {
    static func saved(_ image: VIPSImage) throws -> String {
        let path = NSTemporaryDirectory() + "quire-tiff-\(UUID().uuidString.prefix(8)).tif"
        try image.save(to: path, options: .init(format: .tiff), viaLibvips: true)
        return path
    }

    /// What libvips's loader gives for the file, and what the frame decoded by libtiff holds.
    static func both(_ path: String) throws -> (libvips: [UInt8], frame: [UInt8]?) {
        let loaded = try VIPSImage.load(file: path)
        let frame = try VIPSFrame.decodingTIFF(
            file: path, page: 0, width: loaded.width, height: loaded.height, bands: loaded.bands)
        return (try loaded.pixelBytes(), frame.map { Array($0.pixels) })
    }

    /// The committed one-bit scans (Tools/accuracy/real-scans/SOURCES.md): CCITT G4,
    /// min-is-white, widths that are and are not whole bytes.
    static let oneBitScans = ["feyn.tif", "pageseg1.tif", "bois-2.tif", "scots-frag.tif"]

    @Test(arguments: [1, 3]) func eightBitGreyAndRGBAreLibvipssPixels(bands: Int) throws {
        let path = try Self.saved(PNGDecodeTests.pattern(width: 257, height: 131, bands: bands))
        defer { unlink(path) }
        let (libvips, frame) = try Self.both(path)
        #expect(frame != nil)
        #expect(frame == libvips)
    }

    @Test(arguments: oneBitScans) func oneBitScansAreExpandedAsLibvipsExpandsThem(name: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent("Tools/accuracy/real-scans/leptonica/\(name)").path
        let (libvips, frame) = try Self.both(path)
        #expect(frame != nil)
        let same = frame == libvips  // (not in the expectation: it would print both pages)
        #expect(same, "\(name): \(zip(frame ?? [], libvips).filter { $0 != $1 }.count) bytes differ")
        // Both values occur: a page of text, black on white.
        #expect(libvips.contains(0) && libvips.contains(255))
    }

    @Test func alphaAndAnotherSizeAreLeftToLibvips() throws {
        let path = try Self.saved(PNGDecodeTests.pattern(width: 64, height: 32, bands: 4))
        defer { unlink(path) }
        #expect(try VIPSFrame.decodingTIFF(file: path, page: 0, width: 64, height: 32, bands: 4) == nil)
        #expect(try VIPSFrame.decodingTIFF(file: path, page: 0, width: 64, height: 32, bands: 3) == nil)
        let grey = try Self.saved(PNGDecodeTests.pattern(width: 64, height: 32, bands: 1))
        defer { unlink(grey) }
        #expect(try VIPSFrame.decodingTIFF(file: grey, page: 0, width: 63, height: 32, bands: 1) == nil)
        #expect(try VIPSFrame.decodingTIFF(file: grey, page: 0, width: 64, height: 32, bands: 3) == nil)
    }

    @Test func aCutFileOrAMissingPageThrowsForLibvipsToDecide() throws {
        let path = try Self.saved(PNGDecodeTests.pattern(width: 300, height: 200, bands: 3))
        defer { unlink(path) }
        #expect(throws: VIPSError.self) {
            _ = try VIPSFrame.decodingTIFF(file: path, page: 1, width: 300, height: 200, bands: 3)
        }
        // libvips writes the directory before the strips: a cut file keeps it, and its last
        // strips come short.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count * 3 / 4).write(to: URL(fileURLWithPath: path))
        #expect(throws: VIPSError.self) {
            _ = try VIPSFrame.decodingTIFF(file: path, page: 0, width: 300, height: 200, bands: 3)
        }
    }
}
