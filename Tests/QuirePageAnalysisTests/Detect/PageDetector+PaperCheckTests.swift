import Testing
@testable import QuirePageAnalysis

/// A box drawn on the paper (a table, a picture frame) is not the page; a white page on a dark
/// desk is.
@Suite struct PageDetectorPaperCheckTests {
    /// RGB pixels: `background` everywhere, a `page` rectangle, and a 3-pixel dark box outline.
    static func image(
        width: Int, height: Int, background: UInt8, page: (Int, Int, Int, Int)?,
        box: (Int, Int, Int, Int)?
    ) -> [UInt8] {
        var px = [UInt8](repeating: background, count: width * height * 3)
        func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ v: UInt8) {
            for y in max(0, y0)..<min(height, y1) {
                for x in max(0, x0)..<min(width, x1) {
                    let o = (y * width + x) * 3; px[o] = v; px[o + 1] = v; px[o + 2] = v
                }
            }
        }
        if let p = page { fill(p.0, p.1, p.2, p.3, 228) }
        // Lines of "text" over the paper (the page, or the whole frame when it is paper).
        let (tx0, ty0, tx1, ty1) = page ?? (0, 0, width, height)
        if background > 200 || page != nil {
            var y = ty0 + 30
            while y < ty1 - 30 { fill(tx0 + 30, y, tx1 - 30, y + 6, 40); y += 19 }
        }
        if let b = box {
            fill(b.0, b.1, b.2, b.1 + 3, 30); fill(b.0, b.3 - 3, b.2, b.3, 30)
            fill(b.0, b.1, b.0 + 3, b.3, 30); fill(b.2 - 3, b.1, b.2, b.3, 30)
        }
        return px
    }

    @Test func pageOnDarkDeskIsKept() throws {
        let (w, h) = (600, 800)
        let px = Self.image(width: w, height: h, background: 50, page: (80, 90, 520, 710), box: (150, 220, 450, 580))
        let found = PageDetector().detect(pixels: px, width: w, height: h, bands: 3)
        let quad = try #require(found.quad)
        let truth = Quad(rect: Rect(x: 80, y: 90, width: 440, height: 620))
        #expect(quad.intersectionOverUnion(with: truth) >= 0.95)
    }

    @Test func checkSeesPaperOutsideABoxButNotOutsideAPage() {
        let (w, h) = (600, 800)
        let onPaper = Self.image(width: w, height: h, background: 228, page: nil, box: nil)
        let onDesk = Self.image(width: w, height: h, background: 50, page: (100, 100, 500, 700), box: nil)
        let quad = Quad(rect: Rect(x: 100, y: 100, width: 400, height: 600))
        onPaper.withUnsafeBufferPointer {
            #expect(PageDetector.liesInsidePaper(quad, pixels: $0, width: w, height: h, bands: 3))
        }
        onDesk.withUnsafeBufferPointer {
            #expect(!PageDetector.liesInsidePaper(quad, pixels: $0, width: w, height: h, bands: 3))
        }
    }

    /// A dark picture printed on a page (a halftone photo in a magazine) is not the page either:
    /// its inside is darker than the paper around it, so the paper is read from outside.
    @Test func darkPictureOnAPrintedPageIsNotThePage() {
        let (w, h) = (600, 800)
        var px = Self.image(width: w, height: h, background: 228, page: nil, box: nil)
        for y in 250..<550 {
            for x in 180..<420 { let o = (y * w + x) * 3; px[o] = 25; px[o + 1] = 25; px[o + 2] = 25 }
        }
        let picture = Quad(rect: Rect(x: 180, y: 250, width: 240, height: 300))
        px.withUnsafeBufferPointer {
            #expect(PageDetector.liesInsidePaper(picture, pixels: $0, width: w, height: h, bands: 3))
        }
        #expect(PageDetector().detect(pixels: px, width: w, height: h, bands: 3).quad == nil)
    }
}
