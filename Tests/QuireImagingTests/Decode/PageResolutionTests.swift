import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// Reading the resolution a page file declares, and the JPEG header that decides pass-through.
@Suite struct PageResolutionTests {
    /// SOI + a JFIF APP0 with `unit` and densities + a baseline SOF0 of `width` x `height`.
    static func jpegHeader(
        unit: UInt8, x: Int, y: Int, width: Int = 640, height: Int = 480, components: UInt8 = 3,
        sof: UInt8 = 0xC0, exif: [UInt8]? = nil
    ) -> [UInt8] {
        var b: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]
        b += Array("JFIF\0".utf8) + [1, 2, unit, UInt8(x >> 8), UInt8(x & 255), UInt8(y >> 8), UInt8(y & 255), 0, 0]
        if let exif {
            let body = Array("Exif\0\0".utf8) + exif
            b += [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 255)] + body
        }
        b += [
            0xFF, sof, 0x00, UInt8(8 + 3 * Int(components)), 8, UInt8(height >> 8), UInt8(height & 255),
            UInt8(width >> 8), UInt8(width & 255), components
        ]
        for c in 0..<components { b += [c + 1, 0x11, 0] }
        return b + [0xFF, 0xDA, 0x00, 0x02]
    }

    /// A little-endian TIFF block with IFD0 entries (tag, type, count, value-or-offset) and rationals after it.
    static func exifBlock(xRes: (Int, Int)?, yRes: (Int, Int)?, unit: Int?, orientation: Int? = nil) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        var entries: [(Int, Int, Int, [UInt8])] = []  // tag, type, count, value bytes (4) or rational
        var rationals: [[UInt8]] = []
        if let orientation { entries.append((0x0112, 3, 1, le16(orientation) + [0, 0])) }
        if let xRes { entries.append((0x011A, 5, 1, [])); rationals.append(le32(xRes.0) + le32(xRes.1)) }
        if let yRes { entries.append((0x011B, 5, 1, [])); rationals.append(le32(yRes.0) + le32(yRes.1)) }
        if let unit { entries.append((0x0128, 3, 1, le16(unit) + [0, 0])) }
        let ifdSize = 2 + entries.count * 12 + 4
        var offset = 8 + ifdSize
        var out: [UInt8] = [0x49, 0x49, 42, 0] + le32(8) + le16(entries.count)
        for (tag, type, count, value) in entries {
            out += le16(tag) + le16(type) + le32(count)
            if type == 5 { out += le32(offset); offset += 8 } else { out += value }
        }
        out += le32(0)
        for rational in rationals { out += rational }
        return out
    }

    @Test func jfifDensity() throws {
        let dpi = try #require(PageResolution.parse(Self.jpegHeader(unit: 1, x: 300, y: 300)))
        #expect(dpi.x == 300 && dpi.y == 300)
        let cm = try #require(PageResolution.parse(Self.jpegHeader(unit: 2, x: 118, y: 118)))
        #expect(abs(cm.x - 299.72) < 0.01)
        // Unit 0 is an aspect ratio only; 72 dpi is a placeholder.
        #expect(PageResolution.parse(Self.jpegHeader(unit: 0, x: 1, y: 1)) == nil)
        #expect(PageResolution.parse(Self.jpegHeader(unit: 1, x: 72, y: 72)) == nil)
    }

    @Test func exifResolutionWhenJFIFSaysNothing() throws {
        let exif = Self.exifBlock(xRes: (600, 1), yRes: (600, 1), unit: 2)
        let dpi = try #require(PageResolution.parse(Self.jpegHeader(unit: 0, x: 1, y: 1, exif: exif)))
        #expect(dpi.x == 600 && dpi.y == 600)
        let cm = try #require(
            PageResolution.parse(
                Self.jpegHeader(
                    unit: 0, x: 1, y: 1,
                    exif: Self.exifBlock(xRes: (236, 2), yRes: (236, 2), unit: 3))))
        #expect(abs(cm.x - 299.72) < 0.01)
        #expect(
            PageResolution.parse(
                Self.jpegHeader(unit: 0, x: 1, y: 1, exif: Self.exifBlock(xRes: (72, 1), yRes: (72, 1), unit: 2)))
                == nil)
    }

    @Test func pngPhysChunk() throws {
        // 11811 px/m = 299.99 dpi.
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let n = data.count
            return [UInt8(n >> 24), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)] + Array(type.utf8) + data
                + [0, 0, 0, 0]
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr = chunk("IHDR", [0, 0, 1, 0, 0, 0, 1, 0, 8, 2, 0, 0, 0])
        let phys = chunk("pHYs", [0, 0, 0x2E, 0x23, 0, 0, 0x2E, 0x23, 1])
        let dpi = try #require(PageResolution.parse(signature + ihdr + phys + chunk("IDAT", [])))
        #expect(abs(dpi.x - 299.99) < 0.01)
        // After IDAT it no longer counts; unit 0 is an aspect ratio.
        #expect(PageResolution.parse(signature + ihdr + chunk("IDAT", []) + phys) == nil)
        #expect(PageResolution.parse(signature + ihdr + chunk("pHYs", [0, 0, 0x2E, 0x23, 0, 0, 0x2E, 0x23, 0])) == nil)
    }

    @Test func libvipsWrittenFilesWithoutResolutionReadAsUnknown() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for format in [VIPSImage.SaveFormat.jpeg, .png] {
            let path = folder + "/x." + format.fileExtension
            try TestSupport.image(width: 40, height: 30, bands: 3) { x, y, _ in UInt8((x * 5 + y * 3) & 255) }
                .save(to: path, options: .init(format: format, quality: 90))
            #expect(PageResolution.read(path: path) == nil, "\(format)")
        }
    }

    @Test func jpegFrameHeader() throws {
        let header = try #require(
            JPEGFrameHeader.parse(Self.jpegHeader(unit: 1, x: 300, y: 300, width: 1239, height: 1753)))
        #expect(header.width == 1239 && header.height == 1753 && header.components == 3 && header.embeddable)
        let gray = try #require(JPEGFrameHeader.parse(Self.jpegHeader(unit: 0, x: 1, y: 1, components: 1, sof: 0xC2)))
        #expect(gray.progressive && gray.embeddable)
        // CMYK, arithmetic coding and a rotation to apply all need decoding.
        #expect(
            try #require(JPEGFrameHeader.parse(Self.jpegHeader(unit: 0, x: 1, y: 1, components: 4))).embeddable == false
        )
        #expect(
            try #require(JPEGFrameHeader.parse(Self.jpegHeader(unit: 0, x: 1, y: 1, sof: 0xC9))).embeddable == false)
        let rotated = try #require(
            JPEGFrameHeader.parse(
                Self.jpegHeader(
                    unit: 0, x: 1, y: 1, exif: Self.exifBlock(xRes: nil, yRes: nil, unit: nil, orientation: 6))))
        #expect(rotated.orientation == 6 && !rotated.embeddable)
        #expect(JPEGFrameHeader.parse([0x89, 0x50]) == nil)
    }
}
