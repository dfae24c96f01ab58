import Testing
@testable import QuireImaging

/// A line across a page (a fold, a shadow's edge on a ruled line) is not the page's edge: the
/// page's sides run on past it.
@Suite struct PageDetectorContinuationTests {
    /// RGB pixels: a dark desk; a page from (`left`, `top`) to (`right`, the frame's bottom) with
    /// rows of text; below `fold` the paper is in shadow (tan) and a ruled line marks the fold.
    static func foldedPage(width: Int, height: Int, left: Int, top: Int, right: Int, fold: Int?) -> [UInt8] {
        var px = [UInt8](repeating: 0, count: width * height * 3)
        func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ rgb: (UInt8, UInt8, UInt8)) {
            for y in max(0, y0)..<min(height, y1) { for x in max(0, x0)..<min(width, x1) {
                let o = (y * width + x) * 3; px[o] = rgb.0; px[o + 1] = rgb.1; px[o + 2] = rgb.2 } }
        }
        fill(0, 0, width, height, (70, 50, 40))
        fill(left, top, right, height, (232, 232, 235))
        if let fold {
            fill(left, fold, right, height, (190, 165, 130))
            fill(left, fold - 2, right, fold + 1, (90, 90, 120))
        }
        var y = top + 40
        while y < height - 10 { fill(left + 40, y, right - 40, y + 5, (40, 40, 120)); y += 26 }
        return px
    }

    @Test func pageRunningOffTheFrameIsNotCutAtAFold() {
        let (w, h) = (600, 800)
        let px = Self.foldedPage(width: w, height: h, left: 70, top: 60, right: 540, fold: 620)
        let found = PageDetector().detect(pixels: px, width: w, height: h, bands: 3)
        // Either the page down to the frame, or no quad (the frame kept): never cut at the fold.
        if let quad = found.quad {
            #expect(min(quad.bottomLeft.y, quad.bottomRight.y) >= 760, "cut at \(quad)")
        } else {
            #expect(found.confidence < PageDetector().minConfidence)
        }
    }

    @Test func aFoldedPageIsFoundBeyondItsFold() throws {
        // The whole page lies in the frame; the fold across it closes a quad over its upper part.
        let (w, h) = (600, 800)
        var px = Self.foldedPage(width: w, height: h, left: 70, top: 60, right: 540, fold: 430)
        for y in 730..<h { for x in 0..<w { let o = (y * w + x) * 3; px[o] = 70; px[o + 1] = 50; px[o + 2] = 40 } }
        let found = PageDetector().detect(pixels: px, width: w, height: h, bands: 3)
        if let quad = found.quad {
            let truth = Quad(rect: Rect(x: 70, y: 60, width: 470, height: 670))
            #expect(quad.intersectionOverUnion(with: truth) >= 0.95, "found \(quad)")
        } else {
            #expect(found.confidence < PageDetector().minConfidence)
        }
    }

    @Test func aWholePageIsNotMarkedDown() throws {
        let (w, h) = (600, 800)
        let px = PageDetectorPaperCheckTests.image(width: w, height: h, background: 50, page: (80, 90, 520, 710), box: nil)
        let found = PageDetector().detect(pixels: px, width: w, height: h, bands: 3)
        _ = try #require(found.quad)
        #expect(found.confidence >= 0.95)
    }
}
