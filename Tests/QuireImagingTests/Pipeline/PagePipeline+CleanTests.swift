import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// The clean-up step in the pipeline: scanner edges filled without touching the text, and the
/// tone options written as asked.
@Suite struct PagePipelineCleanTests {
    /// A 600 x 800 grey scan (paper 235) with text lines and, when `bar`, the black edge of a
    /// scanner lid along the left, 30 px wide and 500 px long.
    static func scan(bar: Bool) throws -> VIPSImage {
        try TestSupport.image(width: 600, height: 800, bands: 1) { x, y, _ in
            if bar && x < 30 && y < 500 { return 15 }
            if x >= 60 && x < 540 && y >= 80 && y < 720 && (y % 24) < 5 && (x / 8) % 5 != 4 { return 30 }
            return 235
        }
    }

    func run(_ image: VIPSImage, clean: CleanOptions, format: OutputFormat = .png, in out: String) throws -> (
        PageResult, VIPSImage
    ) {
        let input = "\(out)/in-\(UUID().uuidString.prefix(6)).png"
        try image.save(to: input, options: .init(format: .png))
        let ext = format.fileExtension
        let paths = PageOutputPaths(page: "\(out)/p.\(ext)", preview: "\(out)/v.\(ext)", thumbnail: "\(out)/t.\(ext)")
        let pipeline = PagePipeline(
            renditions: RenditionOptions(format: format, previewSize: 800, thumbnailSize: 100),
            correction: CorrectionOptions(mode: .none), clean: clean)
        let result = try pipeline.process(PageSource(path: input), to: paths)[0]
        return (result, try VIPSImage.load(data: [UInt8](Data(contentsOf: URL(fileURLWithPath: paths.page)))))
    }

    static func darkCount(_ image: VIPSImage, x: Int, y: Int, width: Int, height: Int) throws -> Int {
        try image.cropped(x: x, y: y, width: width, height: height).extractBands(0).pixelBytes().filter { $0 < 128 }
            .count
    }

    @Test func theLidsEdgeIsFilledAndTheTextKept() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let (cleaned, page) = try run(Self.scan(bar: true), clean: CleanOptions(), in: out)
        #expect(try Self.darkCount(page, x: 0, y: 0, width: 40, height: 500) == 0)
        let edge = try #require(cleaned.correction.edgeFill)
        #expect(edge > 0.02 && edge < 0.06, "filled \(edge)")
        // The text is untouched: the same dark pixels as the page without a bar.
        let (_, plain) = try run(Self.scan(bar: false), clean: CleanOptions(), in: out)
        #expect(
            try Self.darkCount(page, x: 40, y: 0, width: 560, height: 800)
                == Self.darkCount(plain, x: 40, y: 0, width: 560, height: 800))
        // --edges keep leaves the bar.
        let (kept, keptPage) = try run(Self.scan(bar: true), clean: CleanOptions(edges: .keep), in: out)
        #expect(kept.correction.edgeFill == nil)
        #expect(try Self.darkCount(keptPage, x: 0, y: 0, width: 30, height: 500) == 30 * 500)
    }

    @Test func blackAndWhiteIsAOneBitPNGAndGreyOneBand() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let (_, bw) = try run(Self.scan(bar: false), clean: CleanOptions(mode: .bw), in: out)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(out)/p.png")))
        #expect(bytes[24] == 1, "PNG bit depth \(bytes[24])")
        #expect(Set(try bw.pixelBytes()) == [0, 255])
        let (_, grey) = try run(
            try TestSupport.card(width: 300, height: 200), clean: CleanOptions(mode: .grey), format: .jpeg, in: out)
        #expect(grey.bands == 1)
        let (_, white) = try run(Self.scan(bar: false), clean: CleanOptions(background: .white), in: out)
        #expect(try white.cropped(x: 10, y: 740, width: 500, height: 50).average() > 250)
    }

    /// unpaper's test page with the black bar of a scanner edge along its left side.
    @Test func unpapersScannerEdgeIsFilled() throws {
        let path = TestSupport.realData.appendingPathComponent("unpaper-tests/imgsrc001.png").path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let paths = PageOutputPaths(page: "\(out)/p.png", preview: "\(out)/v.png", thumbnail: "\(out)/t.png")
        let result = try PagePipeline(renditions: RenditionOptions(format: .png)).process(
            PageSource(path: path), to: paths)[0]
        #expect(result.correction.kind == .deskew && (result.width, result.height) == (2480, 3507))
        #expect((result.correction.edgeFill ?? 0) > 0.01)
        let page = try VIPSImage.load(file: paths.page)
        // Nothing dark is left in the left 10 % beside the text, which starts further in.
        #expect(try Self.darkCount(page, x: 0, y: 0, width: 230, height: 3507) < 200)
    }
}
