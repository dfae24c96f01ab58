import Testing

@testable import QuireImaging

/// The line look's glyph pieces come from a mask made a row at a time and a scan that skips
/// eight paper pixels at once (`LineOrientation.glyphs`), and its threshold from a histogram
/// counted into four tables (`TextPresence.histogram`), handed on by the text check
/// (`TextPresence.readableTextThreshold`): each must give what the plain loops gave, piece for
/// piece and count for count.
@Suite struct LineOrientationGlyphsTests {
    /// A page of noise-edged marks of every size (specks to blots), some touching the page's
    /// first and last pixels and its right edge, on paper of two levels.
    static func page(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var gray = (0..<(width * height)).map { _ in UInt8(215 + next() % 30) }
        for _ in 0..<(width * height / 150) {
            let (x0, y0) = (next() % width, next() % height)
            let (w, h) = (1 + next() % 24, 1 + next() % 16)
            for y in y0..<min(height, y0 + h) {
                for x in x0..<min(width, x0 + w) where next() % 5 != 0 { gray[y * width + x] = UInt8(next() % 90) }
            }
        }
        gray[0] = 10
        gray[gray.count - 1] = 10
        for y in 0..<height where y % 3 == 0 { gray[y * width + width - 1] = 12 }
        return gray
    }

    @Test(arguments: [(97, 61, 1), (256, 200, 2), (803, 411, 3), (8, 8, 4), (9, 7, 5)])
    func glyphsAreThePlainLoopsPieces(width: Int, height: Int, seed: UInt64) {
        let gray = Self.page(width: width, height: height, seed: seed)
        for threshold: UInt8 in [1, 11, 60, 128, 250] {
            let fast = LineOrientation.glyphs(gray: gray, width: width, height: height, below: threshold)
            let plain = Self.plainGlyphs(gray: gray, width: width, height: height, below: threshold)
            #expect(fast == plain, "\(width)x\(height) below \(threshold): \(fast.count) vs \(plain.count) pieces")
        }
    }

    @Test(arguments: [0, 1, 3, 4, 5, 1000, 4099])
    func histogramCountsEveryPixelOnce(count: Int) {
        let gray = Self.page(width: max(count, 1), height: 1, seed: UInt64(count)).prefix(count)
        var plain = [Int](repeating: 0, count: 256)
        for v in gray { plain[Int(v)] += 1 }
        #expect(TextPresence.histogram(Array(gray)) == plain)
    }

    /// The text check hands the line look the threshold it would have found itself, and the
    /// look is the same from it; a page without readable text hands none.
    @Test func theTextChecksThresholdIsTheLooks() {
        let gray = TextPresenceTests.page { TextPresenceTests.ring($0, $1) }
        let threshold = TextPresence.readableTextThreshold(gray: gray, width: 800, height: 600)
        #expect(threshold != nil && threshold == LineOrientation.inkThreshold(gray: gray))
        let handed = LineOrientation.look(gray: gray, width: 800, height: 600, threshold: threshold)
        let own = LineOrientation.look(gray: gray, width: 800, height: 600)
        #expect(handed.finding == own.finding && handed.boxes == own.boxes && !own.boxes.isEmpty)
        let blank = [UInt8](repeating: 230, count: 800 * 600)
        #expect(TextPresence.readableTextThreshold(gray: blank, width: 800, height: 600) == nil)
    }

    /// The grid keeps its cells' pieces in one array (`LineOrientation.Grid`): `near` must
    /// visit the pieces an array a cell visited, in the same order (the line chaining keeps the
    /// first of equal gaps).
    @Test func gridVisitsThePiecesOfAnArrayACell() {
        let gray = Self.page(width: 803, height: 411, seed: 3)
        let boxes = LineOrientation.glyphs(gray: gray, width: 803, height: 411, below: 60)
        #expect(boxes.count > 100)
        for cell in [1, 7, 20] {
            let grid = LineOrientation.Grid(boxes, cell: cell)
            var cells = [[Int]](repeating: [], count: grid.columns * grid.rows)
            for (i, b) in boxes.enumerated() {
                cells[((b.y0 + b.y1) / 2 / cell) * grid.columns + (b.x0 + b.x1) / 2 / cell].append(i)
            }
            for (i, box) in boxes.enumerated() where i % 7 == 0 {
                for reach in 0...3 {
                    var visited: [Int] = []
                    grid.near(box, reach: reach) { visited.append($0) }
                    let cx = (box.x0 + box.x1) / 2 / cell, cy = (box.y0 + box.y1) / 2 / cell
                    var plain: [Int] = []
                    for gy in max(0, cy - reach)...min(grid.rows - 1, cy + reach) {
                        for gx in max(0, cx - reach)...min(grid.columns - 1, cx + reach) {
                            plain += cells[gy * grid.columns + gx]
                        }
                    }
                    #expect(visited == plain, "cell \(cell), piece \(i), reach \(reach)")
                }
            }
        }
    }

    /// `LineOrientation.glyphs` as it was: the mask set pixel by pixel, every pixel visited.
    static func plainGlyphs(gray: [UInt8], width: Int, height: Int, below threshold: UInt8) -> [LineOrientation.Box] {
        let maxSize = max(LineOrientation.minimumGlyphSize, min(width, height) / LineOrientation.maximumGlyphFraction)
        var ink = [Bool](repeating: false, count: gray.count)
        for i in gray.indices where gray[i] < threshold { ink[i] = true }
        var boxes: [LineOrientation.Box] = []
        for start in ink.indices where ink[start] {
            ink[start] = false
            var stack = [start]
            var (minX, maxX, minY, maxY, area) = (width, 0, height, 0, 0)
            while let i = stack.popLast() {
                let y = i / width, x = i - y * width
                area += 1
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                for (ok, j) in [(x > 0, i - 1), (x + 1 < width, i + 1), (y > 0, i - width), (y + 1 < height, i + width)]
                where ok && ink[j] {
                    ink[j] = false
                    stack.append(j)
                }
            }
            let box = LineOrientation.Box(x0: minX, y0: minY, x1: maxX, y1: maxY)
            let (w, h) = (box.width, box.height)
            guard max(w, h) >= LineOrientation.minimumGlyphSize, max(w, h) <= maxSize else { continue }
            if min(w, h) >= LineOrientation.solidSide, Double(area) > LineOrientation.maximumGlyphFill * Double(w * h) {
                continue
            }
            boxes.append(box)
        }
        return boxes
    }
}
