import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// A page keeps the resolution its source states, through to the files written and the result
/// recorded in layout.json; renditions state theirs in proportion.
@Suite struct PagePipelineResolutionTests {
    func process(
        _ path: String, into out: String, format: OutputFormat = .jpeg,
        correction: CorrectionOptions = CorrectionOptions(mode: .none), dpi: Double = 200
    ) throws -> (PageResult, PageOutputPaths) {
        let ext = format.fileExtension
        let paths = PageOutputPaths(page: "\(out)/p.\(ext)", preview: "\(out)/v.\(ext)", thumbnail: "\(out)/t.\(ext)")
        let pipeline = PagePipeline(
            renditions: RenditionOptions(format: format, previewSize: 100, thumbnailSize: 50),
            correction: correction)
        return (try pipeline.process(PageSource(path: path, dpi: dpi), to: paths)[0], paths)
    }

    @Test(arguments: [VIPSImage.SaveFormat.jpeg, .png, .tiff])
    func aScanKeepsItsDensity(_ source: VIPSImage.SaveFormat) throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let input = "\(out)/scan." + source.fileExtension
        try TestSupport.card(width: 400, height: 300).save(
            to: input, options: .init(format: source, dpi: Resolution(150)))

        for format in OutputFormat.allCases {
            let (result, paths) = try process(input, into: out, format: format)
            let dpi = try #require(result.dpi, "\(source) -> \(format)")
            #expect(abs(dpi.x - 150) < 0.05 && abs(dpi.y - 150) < 0.05)
            #expect(result.previewSize == PixelSize(width: 100, height: 75))
            #expect(result.thumbnailSize == PixelSize(width: 50, height: 38))
            // Read back: the page at 150 dpi, the preview (a quarter of the width) at 37.5, which
            // JFIF, holding whole dots per inch, stores as 38.
            let tolerance = format == .jpeg ? 0.5 : 0.05
            #expect(abs(try Self.readDPI(paths.page) - 150) < 0.05, "\(format)")
            #expect(abs(try Self.readDPI(paths.preview) - 37.5) <= tolerance, "\(format)")
        }
    }

    /// The density across as a reader finds it: libvips's header, or for WebP (whose 8.14 loader
    /// leaves the header at its default) the EXIF tag, a rational such as "75/2".
    static func readDPI(_ path: String) throws -> Double {
        let image = try VIPSImage.load(file: path)
        guard path.hasSuffix(".webp") else { return image.headerResolution.x }
        let text = try #require(image.metadataText("exif-ifd0-XResolution"))
        let parts = try #require(text.split(separator: " ").first).split(separator: "/").compactMap { Double($0) }
        return parts.count == 2 ? parts[0] / parts[1] : parts.first ?? 0
    }

    @Test func placeholderOrMissingDensityIsUnknown() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        for (name, dpi) in [("a.png", Resolution(72)), ("b.tif", Resolution(96)), ("c.jpg", nil)]
            as [(String, Resolution?)]
        {
            let input = "\(out)/\(name)"
            let format: VIPSImage.SaveFormat = name.hasSuffix("png") ? .png : name.hasSuffix("tif") ? .tiff : .jpeg
            try TestSupport.card(width: 200, height: 150).save(to: input, options: .init(format: format, dpi: dpi))
            #expect(try process(input, into: out).0.dpi == nil, "\(name)")
        }
    }

    @Test func aPDFPageHasItsRenderResolution() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let pdf = "\(out)/one.pdf"
        try TestSupport.pdf(pages: [(200, 100, (0, 0, 50))]).write(to: URL(fileURLWithPath: pdf))
        let (result, paths) = try process(pdf, into: out, dpi: 144)
        #expect(result.dpi == Resolution(144))
        #expect(result.width == 400)
        #expect(abs(try VIPSImage.load(file: paths.page).headerResolution.x - 144) < 0.05)
    }

    @Test func aStraightenedPhotoHasAResolutionOnlyWhenThePaperIsKnown() {
        // A4 portrait 1240 px wide is 150 dpi; landscape takes the long side.
        #expect(
            PageDPI.of(
                page: 1240, 1754, correction: .perspective, paper: .a4, sourceDPI: Resolution(72), orientation: 1
            )
            .map { abs($0.x - 149.98) < 0.01 } == true)
        #expect(
            PageDPI.of(page: 1100, 850, correction: .perspective, paper: .letter, sourceDPI: nil, orientation: 1)
                == Resolution(100))
        #expect(
            PageDPI.of(
                page: 1240, 1754, correction: .perspective, paper: .auto, sourceDPI: Resolution(300), orientation: 1)
                == nil)
    }

    @Test func aQuarterTurnSwapsAcrossAndDown() {
        let stored = Resolution(x: 100, y: 200)
        for orientation in 1...8 {
            let dpi = PageDPI.of(
                page: 10, 10, correction: .deskew, paper: .auto, sourceDPI: stored, orientation: orientation)
            #expect(dpi == (orientation >= 5 ? Resolution(x: 200, y: 100) : stored), "orientation \(orientation)")
        }
        #expect(PageDPI.of(page: 10, 10, correction: .none, paper: .a4, sourceDPI: nil, orientation: 1) == nil)
    }
}
