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
        let image = try TestSupport.image(width: 64, height: 48, bands: 3) { x, y, b in
            UInt8((x * 3 + y * 2 + b * 40) % 256)
        }
        let path = "\(out)/in.\(format.fileExtension)"
        try image.save(to: path, options: .init(format: format.saveFormat, quality: 95))
        let decoded = try PageDecoder(maxPixels: 1_000_000).decode(PageSource(path: path))
        #expect(decoded.image.width == 64 && decoded.image.height == 48)
        #expect(try decoded.image.meanAbsoluteDifference(to: image) < 4)
    }

    @Test func gifGivesItsFirstFrame() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let frames = try [20, 230].map { level in
            try TestSupport.image(width: 32, height: 24, bands: 3) { _, _, _ in UInt8(level) }
        }
        let gif = "\(out)/anim.gif"
        try VIPSImage.joiningPages(frames).save(to: gif, options: .init(format: .gif))
        let info = try SourceProbe.probe(gif)
        #expect(info.format == .gif && info.pageCount == 1)
        let decoded = try PageDecoder(maxPixels: 1_000_000).decode(PageSource(path: gif))
        #expect(decoded.image.height == 24)
        #expect(abs(try decoded.image.average() - 20) < 6)
    }

    @Test func probeGivesTheFirstPagesPixelsFromTheHeader() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        try TestSupport.image(width: 50, height: 40, bands: 3) { _, _, _ in 90 }.save(to: "\(out)/one.jpg")
        let pages = try [(30, 20), (60, 50)].map { w, h in
            try TestSupport.image(width: w, height: h, bands: 1) { _, _, _ in 9 }
        }
        try VIPSImage.joiningPages([pages[0], pages[0]]).save(to: "\(out)/two.tif", options: .init(format: .tiff))
        #expect(try SourceProbe.probe("\(out)/one.jpg").pixelCount == 50 * 40)
        let tiff = try SourceProbe.probe("\(out)/two.tif")
        #expect(tiff.pageCount == 2 && tiff.pixelCount == 30 * 20)
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

    /// A MediaBox of 10,000,000 pt is 27,777,778 px a side at 200 dpi, over libvips's limit:
    /// it used to come back as a 1 x 1 page.
    @Test func aPDFPageTooLargeToRenderIsRefusedBeforeLoading() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let path = "\(out)/huge.pdf"
        try TestSupport.pdf(pages: [(width: 10_000_000, height: 10_000_000, square: (x: 0, y: 0, side: 10))])
            .write(to: URL(fileURLWithPath: path))
        do {
            let page = try PageDecoder(maxPixels: .max).decode(PageSource(path: path, page: 0, dpi: 200))
            Issue.record("decoded as \(page.image.width)x\(page.image.height)")
        } catch let error as ImagingError {
            #expect(error.kind.code == "bad-page-size")
            #expect(error.reason.contains("page 1 is too large to render"), "\(error.reason)")
        }
        // At 0.2 dpi the same page is 27,778 px a side: in range, so only --max-pixels decides.
        let small = try PageDecoder(maxPixels: .max).decode(PageSource(path: path, page: 0, dpi: 0.2))
        #expect(abs(small.image.width - 27_778) <= 1)
        // A normal page passes untouched.
        try TestSupport.pdf(pages: [(width: 612, height: 792, square: (x: 0, y: 0, side: 10))])
            .write(to: URL(fileURLWithPath: "\(out)/letter.pdf"))
        let letter = try PageDecoder(maxPixels: .max).decode(PageSource(path: "\(out)/letter.pdf", page: 0, dpi: 100))
        #expect(letter.image.width == 850 && letter.image.height == 1100)
    }

    /// A JPEG's header rewritten to claim 15000 x 15000 over the data of a 64 x 64 picture
    /// (which ends at its end marker, so libjpeg only warns): refused as truncated from its
    /// size, not decoded into a 675 MB grey page.
    @Test func aJPEGFarSmallerThanItsDeclaredSizeIsTruncated() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let image = try TestSupport.image(width: 64, height: 64, bands: 3) { x, y, b in
            UInt8((x * 7 + y * 3 + b * 50) % 256)
        }
        try image.save(to: "\(out)/small.jpg", options: .init(format: .jpeg, quality: 80))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(out)/small.jpg")))
        let header = try #require(JPEGFrameHeader.parse(bytes))
        #expect(header.width == 64)
        // Patch the frame header (SOF0/SOF2): height then width, big-endian, after precision.
        let sof = try #require(
            (0..<bytes.count - 1).first { bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2) })
        for (offset, value) in [(5, 15_000), (7, 15_000)] {
            bytes[sof + offset] = UInt8(value >> 8)
            bytes[sof + offset + 1] = UInt8(value & 0xFF)
        }
        let liar = "\(out)/liar.jpg"
        try Data(bytes).write(to: URL(fileURLWithPath: liar))
        #expect(JPEGFrameHeader.parse(bytes)?.width == 15_000)
        do {
            let page = try PageDecoder(maxPixels: .max).decodeFrame(PageSource(path: liar))
            Issue.record("decoded as \(page.displayWidth)x\(page.displayHeight)")
        } catch let error as ImagingError {
            #expect(error.kind == .truncated)
            #expect(error.reason.contains("15000x15000"), "\(error.reason)")
        }
        // The untouched file is far above the floor and decodes as before.
        #expect(try PageDecoder(maxPixels: .max).decodeFrame(PageSource(path: "\(out)/small.jpg")).displayWidth == 64)
        #expect(JPEGDataFloor.minimumBytes(width: 4000, height: 3000) == 23_437)
    }

    /// A PNG whose image data chunk claims 1 GB (libpng's `huge_IDAT.png` crasher): its header
    /// reads, no pixel does. Every decode refuses it as truncated; none is a page made from no
    /// pixel data (libvips can lose the read's failure on its worker thread: the loader's
    /// mark, `VIPSLoaderFailureTests`, decides instead).
    @Test func aPNGWhosePixelsCannotBeReadIsNeverAFrame() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let path = "\(out)/huge-idat.png"
        try TestSupport.writePNGWithHugeIDAT(to: path)
        for _ in 0..<20 {
            do {
                let page = try PageDecoder(maxPixels: .max).decodeFrame(PageSource(path: path))
                Issue.record("decoded as \(page.displayWidth)x\(page.displayHeight)")
            } catch let error as ImagingError {
                #expect(error.kind == .truncated, "\(error.reason)")
            }
        }
    }
}
