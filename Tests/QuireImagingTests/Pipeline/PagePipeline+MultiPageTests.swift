import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// A multi-page TIFF and a multi-page PDF, made in the test, give one page per page, each with
/// its own content (and, for the PDF, its own size at the requested resolution).
@Suite struct MultiPageTests {
    let pipeline = PagePipeline(
        renditions: RenditionOptions(format: .png, previewSize: 64, thumbnailSize: 32),
        correction: CorrectionOptions(mode: .none))

    func outputs(_ out: String, _ n: Int) -> PageOutputPaths {
        PageOutputPaths(page: "\(out)/p\(n).png", preview: "\(out)/v\(n).png", thumbnail: "\(out)/t\(n).png")
    }

    @Test func multiPageTIFFGivesOnePagePerPage() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let levels: [UInt8] = [30, 120, 220]
        let pages = try levels.map { level in
            try TestSupport.image(width: 120, height: 80, bands: 3) { _, _, _ in level }
        }
        let tiff = "\(out)/three.tif"
        try VIPSImage.joiningPages(pages).save(to: tiff, options: .init(format: .tiff))

        let info = try SourceProbe.probe(tiff)
        #expect(info.format == .tiff)
        #expect(info.pageCount == 3)
        for (page, level) in levels.enumerated() {
            let result = try pipeline.process(PageSource(path: tiff, page: page), to: outputs(out, page))[0]
            #expect(result.width == 120 && result.height == 80)
            #expect(result.source.page == page)
            #expect(abs(try VIPSImage.load(file: outputs(out, page).page).average() - Double(level)) < 2)
            // The thumbnail is shrunk on load from the same page.
            #expect(abs(try VIPSImage.load(file: outputs(out, page).thumbnail).average() - Double(level)) < 2)
        }
        #expect(throws: ImagingError.self) {
            try pipeline.process(PageSource(path: tiff, page: 3), to: outputs(out, 9))[0]
        }
    }

    @Test func multiPagePDFGivesOnePagePerPageAtTheRequestedDPI() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let pdf = "\(out)/two.pdf"
        // Page 1: 200x100 pt, black square bottom-left; page 2: 100x300 pt, square top-right.
        try TestSupport.pdf(pages: [(200, 100, (0, 0, 50)), (100, 300, (50, 250, 50))]).write(
            to: URL(fileURLWithPath: pdf))

        let info = try SourceProbe.probe(pdf, dpi: 144)
        #expect(info.format == .pdf)
        #expect(info.pageCount == 2)

        let first = try pipeline.process(PageSource(path: pdf, page: 0, dpi: 144), to: outputs(out, 0))[0]
        #expect(first.width == 400 && first.height == 200)
        let second = try pipeline.process(PageSource(path: pdf, page: 1, dpi: 144), to: outputs(out, 1))[0]
        #expect(second.width == 200 && second.height == 600)

        // At 144 dpi a point is 2 px; images are y-down.
        let p1 = outputs(out, 0).page, p2 = outputs(out, 1).page
        #expect(try TestSupport.mean(ofFile: p1, x: 5, y: 105, width: 90, height: 90) < 40)
        #expect(try TestSupport.mean(ofFile: p1, x: 305, y: 5, width: 90, height: 90) > 215)
        #expect(try TestSupport.mean(ofFile: p2, x: 105, y: 5, width: 90, height: 90) < 40)
        #expect(try TestSupport.mean(ofFile: p2, x: 5, y: 505, width: 90, height: 90) > 215)

        // Thumbnails are rendered from the same page (shrink-on-load renders the PDF small).
        let thumb = try VIPSImage.load(file: outputs(out, 1).thumbnail)
        #expect(thumb.height == 32 && (thumb.width == 10 || thumb.width == 11))
    }
}
