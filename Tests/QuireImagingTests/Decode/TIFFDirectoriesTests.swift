import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// Pages of a multi-page TIFF are opened straight at their directories (so a page's cost does
/// not grow with the file's page count): the right page, in order, with the same pixels as
/// libvips's `page=` gives; a broken chain falls back to libvips.
@Suite struct TIFFDirectoriesTests {
    /// A TIFF of `count` pages of 40 x 30 grey, page i at level 10 + 20 i.
    static func pages(_ count: Int, in dir: String) throws -> String {
        let pages = try (0..<count).map { i in
            try TestSupport.image(width: 40, height: 30, bands: 1) { _, _, _ in UInt8(10 + 20 * i) }
        }
        let path = dir + "/pages.tif"
        try VIPSImage.joiningPages(pages).save(to: path, options: .init(format: .tiff))
        return path
    }

    @Test func eachPageIsOpenedAtItsDirectoryInOrder() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Self.pages(7, in: dir)
        let offsets = try #require(TIFFDirectories.offsets(of: path))
        #expect(offsets.count == 7)
        #expect(offsets == offsets.sorted() || Set(offsets).count == 7)
        for page in 0..<7 {
            let source = PageSource(path: path, page: page)
            let (image, atDirectory) = try TIFFDirectories.load(source, format: .tiff, options: .init())
            #expect(atDirectory)
            #expect(image.width == 40 && image.height == 30)
            #expect(try image.average() == Double(10 + 20 * page), "page \(page)")
            let viaLibvips = try VIPSImage.load(file: path, options: .init(page: page, pageCount: 1))
            #expect(try viaLibvips.average() == image.average())
            // The whole decode path takes it too, and the page count still says 7.
            let decoded = try PageDecoder(maxPixels: .max).decodeFrame(source)
            #expect(decoded.displayWidth == 40)
        }
        #expect(try SourceProbe.probe(path).pageCount == 7)
        // A page past the end goes to libvips, which words the error.
        #expect(throws: ImagingError.self) { try PageDecoder(maxPixels: .max).decode(PageSource(path: path, page: 7)) }
    }

    @Test func aChainThatLoopsOrRunsOffTheFileIsNotFollowed() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Self.pages(2, in: dir)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let offsets = try #require(TIFFDirectories.read(path))
        let little = bytes[0] == 0x49
        // Point the second directory's link back at the first.
        let second = Int(offsets[1])
        let count =
            little ? Int(bytes[second]) | Int(bytes[second + 1]) << 8 : Int(bytes[second]) << 8 | Int(bytes[second + 1])
        let link = second + 2 + 12 * count
        let first = UInt32(offsets[0])
        for i in 0..<4 { bytes[link + (little ? i : 3 - i)] = UInt8((first >> (8 * UInt32(i))) & 0xFF) }
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/loop.tif"))
        #expect(TIFFDirectories.read(dir + "/loop.tif") == nil)
        try Data(bytes.prefix(second + 4)).write(to: URL(fileURLWithPath: dir + "/cut.tif"))
        #expect(TIFFDirectories.read(dir + "/cut.tif") == nil)
        try Data("not a tiff at all".utf8).write(to: URL(fileURLWithPath: dir + "/text.tif"))
        #expect(TIFFDirectories.read(dir + "/text.tif") == nil)
    }
}
