import Testing
@testable import QuireKit

/// The page-size rules of `quire pdf`: --dpi, the page's own resolution, a paper width.
@Suite struct PDFPageSizeTests {
    private func close(_ a: Double, _ b: Double, _ tolerance: Double = 0.01) -> Bool { abs(a - b) <= tolerance }

    @Test func givenDPIWinsOverEverything() throws {
        let size = try #require(
            PDFPageSize.make(
                pixelWidth: 2480, pixelHeight: 3508, givenDPI: 300,
                pageDPI: (150, 150), paper: .letter))
        #expect(size.rule == .givenDPI)
        // 2480 px at 300 dpi = 8.2667 in = 595.2 pt (A4 at 300 dpi).
        #expect(close(size.width, 2480.0 / 300 * 72) && close(size.height, 3508.0 / 300 * 72))
        #expect(
            size.imageWidth == size.width && size.imageHeight == size.height && size.imageX == 0 && size.imageY == 0)
    }

    @Test func aScanKeepsItsResolution() throws {
        // The 150 dpi sample scan: 1239 x 1753 px = 8.26 x 11.69 in.
        let size = try #require(PDFPageSize.make(pixelWidth: 1239, pixelHeight: 1753, pageDPI: (150, 150)))
        #expect(size.rule == .pageDPI)
        #expect(close(size.width, 594.72) && close(size.height, 841.44))
        // Non-square pixels: each side by its own resolution.
        let fax = try #require(PDFPageSize.make(pixelWidth: 1728, pixelHeight: 1143, pageDPI: (204, 98)))
        #expect(close(fax.width, 1728.0 / 204 * 72) && close(fax.height, 1143.0 / 98 * 72))
    }

    @Test func placeholderAndImplausibleResolutionsAreUnknown() throws {
        for dpi in [72.0, 96, 25.4, 1, 20_000] {
            let size = try #require(PDFPageSize.make(pixelWidth: 4000, pixelHeight: 3000, pageDPI: (dpi, dpi)))
            #expect(size.rule == .paperWidth, "dpi \(dpi)")
        }
        #expect(PDFPageSize.isMeaningful((300, 300)))
        #expect(!PDFPageSize.isMeaningful((72, 300)))
    }

    @Test func aPhotoTakesA4WidthAtItsAspect() throws {
        // Portrait: short side 210 mm = 595.28 pt, long side by the aspect 1.5.
        let portrait = try #require(PDFPageSize.make(pixelWidth: 1000, pixelHeight: 1500))
        #expect(portrait.rule == .paperWidth)
        #expect(close(portrait.width, 595.28) && close(portrait.height, 892.91))
        // Landscape: the short side is the height.
        let landscape = try #require(PDFPageSize.make(pixelWidth: 1800, pixelHeight: 1200))
        #expect(close(landscape.height, 595.28) && close(landscape.width, 892.91))
        // Default A4 width never snaps, even at A4's own aspect.
        let a4ish = try #require(PDFPageSize.make(pixelWidth: 1000, pixelHeight: 1400))
        #expect(a4ish.rule == .paperWidth && close(a4ish.height, 833.39))
    }

    @Test func aGivenPaperSnapsWithinThreePercent() throws {
        // A photographed A4 sheet measures 1.40 instead of 1.414: exactly A4 with --paper a4.
        let snapped = try #require(PDFPageSize.make(pixelWidth: 1000, pixelHeight: 1400, paper: .a4))
        #expect(snapped.rule == .paper)
        #expect(close(snapped.width, 595.28) && close(snapped.height, 841.89))
        #expect(snapped.imageWidth == snapped.width && snapped.imageHeight == snapped.height)
        let landscape = try #require(PDFPageSize.make(pixelWidth: 1400, pixelHeight: 1000, paper: .a4))
        #expect(close(landscape.width, 841.89) && close(landscape.height, 595.28))
        // A receipt (aspect 3) is no letter page: letter width, its own length.
        let receipt = try #require(PDFPageSize.make(pixelWidth: 500, pixelHeight: 1500, paper: .letter))
        #expect(receipt.rule == .paperWidth)
        #expect(close(receipt.width, 612) && close(receipt.height, 1836))
        // Letter's aspect (1.294) is 8.5% from A4's: no snap between them.
        let letterShaped = try #require(PDFPageSize.make(pixelWidth: 850, pixelHeight: 1100, paper: .a4))
        #expect(letterShaped.rule == .paperWidth)
    }

    @Test func hugePagesAreScaledIntoThePDFLimit() throws {
        // 40000 px at 72... at --dpi 100 is 400 in: over PDF's 200 in, scaled to fit, aspect kept.
        let size = try #require(PDFPageSize.make(pixelWidth: 40_000, pixelHeight: 10_000, givenDPI: 100))
        #expect(close(size.width, PDFPageSize.maximumSide))
        #expect(close(size.width / size.height, 4))
        #expect(PDFPageSize.make(pixelWidth: 0, pixelHeight: 10) == nil)
    }

    @Test func paperSizesInPoints() {
        #expect(close(PaperSize.a4.points.short, 595.28) && close(PaperSize.a4.points.long, 841.89))
        #expect(close(PaperSize.letter.points.short, 612) && close(PaperSize.letter.points.long, 792))
        #expect(close(PaperSize.legal.points.long, 1008))
    }
}
