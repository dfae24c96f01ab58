import Foundation
import Testing
@testable import VipsBridge

/// The density a page is saved with must be what the next tool reads back: JFIF for JPEG (both
/// the in-thread encoder and libvips's), pHYs for PNG, EXIF for WebP, tags for TIFF.
@Suite struct VIPSImageSaveResolutionTests {
    private func image() throws -> VIPSImage {
        let frame = try VIPSFrame(width: 48, height: 32, bands: 3)
        for i in 0..<frame.pixels.count { frame.pixels[i] = UInt8(truncatingIfNeeded: i * 7) }
        return frame.image
    }

    private func roundTrip(_ format: VIPSImage.SaveFormat, dpi: Resolution?, viaLibvips: Bool = false) throws
        -> VIPSImage
    {
        let path = NSTemporaryDirectory() + "quire-dpi-\(UUID().uuidString.prefix(8))." + format.fileExtension
        defer { unlink(path) }
        try image().save(to: path, options: .init(format: format, quality: 85, dpi: dpi), viaLibvips: viaLibvips)
        // Load from memory so the file can go; the header is all that is read.
        return try VIPSImage.load(data: [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test(arguments: [
        (VIPSImage.SaveFormat.jpeg, false), (.jpeg, true), (.png, false), (.tiff, false)
    ])
    func aKnownResolutionIsReadBack(_ c: (format: VIPSImage.SaveFormat, viaLibvips: Bool)) throws {
        let back = try roundTrip(c.format, dpi: Resolution(x: 150, y: 300), viaLibvips: c.viaLibvips).headerResolution
        // PNG stores dots per metre as an integer: 150 dpi is 5906 /m, read back as 150.01.
        #expect(abs(back.x - 150) < 0.05, "\(c.format) x \(back.x)")
        #expect(abs(back.y - 300) < 0.05, "\(c.format) y \(back.y)")
    }

    @Test func jpegWithAKnownResolutionHasJFIFDensityInDotsPerInch() throws {
        let path = NSTemporaryDirectory() + "quire-dpi-\(UUID().uuidString.prefix(8)).jpg"
        defer { unlink(path) }
        try image().save(to: path, options: .init(format: .jpeg, dpi: Resolution(200)))
        let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // SOI, APP0 "JFIF\0", version, units = 1 (dpi), Xdensity, Ydensity.
        #expect(Array(b[6..<11]) == Array("JFIF\0".utf8))
        #expect(b[13] == 1)
        #expect(Int(b[14]) << 8 | Int(b[15]) == 200)
        #expect(Int(b[16]) << 8 | Int(b[17]) == 200)
    }

    @Test func anUnknownResolutionWritesNoDensityToJPEG() throws {
        let path = NSTemporaryDirectory() + "quire-dpi-\(UUID().uuidString.prefix(8)).jpg"
        defer { unlink(path) }
        try image().save(to: path, options: .init(format: .jpeg))
        let b = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // No JFIF segment at all (as libvips writes a stripped JPEG): no density to mistake.
        #expect(Array(b[0..<4]) != [0xFF, 0xD8, 0xFF, 0xE0])
        #expect(!b.indices.dropLast(4).contains { Array(b[$0..<$0 + 5]) == Array("JFIF\0".utf8) })
    }

    /// libvips 8.14's WebP loader does not turn EXIF resolution into its header, so read the tag.
    @Test func webPCarriesTheResolutionInEXIFAndNoCameraMetadata() throws {
        let back = try roundTrip(.webp, dpi: Resolution(150))
        // A fresh page carries only what Quire sets; nothing of a source photo's EXIF.
        #expect(back.metadataText("exif-ifd0-Make") == nil)
        #expect(back.metadataText("exif-ifd0-XResolution")?.hasPrefix("150") == true)
    }
}
