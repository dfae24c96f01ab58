import Foundation
import Testing
@testable import VipsBridge

@Suite struct VIPSImageSaveTests {
    /// A frame of `bands` bands holding a pattern with edges and gradients (what JPEG's
    /// quantisation and chroma subsampling both act on).
    private func frame(width: Int, height: Int, bands: Int) throws -> VIPSFrame {
        let frame = try VIPSFrame(width: width, height: height, bands: bands)
        for y in 0..<height {
            for x in 0..<width {
                for b in 0..<bands {
                    let v = (x * (3 + b) + y * (5 - b)) ^ (x / 7 * 31) ^ (y / 5 * 17)
                    frame.pixels[(y * width + x) * bands + b] = UInt8(truncatingIfNeeded: v)
                }
            }
        }
        return frame
    }

    private func bytes(of image: VIPSImage, options: VIPSImage.SaveOptions, viaLibvips: Bool) throws -> Data {
        let path = NSTemporaryDirectory() + "quire-save-\(UUID().uuidString.prefix(8)).jpg"
        defer { unlink(path) }
        try image.save(to: path, options: options, viaLibvips: viaLibvips)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The in-thread encoder must write exactly what libvips's saver writes, for every case the
    /// pipeline hands it: RGB and grey, odd sizes (partial blocks and MCUs), qualities either
    /// side of 90 (where chroma subsampling stops), and optimised Huffman tables.
    @Test(arguments: [
        (width: 301, height: 203, bands: 3, quality: 85, optimize: false),
        (width: 64, height: 48, bands: 3, quality: 89, optimize: false),
        (width: 64, height: 48, bands: 3, quality: 90, optimize: false),
        (width: 17, height: 9, bands: 3, quality: 100, optimize: false),
        (width: 255, height: 129, bands: 1, quality: 75, optimize: false),
        (width: 300, height: 200, bands: 3, quality: 85, optimize: true),
        (width: 1, height: 1, bands: 3, quality: 50, optimize: false)
    ])
    func inThreadJPEGEqualsLibvips(_ c: (width: Int, height: Int, bands: Int, quality: Int, optimize: Bool)) throws {
        let image = try frame(width: c.width, height: c.height, bands: c.bands).image
        #expect(image.isInMemory)
        let options = VIPSImage.SaveOptions(
            format: .jpeg, quality: c.quality, stripMetadata: true, optimizeCoding: c.optimize)
        let direct = try bytes(of: image, options: options, viaLibvips: false)
        let vips = try bytes(of: image, options: options, viaLibvips: true)
        #expect(direct.count > 100)
        #expect(direct == vips)
    }

    @Test func aPipelineStillSavesThroughLibvips() throws {
        // Not in memory: computed by libvips's saver, which must still work.
        let image = try frame(width: 40, height: 30, bands: 3).image.fitted(inside: 20)
        #expect(!image.isInMemory)
        let data = try bytes(of: image, options: .init(), viaLibvips: false)
        #expect(data.starts(with: [0xFF, 0xD8]))
    }

    @Test func anUnwritablePathNamesTheFileAndTheReason() throws {
        let image = try frame(width: 16, height: 16, bands: 3).image
        let path = NSTemporaryDirectory() + "quire-no-such-dir-\(UUID().uuidString.prefix(8))/page.jpg"
        do {
            try image.save(to: path)
            Issue.record("saving into a missing folder succeeded")
        } catch let error as VIPSError {
            #expect(error.message.contains(path))
            #expect(error.message.contains("No such file"))
        }
    }
}
