import Testing
@testable import QuirePageAnalysis

/// A frame printed on a sheet (a bank note's border) is not the page: the quad grows out to the
/// sheet's edge. A page without such a band keeps its quad.
@Suite struct PageDetectorPaperMarginTests {
    /// RGB pixels: a light wooden desk (tan, saturated), a white sheet, and on it a dark printed
    /// frame `margin` pixels inside the sheet's edge, with grey print inside the frame.
    static func note(width: Int, height: Int, sheet: (Int, Int, Int, Int), margin: Int) -> [UInt8] {
        var px = [UInt8](repeating: 0, count: width * height * 3)
        func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ rgb: (UInt8, UInt8, UInt8)) {
            for y in max(0, y0)..<min(height, y1) {
                for x in max(0, x0)..<min(width, x1) {
                    let o = (y * width + x) * 3; px[o] = rgb.0; px[o + 1] = rgb.1; px[o + 2] = rgb.2
                }
            }
        }
        fill(0, 0, width, height, (236, 214, 186))
        let (x0, y0, x1, y1) = sheet
        fill(x0, y0, x1, y1, (238, 240, 236))
        let (f0, g0, f1, g1) = (x0 + margin, y0 + margin, x1 - margin, y1 - margin)
        fill(f0, g0, f1, g1, (150, 160, 150))
        for t in [g0, g1 - 6] { fill(f0, t, f1, t + 6, (30, 40, 30)) }
        for t in [f0, f1 - 6] { fill(t, g0, t + 6, g1, (30, 40, 30)) }
        var y = g0 + 30
        while y < g1 - 30 { fill(f0 + 30, y, f1 - 30, y + 5, (60, 70, 60)); y += 17 }
        return px
    }

    @Test func aPrintedNoteIsFoundByItsSheet() throws {
        let (w, h) = (900, 640)
        let sheet = (140, 170, 760, 450)
        let px = Self.note(width: w, height: h, sheet: sheet, margin: 14)
        let found = try #require(PageDetector().detect(pixels: px, width: w, height: h, bands: 3).quad)
        let truth = Quad(rect: Rect(x: 140, y: 170, width: 620, height: 280))
        #expect(found.intersectionOverUnion(with: truth) >= 0.97, "found \(found)")
    }

    /// The step itself, from the frame's quad (what the line search found on the real note,
    /// whose sheet edge against light wood was too faint to be a candidate).
    @Test func theFrameQuadIsMovedOutToThePaperEdge() {
        let (w, h) = (900, 640)
        let px = Self.note(width: w, height: h, sheet: (140, 170, 760, 450), margin: 14)
        let frame = Quad(rect: Rect(x: 154, y: 184, width: 592, height: 252))
        let grown = px.withUnsafeBufferPointer {
            PageDetector.grownToPaper(frame, pixels: $0, width: w, height: h, bands: 3)
        }
        let truth = Quad(rect: Rect(x: 140, y: 170, width: 620, height: 280))
        #expect(grown.intersectionOverUnion(with: truth) >= 0.98, "grown to \(grown)")
        // A page whose outside is the desk, not a paper band, is not moved.
        let page = Quad(rect: Rect(x: 140, y: 170, width: 620, height: 280))
        let same = px.withUnsafeBufferPointer {
            PageDetector.grownToPaper(page, pixels: $0, width: w, height: h, bands: 3)
        }
        #expect(same == page)
    }

    @Test func aSheetWithoutAPrintedFrameKeepsItsEdges() throws {
        let (w, h) = (900, 640)
        let px = Self.note(width: w, height: h, sheet: (140, 170, 760, 450), margin: 0)
        let found = try #require(PageDetector().detect(pixels: px, width: w, height: h, bands: 3).quad)
        let truth = Quad(rect: Rect(x: 140, y: 170, width: 620, height: 280))
        #expect(found.intersectionOverUnion(with: truth) >= 0.97, "found \(found)")
    }
}
