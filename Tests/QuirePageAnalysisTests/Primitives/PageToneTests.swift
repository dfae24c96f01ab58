import Testing
@testable import QuirePageAnalysis

/// The paper becomes white under uneven light, pictures keep their tones, and black and white
/// keeps the ink of every part of the page.
@Suite struct PageToneTests {
    static let (width, height) = (600, 400)

    /// Paper lit from the right (level 120 on the left to 235 on the right), text strokes that
    /// reflect 45 % of the light there, and a dark picture (level 70) in the middle.
    static func unevenPage() -> [UInt8] {
        var g = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let paper = 120 + 115 * x / (width - 1)
                var v = paper
                if (y % 24) < 4 && (x / 9) % 5 != 4 && y > 20 { v = paper * 45 / 100 }
                if x >= 250 && x < 350 && y >= 150 && y < 250 { v = 70 }
                g[y * width + x] = UInt8(v)
            }
        }
        return g
    }

    @Test func thePaperBecomesWhiteAndThePictureKeepsItsTone() {
        var g = Self.unevenPage()
        let level = PageTone.paperLevel(g, width: Self.width, height: Self.height, block: 15)
        PageTone.whitened(&g, bands: 1, paper: level)
        // Paper pixels (row 10, no text) across the whole width.
        let paperRow = (0..<Self.width).map { Int(g[10 * Self.width + $0]) }
        #expect(paperRow.min()! >= 235, "darkest paper \(paperRow.min()!)")
        // The picture is not washed out: still dark (it was 70 under paper of about 180).
        let picture = Int(g[200 * Self.width + 300])
        #expect(picture < 120, "picture \(picture)")
        // The text keeps its contrast on the dark side too.
        #expect(Int(g[25 * Self.width + 20]) < 180)
    }

    @Test func blackAndWhiteKeepsTheInkOnBothSides() {
        var g = Self.unevenPage()
        let level = PageTone.paperLevel(g, width: Self.width, height: Self.height, block: 15)
        PageTone.whitened(&g, bands: 1, paper: level)
        let bw = PageTone.blackAndWhite(g, width: Self.width, height: Self.height, block: 20)
        #expect(Set(bw) == [0, 255])
        for x in [20, 560] {
            #expect(bw[25 * Self.width + x] == 0, "ink at x \(x)")  // a text stroke
            #expect(bw[10 * Self.width + x] == 255, "paper at x \(x)")  // paper above it
        }
        // (A large flat picture comes out as its outline: black and white is for text.)
    }

    @Test func greyAndOtsu() {
        #expect(PageTone.grey([255, 0, 0, 0, 255, 0, 0, 0, 255], bands: 3) == [76, 150, 29])
        let two = [UInt8](repeating: 40, count: 100) + [UInt8](repeating: 200, count: 300)
        let t = PageTone.otsu(two)
        #expect(t >= 40 && t < 200)
        #expect(PageTone.percentile(two, 0.5) == 200)
    }
}
