import QuireTestSupport
import Testing
@testable import QuirePageAnalysis

/// Open books are told from single pages: a spread has an ink-free gutter or a fold in the
/// middle and ink on both halves; a single page (two columns, a rule down the middle, lines
/// across, a portrait page, a blank facing page) is never taken for one.
@Suite struct SpreadFinderTests {
    /// A grey page of text columns (`TextColumns.page`, shared with the splitter's tests).
    static func page(
        width: Int = 1000, height: Int = 700, paper: UInt8 = 235, columns: [ClosedRange<Double>],
        shade: (Double) -> Double = { _ in 0 }
    ) -> [UInt8] {
        TextColumns.page(width: width, height: height, paper: paper, columns: columns, shade: shade)
    }

    @Test func aScannedSpreadSplitsInItsInkFreeGutter() throws {
        let gray = Self.page(columns: [0.06...0.44, 0.56...0.94])
        let gutter = try #require(SpreadFinder.gutter(gray: gray, width: 1000, height: 700))
        #expect(gutter.kind == .margins)
        #expect(abs(gutter.position - 0.5) < 0.01, "\(gutter.position)")
    }

    @Test func twoColumnPagesOfASpreadStillSplit() throws {
        // Each page has two columns (gaps 2 %); the inner margins make an 8 % gutter.
        let gray = Self.page(columns: [0.05...0.22, 0.24...0.46, 0.54...0.76, 0.78...0.95])
        let gutter = try #require(SpreadFinder.gutter(gray: gray, width: 1000, height: 700))
        #expect(abs(gutter.position - 0.5) < 0.01, "\(gutter.position)")
    }

    @Test func aPhotographedSpreadSplitsAtItsFold() throws {
        // Text runs close to the middle (gap 2 %); the pages curve into a shadow 2 % wide.
        let gray = Self.page(paper: 200, columns: [0.05...0.49, 0.51...0.95]) { u in
            max(0, 70 * (1 - abs(u - 0.502) / 0.012))
        }
        let gutter = try #require(SpreadFinder.gutter(gray: gray, width: 1000, height: 700))
        #expect(gutter.kind == .fold)
        #expect(abs(gutter.position - 0.502) < 0.006, "\(gutter.position)")
    }

    @Test func singlePagesAreNeverSplit() {
        // Two columns with a 2 % gap.
        #expect(
            SpreadFinder.gutter(gray: Self.page(columns: [0.06...0.49, 0.51...0.94]), width: 1000, height: 700) == nil)
        // Lines running across the whole page.
        #expect(SpreadFinder.gutter(gray: Self.page(columns: [0.06...0.94]), width: 1000, height: 700) == nil)
        // A rule down the middle of two columns (a table): thin, so not a fold.
        let ruled = Self.page(columns: [0.06...0.49, 0.51...0.94]) { u in abs(u - 0.5) < 0.0011 ? 200 : 0 }
        #expect(SpreadFinder.gutter(gray: ruled, width: 1000, height: 700) == nil)
        // Light falling off across the page: a slope, not a valley.
        let lit = Self.page(columns: [0.06...0.49, 0.51...0.94]) { u in 80 * u }
        #expect(SpreadFinder.gutter(gray: lit, width: 1000, height: 700) == nil)
        // A portrait page, even with a gutter.
        #expect(
            SpreadFinder.gutter(
                gray: Self.page(width: 600, height: 800, columns: [0.06...0.44, 0.56...0.94]),
                width: 600, height: 800) == nil)
        // A blank facing page: nothing to split off.
        #expect(SpreadFinder.gutter(gray: Self.page(columns: [0.56...0.94]), width: 1000, height: 700) == nil)
        // A gutter off to one side is a wide margin, not the middle of a book.
        #expect(
            SpreadFinder.gutter(gray: Self.page(columns: [0.06...0.25, 0.32...0.94]), width: 1000, height: 700) == nil)
        // A leaflet of four panels with equal blank bands between them: one lies in the middle.
        let panels = Self.page(columns: [0.04...0.21, 0.27...0.44, 0.50...0.67, 0.73...0.94])
        #expect(SpreadFinder.gutter(gray: panels, width: 1000, height: 700) == nil)
    }

    @Test func aPageLyingAQuarterTurnRoundIsNotSplit() throws {
        // A portrait page whose text stops for a blank band halfway down, turned a quarter:
        // landscape, with an ink-free band down its middle and ink on both sides.
        let (w, h) = (700, 1000)
        // Words of varying length, not lined up from one line to the next.
        var portrait = [UInt8](repeating: 235, count: w * h)
        for y in 40..<(h - 40) where y % 14 < 4 && !(440..<560).contains(y) {
            let line = y / 14
            for x in 56..<(w - 56) where (x + line * 23) % (40 + line % 5 * 7) >= 8 { portrait[y * w + x] = 30 }
        }
        var turned = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { turned[x * h + (h - 1 - y)] = portrait[y * w + x] } }
        #expect(SpreadFinder.gutter(gray: turned, width: h, height: w) == nil)
        // The same gutter with the lines running across is a spread.
        let across = Self.page(width: h, height: w, columns: [0.06...0.44, 0.56...0.94])
        _ = try #require(SpreadFinder.gutter(gray: across, width: h, height: w))
    }
}
