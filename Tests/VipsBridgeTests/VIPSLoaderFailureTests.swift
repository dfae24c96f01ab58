import Foundation
import Testing
@testable import VipsBridge

/// A loader whose read of the pixels failed marks its image, and no render of that image (or
/// of anything made from it) into memory succeeds: libvips 8.14 can lose the failure on its
/// worker thread, and `vips_image_write` then reports success with pixels never decoded.
@Suite struct VIPSLoaderFailureTests {
    /// A 2x2 RGB PNG whose IDAT chunk claims 1 GB (libpng's `huge_IDAT.png` crasher): its header
    /// loads, and every read of its pixels runs out of data.
    static let hugeIDAT: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0xFD, 0xD4, 0x9A,
        0x73, 0x3F, 0xFF, 0xFF, 0xFF, 0x49, 0x44, 0x41, 0x54, 0x08, 0xD7, 0x63, 0xFC, 0x7F, 0xE0, 0x34,
        0x03, 0x03, 0x03, 0x13, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x00, 0x1E, 0xD6, 0x02, 0x8E, 0xEE,
        0x7E, 0x06, 0x2B, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82
    ]

    static func written(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "quire-loadfail-\(UUID().uuidString.prefix(8)).png"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func goodPNG() throws -> String {
        let path = NSTemporaryDirectory() + "quire-loadok-\(UUID().uuidString.prefix(8)).png"
        let image = try VIPSImage.fromPixels((0..<48).map { UInt8($0 * 5) }, width: 4, height: 4, bands: 3)
        try image.save(to: path, options: .init(format: .png), viaLibvips: true)
        return path
    }

    @Test func aPNGWhoseImageDataRunsOutMarksItsLoader() throws {
        let path = try Self.written(Self.hugeIDAT)
        defer { unlink(path) }
        VIPSRuntime.setWarningsSilenced(true)
        let loaded = try VIPSImage.load(file: path, options: .init(sequential: true, failOn: .truncated))
        #expect(!loaded.loaderFailedToRead)
        _ = try? VIPSFrame(rendering: loaded.displayReady())
        #expect(loaded.loaderFailedToRead)
    }

    @Test func aLoaderThatRecoversByDesignDoesNotMark() throws {
        // With fail_on none libvips's documented recovery (pixels it could not read are black)
        // is what the caller asked for.
        let path = try Self.written(Self.hugeIDAT)
        defer { unlink(path) }
        VIPSRuntime.setWarningsSilenced(true)
        let loaded = try VIPSImage.load(file: path, options: .init(sequential: true))
        _ = try? loaded.pixelBytes()
        #expect(!loaded.loaderFailedToRead)
    }

    @Test func noRenderOfAMarkedImageSucceeds() throws {
        let path = try Self.goodPNG()
        defer { unlink(path) }
        let open = { try VIPSImage.load(file: path, options: .init(sequential: true, failOn: .truncated)) }
        // Unmarked, each render gives the pixels.
        #expect(try VIPSFrame(rendering: open().displayReady()).byteCount == 48)
        #expect(try open().pixelBytes().count == 48)
        // Marked as a failed read marks it (whether or not libvips's render saw the failure),
        // a render of the image or of a pipeline on it fails with a reason.
        // Each render opens the file afresh: a sequential image is read once.
        let marked = {
            let image = try open()
            image.markLoaderFailedToRead()
            return image
        }
        let frame = #expect(throws: VIPSError.self) { try VIPSFrame(rendering: marked().displayReady()) }
        #expect(frame?.message.isEmpty == false)
        #expect(throws: VIPSError.self) { try marked().displayReady().pixelBytes() }
        #expect(throws: VIPSError.self) { try marked().materialized() }
    }

    /// `vips_thumbnail` opens its own loader: it fails on truncation as a full run's does, and
    /// its failed reads are watched too, so no thumbnail of the file's missing pixels comes out
    /// (with fail_on none it was a 2x2 picture of nothing, every time).
    @Test func aThumbnailOfAFileWhosePixelsCannotBeReadFails() throws {
        let path = try Self.written(Self.hugeIDAT)
        defer { unlink(path) }
        VIPSRuntime.setWarningsSilenced(true)
        for _ in 0..<20 {
            #expect(throws: VIPSError.self) { try VIPSImage.thumbnail(file: path, width: 8, height: 8).pixelBytes() }
        }
        // Its loader is watched though vips_thumbnail built it: a render that lost the failure
        // is refused all the same.
        let thumbnail = try VIPSImage.thumbnail(file: path, width: 8, height: 8)
        _ = try? thumbnail.pixelBytes()
        #expect(thumbnail.loaderFailedToRead)
        let good = try Self.goodPNG()
        defer { unlink(good) }
        #expect(try VIPSImage.thumbnail(file: good, width: 8, height: 8).pixelBytes().count == 48)
    }
}
