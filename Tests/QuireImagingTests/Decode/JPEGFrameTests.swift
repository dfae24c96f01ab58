import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// Full-size JPEG decodes go straight from libjpeg into the frame (`VIPSFrame.decodingJPEG`):
/// the same bytes libvips's loader gives, or declined so libvips decodes the file.
@Suite struct JPEGFrameTests {
    /// libvips's decode of the file in stored orientation, 8-bit.
    static func libvipsPixels(_ path: String) throws -> (bytes: [UInt8], width: Int, height: Int, bands: Int) {
        let image = try VIPSImage.load(file: path, options: .init(failOn: .truncated))
        return (try image.pixelBytes(), image.width, image.height, image.bands)
    }

    static func differences(_ a: UnsafeMutableBufferPointer<UInt8>, _ b: [UInt8]) -> Int {
        guard a.count == b.count else { return max(a.count, b.count) }
        var n = 0
        for i in 0..<b.count where a[i] != b[i] { n += 1 }
        return n
    }

    @Test(arguments: [(1603, 1201, 3, 85), (640, 480, 1, 90), (17, 33, 3, 60), (1000, 1500, 3, 97)])
    func sameBytesAsLibvips(_ c: (width: Int, height: Int, bands: Int, quality: Int)) throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/card.jpg"
        try TestSupport.card(width: c.width, height: c.height, bands: c.bands)
            .save(to: path, options: .init(quality: c.quality))
        let reference = try Self.libvipsPixels(path)
        let frame = try #require(
            try VIPSFrame.decodingJPEG(file: path, width: c.width, height: c.height, bands: c.bands))
        #expect((reference.width, reference.height, reference.bands) == (c.width, c.height, c.bands))
        #expect(Self.differences(frame.pixels, reference.bytes) == 0)
    }

    @Test func anotherSizeOrBandCountIsDeclined() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/card.jpg"
        try TestSupport.card(width: 300, height: 200).save(to: path)
        #expect(try VIPSFrame.decodingJPEG(file: path, width: 200, height: 300, bands: 3) == nil)
        #expect(try VIPSFrame.decodingJPEG(file: path, width: 300, height: 200, bands: 1) == nil)
        #expect(try VIPSFrame.decodingJPEG(file: path, width: 300, height: 200, bands: 3) != nil)
    }

    /// A truncated file fails here; the page decoder then asks libvips, which refuses it too and
    /// words the error, naming the file.
    @Test func aTruncatedFileFailsAndThePageIsRefused() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/cut.jpg"
        try TestSupport.writeTruncatedJPEG(path, width: 1200, height: 900, fraction: 2.0 / 3)
        #expect(throws: VIPSError.self) { try VIPSFrame.decodingJPEG(file: path, width: 1200, height: 900, bands: 3) }
        #expect { try PageDecoder(maxPixels: .max).decodeFrame(PageSource(path: path)) } throws: {
            ($0 as? ImagingError)?.kind == .truncated && "\($0)".contains(path)
        }
    }

    /// The page decoder's frame, whichever decoder made it, is what libvips decodes (stored
    /// orientation), for the EXIF set in all orientations.
    @Test(arguments: 1...8)
    func pageDecoderFramesMatchLibvips(orientation: Int) throws {
        let path = TestSupport.repoRoot.appendingPathComponent("Tests/Fixtures/exif/Landscape_\(orientation).jpg").path
        let decoded = try PageDecoder(maxPixels: .max).decodeFrame(PageSource(path: path))
        var reference = try VIPSImage.load(file: path)
        if decoded.orientation.orientation == 1 && orientation != 1 { reference = try reference.autorotated() }
        let bytes = try reference.pixelBytes()
        let frame = try decoded.interleaved()
        #expect((frame.width, frame.height) == (reference.width, reference.height))
        #expect(Self.differences(frame.pixels, bytes) == 0)
    }

    /// Every JPEG of other projects' test suites: decoded to libvips's bytes, or declined.
    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: TestSupport.realData.path), "../shared/data/real is absent")
    )
    func realJPEGsDecodeToLibvipsBytesOrAreDeclined() throws {
        let files = TestSupport.realJPEGs()
        var decoded = 0
        for path in files {
            let name = String(path.dropFirst(TestSupport.realData.path.count + 1))
            guard let reference = try? Self.libvipsPixels(path), reference.width * reference.height < 50_000_000 else {
                continue
            }
            guard
                let frame = try? VIPSFrame.decodingJPEG(
                    file: path, width: reference.width, height: reference.height,
                    bands: reference.bands)
            else { continue }
            #expect(Self.differences(frame.pixels, reference.bytes) == 0, "\(name)")
            decoded += 1
        }
        #expect(decoded > 20)
        print("JPEG frames: \(decoded) of \(files.count) real JPEGs decoded to libvips's bytes")
    }
}
