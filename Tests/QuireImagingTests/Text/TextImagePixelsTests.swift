import Foundation
import TesseractBridge
import Testing
import VipsBridge
@testable import QuireImaging

/// The pixels Tesseract is given for a written page: decoded straight into `TextImage`'s array,
/// they must be the bytes libvips decodes from the file, band for band.
@Suite struct TextImagePixelsTests {
    static func picture(width: Int, height: Int, bands: Int) -> [UInt8] {
        (0..<(width * height * bands)).map { UInt8(truncatingIfNeeded: $0 &* 5 &+ $0 / 11) }
    }

    /// A page as `PageTextReader` reads one: saved to a file, then loaded lazily from it.
    static func written(bands: Int, format: VIPSImage.SaveFormat) throws -> (VIPSImage, String) {
        let path = NSTemporaryDirectory() + "quire-text-pixels-\(UUID().uuidString.prefix(8)).\(format.fileExtension)"
        try VIPSImage.fromPixels(picture(width: 53, height: 29, bands: bands), width: 53, height: 29, bands: bands)
            .save(to: path, options: .init(format: format))
        return (try VIPSImage.load(file: path), path)
    }

    @Test(arguments: [1, 3])
    func aWrittenJPEGPageIsTheDecodedBytes(bands: Int) throws {
        let (page, path) = try Self.written(bands: bands, format: .jpeg)
        defer { unlink(path) }
        let image = try #require(try TextImage.pixels(of: page))
        #expect(image.bands == bands && image.width == 53 && image.height == 29)
        #expect(image.pixels == (try VIPSImage.load(file: path).pixelBytes()))
    }

    @Test func anRGBAPageLosesItsAlphaOnly() throws {
        let (page, path) = try Self.written(bands: 4, format: .png)
        defer { unlink(path) }
        let image = try #require(try TextImage.pixels(of: page))
        let rgba = try VIPSImage.load(file: path).pixelBytes()
        let rgb = (0..<(rgba.count / 4)).flatMap { rgba[$0 * 4..<$0 * 4 + 3] }
        #expect(image.bands == 3 && image.pixels == rgb)
    }
}
