import Foundation
import QuireImageTestSupport
import Testing
import VipsBridge
@testable import QuireImaging

/// `--thumbnails-only` on PNGs and TIFFs shrinks the page the decoder opened (failing on
/// truncation), so it refuses what a full run refuses and shows the page a full run writes, and a
/// good PNG's thumbnail is the picture libvips's thumbnail of the file would have been.
@Suite struct PagePipelineThumbnailOnlyTests {
    static let pipeline = PagePipeline(renditions: RenditionOptions(format: .png, thumbnailSize: 96))

    @Test func aPNGWhosePixelsCannotBeReadGetsNoThumbnail() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/huge-idat.png", thumb = "\(dir)/thumb.png"
        try TestSupport.writePNGWithHugeIDAT(to: path)
        for _ in 0..<5 {
            #expect { try Self.pipeline.processThumbnailOnly(PageSource(path: path), to: thumb) } throws: {
                ($0 as? ImagingError)?.kind == .truncated && "\($0)".contains(path)
            }
            #expect(!FileManager.default.fileExists(atPath: thumb))
        }
    }

    @Test(arguments: [1, 3]) func aGoodPNGsThumbnailIsLibvipssPicture(bands: Int) throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/page.png"
        try TestSupport.image(width: 517, height: 301, bands: bands) { x, y, b in
            UInt8(truncatingIfNeeded: x * 7 + y * 3 + b * 85 + (x / 13 + y / 11) % 2 * 60)
        }.save(to: path, options: .init(format: .png))
        let header = try PageDecoder(maxPixels: .max).decode(PageSource(path: path))
        let ours = try Self.pipeline.thumbnail(
            of: header.image, source: PageSource(path: path), format: .png, corrected: false)
        let libvips = try VIPSImage.thumbnail(file: path, width: 96, height: 96)
        #expect((ours.width, ours.height, ours.bands) == (libvips.width, libvips.height, libvips.bands))
        // The same picture: libvips's thumbnail of a file rounds a few pixels of a busy
        // pattern differently (up to a few levels) from its thumbnail of the opened image.
        #expect(try ours.meanAbsoluteDifference(to: libvips) < 0.5)
    }

    /// A multi-page TIFF whose pages halve in size looks like a page pyramid to libvips's
    /// thumbnail, which then shrinks whichever page is nearest the box: page 1's thumbnail showed
    /// page 3. Each page's thumbnail is that page's picture, as a full run writes it.
    @Test func eachPageOfAHalvingTIFFIsItsOwnThumbnail() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/halving.tif"
        try Self.writeGreyTIFF(to: path, pages: [(400, 520, 230, false), (200, 260, 120, false), (100, 130, 20, false)])
        for (page, grey) in [(0, 230.0), (1, 120), (2, 20)] {
            let thumb = "\(dir)/thumb\(page).png"
            let result = try Self.pipeline.processThumbnailOnly(PageSource(path: path, page: page), to: thumb)
            let image = try VIPSImage.load(file: thumb)
            #expect(abs(try image.average() - grey) < 0.5, "page \(page + 1)")
            #expect(image.height == min(96, result.height))
        }
    }

    /// A TIFF page whose own pixels cannot be decoded is refused, though the smaller pages after
    /// it (which libvips's thumbnail took for its pyramid) are sound: a full run refuses it.
    @Test func aTIFFPageThatCannotBeDecodedGetsNoThumbnail() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/corrupt.tif", thumb = "\(dir)/thumb.png"
        try Self.writeGreyTIFF(to: path, pages: [(400, 520, 230, true), (200, 260, 120, false), (100, 130, 20, false)])
        #expect { try Self.pipeline.processThumbnailOnly(PageSource(path: path), to: thumb) } throws: {
            ($0 as? ImagingError)?.kind == .truncated && "\($0)".contains(path)
        }
        #expect(!FileManager.default.fileExists(atPath: thumb))
    }

    /// A little-endian TIFF of 8-bit grey pages, each one flat strip of `grey`, directories
    /// first; a `corrupt` page claims deflate and holds bytes zlib refuses.
    static func writeGreyTIFF(to path: String, pages: [(width: Int, height: Int, grey: UInt8, corrupt: Bool)]) throws {
        var out: [UInt8] = Array("II*\0".utf8) + [8, 0, 0, 0]
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        let directoryBytes = 2 + 9 * 12 + 4
        var dataOffset = 8 + directoryBytes * pages.count
        var data: [UInt8] = []
        for (i, page) in pages.enumerated() {
            let strip: [UInt8] =
                page.corrupt
                ? (0..<page.width * 4).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
                : [UInt8](repeating: page.grey, count: page.width * page.height)
            let tags: [(Int, Int, Int)] = [
                (256, 4, page.width), (257, 4, page.height), (258, 3, 8), (259, 3, page.corrupt ? 8 : 1),
                (262, 3, 1), (273, 4, dataOffset), (277, 3, 1), (278, 4, page.height), (279, 4, strip.count)
            ]
            out += u16(tags.count)
            for (tag, type, value) in tags {
                out += u16(tag) + u16(type) + u32(1) + (type == 3 ? u16(value) + u16(0) : u32(value))
            }
            out += u32(i == pages.count - 1 ? 0 : 8 + directoryBytes * (i + 1))
            data += strip
            dataOffset += strip.count
        }
        try Data(out + data).write(to: URL(fileURLWithPath: path))
    }
}
