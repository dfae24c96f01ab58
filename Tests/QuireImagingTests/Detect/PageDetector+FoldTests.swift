import Testing
@testable import QuireImaging
@testable import QuirePageAnalysis

/// A sheet folded across is its two panels together, held whole; two pictures side by side on
/// a page, or two sheets with the desk between them, are not.
@Suite struct PageDetectorFoldTests {
    /// RGB pixels of `polygons` (corners in order) filled with `fill` over `ground`, and rows of
    /// print inside each (dark words every 24 px, 30 px in from its bounding box).
    static func picture(
        width w: Int, height h: Int, ground: (Int, Int, Int), polygons: [[Point]],
        fill: (Int, Int, Int), crease: ClosedRange<Int>? = nil
    ) -> [UInt8] {
        var px = [UInt8](repeating: 0, count: w * h * 3)
        var seed: UInt32 = 99
        func inside(_ p: Point, _ polygon: [Point]) -> Bool {
            var odd = false
            for i in polygon.indices {
                let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                if (a.y > p.y) != (b.y > p.y), p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) { odd.toggle() }
            }
            return odd
        }
        for y in 0..<h {
            for x in 0..<w {
                seed = seed &* 1664525 &+ 1013904223
                let grain = Int(seed >> 29)
                let p = Point(x: Double(x), y: Double(y))
                var v = (ground.0 + grain, ground.1 + grain, ground.2 + grain)
                if let polygon = polygons.first(where: { inside(p, $0) }) {
                    let xs = polygon.map(\.x), ys = polygon.map(\.y)
                    let print =
                        Double(x) > xs.min()! + 40 && Double(x) < xs.max()! - 40
                        && Double(y) > ys.min()! + 30 && Double(y) < ys.max()! - 20 && y % 24 < 5 && x % 50 < 36
                    v = print ? (40, 40, 50) : (fill.0 + grain, fill.1 + grain, fill.2 + grain)
                    if let crease, crease.contains(y) { v = (v.0 - 35, v.1 - 35, v.2 - 35) }
                }
                let o = (y * w + x) * 3
                (px[o], px[o + 1], px[o + 2]) = (UInt8(v.0), UInt8(v.1), UInt8(v.2))
            }
        }
        return px
    }

    /// A receipt crumpled at its fold: the upper panel turned some 8 degrees against the lower,
    /// so their right edges kink outward at the fold by 30 px.
    static let upper = [Point(x: 250, y: 45), Point(x: 505, y: 35), Point(x: 575, y: 300), Point(x: 215, y: 300)]
    static let lower = [Point(x: 215, y: 300), Point(x: 575, y: 300), Point(x: 585, y: 575), Point(x: 205, y: 570)]

    @Test func aSheetFoldedAcrossIsBothPanelsHeldWhole() throws {
        let (w, h) = (800, 600)
        let px = Self.picture(
            width: w, height: h, ground: (120, 90, 60), polygons: [Self.upper, Self.lower],
            fill: (232, 232, 228), crease: 296...304)
        let found = PageDetector().detect(pixels: px, width: w, height: h, bands: 3)
        let quad = try #require(found.quad, "confidence \(found.confidence)")
        // Every corner of both panels inside (within 3 px): none of the sheet's print is lost.
        for corner in Self.upper + Self.lower {
            #expect(Self.insideOrNear(corner, quad, tolerance: 3), "\(corner) outside \(quad)")
        }
        let sheet = Polygon(Self.upper).area + Polygon(Self.lower).area
        #expect(quad.area <= 1.1 * sheet, "quad \(quad.area) for a sheet of \(sheet)")
        // The rules' own line score (the reported confidence is the verifier's probability).
        let rules = PageDetector().pageCandidates(pixels: px, width: w, height: h, bands: 3).rules
        #expect(rules.confidence >= PageDetector().minConfidence && rules.confidence <= 0.8)
    }

    @Test func twoPicturesSideBySideOnAScannedPageAreNotOneSheet() throws {
        // sbrunner/deskew's scanned paper: two renderings side by side under its title, each
        // closed by the other's edges running on. They are dark on the page, not two panels of a
        // sheet lighter than its ground; once united at confidence 0.8, the scan is kept whole.
        let path = TestSupport.repoRoot.appendingPathComponent("Tools/accuracy/real-scans/sbrunner-deskew/deskew-6.png")
            .path
        let result = try Detector.detect(file: path)
        #expect(result.quad == nil, "found \(String(describing: result.quad)) at \(result.confidence)")
    }

    @Test func aCreaseIsSheetTheDeskBetweenTwoSheetsIsNot() {
        // Working copies (factor 1) of two panels meeting at y 150 ± 6, across a shadowed crease
        // or across the desk.
        let (w, h) = (400, 300)
        let top = [
            Point(x: 100, y: 20), Point(x: 300, y: 20), Point(x: 300, y: 144), Point(x: 100, y: 144)
        ]
        let bottom = [
            Point(x: 100, y: 156), Point(x: 300, y: 156), Point(x: 300, y: 280), Point(x: 100, y: 280)
        ]
        func work(gap: (Int, Int, Int)) -> WorkImage {
            var px = Self.picture(
                width: w, height: h, ground: (70, 60, 50), polygons: [top, bottom], fill: (232, 232, 228))
            for y in 144..<156 {
                for x in 100..<300 {
                    let o = (y * w + x) * 3; (px[o], px[o + 1], px[o + 2]) = (UInt8(gap.0), UInt8(gap.1), UInt8(gap.2))
                }
            }
            var image = WorkImage(pixels: px, width: w, height: h, bands: 3, factor: 1)
            image.blur()
            return image
        }
        // The crease's ends: halfway between the panels' corners at the fold.
        let (start, end) = (Point(x: 100, y: 150), Point(x: 300, y: 150))
        #expect(work(gap: (190, 190, 186)).creaseIsSheet(from: start, to: end, panels: [top, bottom]))
        #expect(!work(gap: (70, 60, 50)).creaseIsSheet(from: start, to: end, panels: [top, bottom]))
    }

    static func insideOrNear(_ p: Point, _ quad: Quad, tolerance: Double) -> Bool {
        guard let sides = quad.sides else { return false }
        return sides.allSatisfy { side in
            let n = side.outward
            let d = (p.x - side.start.x) * n.x + (p.y - side.start.y) * n.y
            return d <= tolerance
        }
    }
}
