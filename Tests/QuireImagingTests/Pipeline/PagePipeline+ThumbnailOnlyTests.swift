import Foundation
import QuireImageTestSupport
import Testing
import VipsBridge
@testable import QuireImaging

/// `--thumbnails-only` on PNGs shrinks the page the decoder opened (failing on truncation), so
/// it refuses what a full run refuses, and a good PNG's thumbnail is the picture libvips's
/// thumbnail of the file would have been.
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
}
