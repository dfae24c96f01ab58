import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// Decoding: 8-bit sRGB out, grey stays grey, alpha flattened on white, every listed format
/// opens, and the size limit is decided from the header.
@Suite struct PageDecoderTests {
    @Test func greyStaysGreyAndAlphaIsFlattenedOnWhite() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let grey = try TestSupport.image(width: 40, height: 30, bands: 1) { x, _, _ in UInt8(x * 5) }
        try grey.save(to: "\(out)/grey.png", options: .init(format: .png))
        let decodedGrey = try PageDecoder(maxPixels: 1_000_000).decode(PageSource(path: "\(out)/grey.png"))
        #expect(decodedGrey.image.bands == 1)
        #expect(decodedGrey.image.format == .uchar)

        // RGBA: left half opaque red, right half fully transparent.
        let rgba = try TestSupport.image(width: 40, height: 30, bands: 4) { x, _, b in
            x < 20 ? [255, 0, 0, 255][b] : [0, 0, 0, 0][b]
        }
        try rgba.save(to: "\(out)/alpha.png", options: .init(format: .png))
        let decoded = try PageDecoder(maxPixels: 1_000_000).decode(PageSource(path: "\(out)/alpha.png")).image
        #expect(decoded.bands == 3)
        #expect(!decoded.hasAlpha)
        #expect(try decoded.cropped(x: 25, y: 0, width: 15, height: 30).average() > 254)
        let red = try decoded.cropped(x: 0, y: 0, width: 15, height: 30)
        #expect(try red.extractBands(0).average() > 250)
        #expect(try red.extractBands(1).average() < 5)
    }

    @Test(arguments: [OutputFormat.webp, .png, .jpeg])
    func listedFormatsDecode(format: OutputFormat) throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let image = try TestSupport.image(width: 64, height: 48, bands: 3) { x, y, b in UInt8((x * 3 + y * 2 + b * 40) % 256) }
        let path = "\(out)/in.\(format.fileExtension)"
        try image.save(to: path, options: .init(format: format.saveFormat, quality: 95))
        let decoded = try PageDecoder(maxPixels: 1_000_000).decode(PageSource(path: path))
        #expect(decoded.image.width == 64 && decoded.image.height == 48)
        #expect(try decoded.image.meanAbsoluteDifference(to: image) < 4)
    }

    @Test func gifGivesItsFirstFrame() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let frames = try [20, 230].map { level in try TestSupport.image(width: 32, height: 24, bands: 3) { _, _, _ in UInt8(level) } }
        let gif = "\(out)/anim.gif"
        try VIPSImage.joiningPages(frames).save(to: gif, options: .init(format: .gif))
        let info = try SourceProbe.probe(gif)
        #expect(info.format == .gif && info.pageCount == 1)
        let decoded = try PageDecoder(maxPixels: 1_000_000).decode(PageSource(path: gif))
        #expect(decoded.image.height == 24)
        #expect(abs(try decoded.image.average() - 20) < 6)
    }

    @Test func oversizedPagesAreRefusedFromTheHeader() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let image = try TestSupport.image(width: 200, height: 100, bands: 3) { _, _, _ in 128 }
        try image.save(to: "\(out)/big.jpg")
        #expect(throws: Never.self) { try PageDecoder(maxPixels: 20_000).decode(PageSource(path: "\(out)/big.jpg")) }
        do {
            _ = try PageDecoder(maxPixels: 19_999).decode(PageSource(path: "\(out)/big.jpg"))
            Issue.record("a 20000-pixel page passed a 19999-pixel limit")
        } catch let error as ImagingError {
            #expect(error.kind == .tooLarge)
            #expect(error.reason.contains("200x100"))
            #expect(error.reason.contains("--max-pixels"))
        }
    }
}
