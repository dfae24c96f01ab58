import Testing
@testable import QuirePageAnalysis

/// A line across a page (a fold, a shadow's edge on a ruled line) is not the page's edge: the
/// page's sides run on past it.
@Suite struct PageDetectorContinuationTests {
    /// RGB pixels: a dark desk; a page from (`left`, `top`) to (`right`, the frame's bottom) with
    /// rows of text; below `fold` the paper is in shadow (tan) and a ruled line marks the fold.
    static func foldedPage(width: Int, height: Int, left: Int, top: Int, right: Int, fold: Int?) -> [UInt8] {
        var px = [UInt8](repeating: 0, count: width * height * 3)
        func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ rgb: (UInt8, UInt8, UInt8)) {
            for y in max(0, y0)..<min(height, y1) {
                for x in max(0, x0)..<min(width, x1) {
                    let o = (y * width + x) * 3; px[o] = rgb.0; px[o + 1] = rgb.1; px[o + 2] = rgb.2
                }
            }
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

    /// The quad x 150...540, y 60...740 of a 600 x 800 image, as detector lines (left, top,
    /// right, bottom: corner k joins sides k and k+1).
    static let bandQuad = QuadCandidate(
        lines: [
            PageDetector.Line(nx: 1, ny: 0, c: 150), PageDetector.Line(nx: 0, ny: 1, c: 60),
            PageDetector.Line(nx: 1, ny: 0, c: 540), PageDetector.Line(nx: 0, ny: 1, c: 740)
        ],
        confidence: 1, insideBrighter: true, score: 1)

    @Test func aGreyBandPrintedDownAPageIsTheSheetGoingOn() {
        // A booklet page running off the left of the frame, a grey band printed down its left
        // margin; its bottom edge runs on past the band's edge to the frame, its curled top
        // does not (DewarpNet's manual: cut at the band, IoU 0.69 at confidence 1).
        let (w, h) = (600, 800)
        var px = PageDetectorPaperCheckTests.image(
            width: w, height: h, background: 50, page: (0, 60, 540, 740), box: nil)
        for y in 60..<740 {
            for x in 0..<150 { let o = (y * w + x) * 3; (px[o], px[o + 1], px[o + 2]) = (175, 175, 177) }
        }
        let work = WorkImage(pixels: px, width: w, height: h, bands: 3, factor: 1)
        let bottomRunsOn = WorkImage.WaysPast(
            before: .init(runsOn: true, toFrame: true, border: 0),
            after: .init(runsOn: false, toFrame: false, border: 0))
        let band = work.sheetGoesOnPast(Self.bandQuad, side: 0, ways: bottomRunsOn)
        #expect(band)
        // The same page on a grey desk as light as the band: the desk is beyond the bottom too.
        var deskPixels = px
        for y in 0..<h {
            for x in 0..<w where !(150..<540).contains(x) || !(60..<740).contains(y) {
                let o = (y * w + x) * 3; (deskPixels[o], deskPixels[o + 1], deskPixels[o + 2]) = (175, 175, 177)
            }
        }
        let onDesk = WorkImage(pixels: deskPixels, width: w, height: h, bands: 3, factor: 1)
        let desk = onDesk.sheetGoesOnPast(Self.bandQuad, side: 0, ways: bottomRunsOn)
        #expect(!desk)
        // Neither side running on to the frame: a corner like any other.
        let stops = WorkImage.WaysPast(
            before: .init(runsOn: false, toFrame: false, border: 0),
            after: .init(runsOn: false, toFrame: false, border: 0))
        let corner = work.sheetGoesOnPast(Self.bandQuad, side: 0, ways: stops)
        #expect(!corner)
    }

    @Test func aWholePageIsNotMarkedDown() throws {
        let (w, h) = (600, 800)
        let px = PageDetectorPaperCheckTests.image(
            width: w, height: h, background: 50, page: (80, 90, 520, 710), box: nil)
        let found = PageDetector().detect(pixels: px, width: w, height: h, bands: 3)
        _ = try #require(found.quad)
        // The rules' own confidence is what a line across the page marks down; the reported one
        // is the fitted verifier's probability (0.94 since the refit with frame-side candidates).
        let rules = PageDetector().pageCandidates(pixels: px, width: w, height: h, bands: 3).rules
        #expect(rules.confidence >= 0.95)
        #expect(found.confidence >= PageVerifier.minimumProbability)
    }
}

/// The page's edge beyond a line across the page stops at both of its ends.
@Suite struct PageDetectorOutwardAlternativeTests {
    /// RGB pixels: a dark desk, a page `page` (x0, y0, x1, y1), and dark rules on it (x0, y0, x1, y1).
    static func page(_ page: (Int, Int, Int, Int), rules: [(Int, Int, Int, Int)], width: Int = 600, height: Int = 800)
        -> [UInt8]
    {
        var px = [UInt8](repeating: 50, count: width * height * 3)
        func fill(_ r: (Int, Int, Int, Int), _ v: UInt8) {
            for y in r.1..<r.3 {
                for x in r.0..<r.2 { let o = (y * width + x) * 3; (px[o], px[o + 1], px[o + 2]) = (v, v, v) }
            }
        }
        fill(page, 228)
        for rule in rules { fill(rule, 40) }
        return px
    }

    static func candidate(left: Double, top: Double, right: Double, bottom: Double) -> QuadCandidate {
        QuadCandidate(
            lines: [
                PageDetector.Line(nx: 1, ny: 0, c: left), PageDetector.Line(nx: 0, ny: 1, c: top),
                PageDetector.Line(nx: 1, ny: 0, c: right), PageDetector.Line(nx: 0, ny: 1, c: bottom)
            ],
            confidence: 1, insideBrighter: true, score: 1)
    }

    static func checked(_ px: [UInt8], inner: QuadCandidate, outer: QuadCandidate) -> QuadCandidate {
        var work = WorkImage(pixels: px, width: 600, height: 800, bands: 3, factor: 1)
        work.blur()
        work.computeGradient()
        return PageDetector.checkedForLinesAcross(
            inner, on: work, candidates: [inner, outer], fullWidth: 600,
            fullHeight: 800, scale: 1)
    }

    @Test func aRowOfBoxesWidenedByOneBoxIsNotThePage() {
        // A leaflet's bottom row of boxes (y 500...740): the first box's right side is a line
        // across the row (the row's top rule and the page's bottom run on past it), and the next
        // box's right side is no better: the page's bottom still runs on past it to x = 540.
        let px = Self.page((60, 60, 540, 740), rules: [(60, 498, 380, 503), (198, 500, 203, 740), (358, 500, 363, 740)])
        let inner = Self.candidate(left: 60, top: 500, right: 200, bottom: 740)
        let outer = Self.candidate(left: 60, top: 500, right: 360, bottom: 740)
        let found = Self.checked(px, inner: inner, outer: outer)
        #expect(found.lines == outer.lines)
        #expect(found.confidence < PageDetector().minConfidence)
    }

    @Test func aPageBeyondAColumnRuleKeepsItsConfidence() {
        // A page (x 60...360) with a rule down it: the left column's right side is a line across
        // the page, the page's own right edge beyond it stops at both ends.
        let px = Self.page((60, 500, 360, 740), rules: [(198, 500, 203, 740)])
        let inner = Self.candidate(left: 60, top: 500, right: 200, bottom: 740)
        let outer = Self.candidate(left: 60, top: 500, right: 360, bottom: 740)
        let found = Self.checked(px, inner: inner, outer: outer)
        #expect(found.lines == outer.lines)
        #expect(found.confidence == 1)
    }
}
