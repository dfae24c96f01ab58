import Testing
@testable import QuireImaging

/// A page photographed straight down is as exact a rectangle as a scan; what lies around it
/// tells them apart: a scanner lid is flat (even with the page crossing it), a desk is textured.
@Suite struct PageAnalyzerFrameTests {
    /// RGB copy: `background(x, y)` everywhere, and a white page rectangle with text lines.
    static func copy(
        width: Int, height: Int, page: (Int, Int, Int, Int),
        background: (Int, Int) -> (UInt8, UInt8, UInt8)
    ) -> DetectionCopy {
        var px = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let inPage = x >= page.0 && x < page.2 && y >= page.1 && y < page.3
                var rgb = inPage ? (236, 236, 232) as (UInt8, UInt8, UInt8) : background(x, y)
                if inPage, (y - page.1) % 24 < 4, x > page.0 + 40, x < page.2 - 40, y > page.1 + 40, y < page.3 - 40 {
                    rgb = (50, 50, 60)
                }
                let o = (y * width + x) * 3
                px[o] = rgb.0; px[o + 1] = rgb.1; px[o + 2] = rgb.2
            }
        }
        return DetectionCopy(pixels: px, width: width, height: height, bands: 3, scaleX: 1, scaleY: 1)
    }

    /// Wood grain: stripes of a few pixels whose brightness varies along both axes.
    static func wood(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let grain = ((x * 7 + y * 3) % 11) * 4 + ((x / 3 + y) % 5) * 3
        return (UInt8(150 + grain), UInt8(100 + grain / 2), UInt8(60 + grain / 3))
    }

    @Test func aDeskIsTexturedAndALidIsNot() {
        let onWood = Self.copy(width: 600, height: 800, page: (40, 40, 560, 760), background: Self.wood)
        let onLid = Self.copy(width: 600, height: 800, page: (40, 40, 560, 760)) { _, _ in (90, 90, 90) }
        // A page crossing the lid: each strip is two flat runs, not a texture.
        let crossing = Self.copy(width: 600, height: 800, page: (-20, 200, 640, 600)) { _, _ in (90, 90, 90) }
        #expect(PageAnalyzer.hasTexturedFrame(onWood))
        #expect(!PageAnalyzer.hasTexturedFrame(onLid))
        #expect(!PageAnalyzer.hasTexturedFrame(crossing))
    }

    @Test func aPageOnADeskPhotographedStraightDownIsAPhoto() {
        let onWood = Self.copy(width: 600, height: 800, page: (40, 40, 560, 760), background: Self.wood)
        let analysis = PageAnalyzer.analyze(onWood)
        #expect(analysis.kind == .photo)
        #expect(analysis.detection.quad != nil)
    }
}
