import Testing

@testable import QuireImaging

/// The line look's pieces are taken a row span at a time (`LineOrientation.takePiece`), and its
/// votes and line chaining read the boxes through unchecked buffers, the chained lines grouped
/// by a counting sort (`LineOrientation.chainedLines`): every reading (pieces, votes, shares,
/// line pieces, margins) must be what the pixel-stack fill and the plain loops gave, on pages
/// of noise, of text lines across and down, and of text between rules.
@Suite struct LineOrientationVotesTests {
    typealias Box = LineOrientation.Box

    /// A deterministic stream of numbers for the pages.
    struct Stream {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33) % bound
        }
    }

    /// A page of text lines: letters of x-height, some with ascenders or descenders, some
    /// holed, in words; `rules`: full-width and full-height rules and a comb of teeth joined at
    /// the foot (a piece whose rows split and join); `down`: the page turned a quarter.
    static func textPage(width: Int, height: Int, seed: UInt64, rules: Bool, down: Bool) -> (
        gray: [UInt8], width: Int, height: Int
    ) {
        var random = Stream(state: seed)
        var gray = [UInt8](repeating: 225, count: width * height)
        func ink(_ x: Int, _ y: Int) { if x >= 0, x < width, y >= 0, y < height { gray[y * width + x] = 20 } }
        var base = 30
        while base < height - 10 {
            var x = 5 + random.next(20)
            while x < width - 12 {
                let w = 5 + random.next(5)
                let kind = random.next(6)
                let top = base - 10, bottom = base + (kind == 1 ? 5 : 0)
                // An n (two stems and a bar), its left stem rising to an ascender or falling to
                // a descender, a few pixels missing.
                for y in (kind == 0 ? top - 6 : top)...bottom where random.next(15) != 0 {
                    ink(x, y); ink(x + 1, y)
                }
                for y in top...base where random.next(15) != 0 { ink(x + w - 2, y); ink(x + w - 1, y) }
                for dx in 0..<w where kind != 2 || dx % 2 == 0 { ink(x + dx, top); ink(x + dx, top + 1) }
                x += w + 2 + (random.next(5) == 0 ? 7 : 0)
            }
            base += 22 + random.next(6)
        }
        if rules {
            for y in stride(from: 17, to: height, by: 97) { for x in 0..<width { ink(x, y); ink(x, y + 1) } }
            for y in 0..<height { ink(width / 3, y) }
            for k in 0..<12 { for y in 40..<60 { ink(10 + 3 * k, y) } }
            for x in 10..<46 { ink(x, 60) }
        }
        guard down else { return (gray, width, height) }
        var turned = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height { for x in 0..<width { turned[x * height + (height - 1 - y)] = gray[y * width + x] } }
        return (turned, height, width)
    }

    static var pages: [(name: String, gray: [UInt8], width: Int, height: Int)] {
        var pages: [(String, [UInt8], Int, Int)] = []
        for (w, h, seed) in [(803, 411, 3), (256, 200, 2), (97, 61, 1)] {
            pages.append(
                ("noise \(seed)", LineOrientationGlyphsTests.page(width: w, height: h, seed: UInt64(seed)), w, h))
        }
        for (seed, rules, down) in [(1, false, false), (2, false, true), (3, true, false), (4, true, true)] {
            let page = textPage(width: 700, height: 500, seed: UInt64(seed), rules: rules, down: down)
            pages.append(("text \(seed) rules \(rules) down \(down)", page.gray, page.width, page.height))
        }
        return pages
    }

    @Test func everyReadingIsThePlainLoops() {
        var sure = 0
        for page in Self.pages {
            for threshold: UInt8 in [11, 60, 128] {
                let boxes = LineOrientation.glyphs(
                    gray: page.gray, width: page.width, height: page.height, below: threshold)
                let plain = LineOrientationGlyphsTests.plainGlyphs(
                    gray: page.gray, width: page.width, height: page.height, below: threshold)
                #expect(boxes == plain, "\(page.name) below \(threshold): pieces")
                guard !boxes.isEmpty else { continue }
                let finding = LineOrientation.find(boxes: boxes, width: page.width, height: page.height)
                let expected = Self.plainFind(boxes, width: page.width, height: page.height)
                #expect(finding == expected, "\(page.name) below \(threshold)")
                if finding.isAxisSure { sure += 1 }
            }
        }
        // The text pages must be read as text (else the chaining and the margins go untried).
        #expect(sure >= 8)
    }

    /// `LineOrientation.find(boxes:)` as it was: a grid of an array a cell, a dictionary of lines.
    static func plainFind(_ boxes: [Box], width: Int, height: Int) -> LineOrientation.Finding {
        let size = LineOrientation.median(boxes.map { max($0.width, $0.height) })
        let (across, down) = plainVotes(boxes, size: size)
        let votes = across + down
        let sideways = down > across
        let share = votes == 0 ? 0 : Double(max(across, down)) / Double(votes)
        let frame = sideways ? boxes.map { LineOrientation.turnedClockwise($0, height: height) } : boxes
        let (pieces, margin) = plainEdges(frame, size: size)
        let rotate = sideways ? (margin >= 0 ? 90 : 270) : (margin >= 0 ? 0 : 180)
        return .init(rotate: rotate, votes: votes, directionShare: share, linePieces: pieces, edgeMargin: margin)
    }

    /// The pieces of a grid of `cell` px, an array a cell, each cell's in box order.
    struct PlainGrid {
        let cell: Int, columns: Int, rows: Int
        var cells: [[Int]]

        init(_ boxes: [Box], cell: Int) {
            self.cell = cell
            columns = (boxes.map(\.x1).max() ?? 0) / cell + 1
            rows = (boxes.map(\.y1).max() ?? 0) / cell + 1
            cells = [[Int]](repeating: [], count: columns * rows)
            for (i, b) in boxes.enumerated() {
                cells[((b.y0 + b.y1) / 2 / cell) * columns + (b.x0 + b.x1) / 2 / cell].append(i)
            }
        }

        /// Every piece within `reach` cells of `box`'s, cell by cell.
        func near(_ box: Box, reach: Int) -> [Int] {
            let cx = (box.x0 + box.x1) / 2 / cell, cy = (box.y0 + box.y1) / 2 / cell
            var near: [Int] = []
            for gy in max(0, cy - reach)...min(rows - 1, cy + reach) {
                for gx in max(0, cx - reach)...min(columns - 1, cx + reach) { near += cells[gy * columns + gx] }
            }
            return near
        }
    }

    /// `LineOrientation.bandsOverlap` as it was (no early answer for bands that do not meet).
    static func plainOverlap(_ aLo: Int, _ aHi: Int, _ bLo: Int, _ bHi: Int) -> Bool {
        let overlap = min(aHi, bHi) - max(aLo, bLo) + 1
        return Double(overlap) >= LineOrientation.minimumBandOverlap * Double(min(aHi - aLo, bHi - bLo) + 1)
    }

    static func plainVotes(_ boxes: [Box], size: Int) -> (Int, Int) {
        let limit = Int(LineOrientation.maximumGap * Double(size)), grid = PlainGrid(boxes, cell: max(1, 2 * size))
        var across = 0, down = 0
        for (i, a) in boxes.enumerated() {
            var bestAcross = Int.max, bestDown = Int.max
            for j in grid.near(a, reach: limit / grid.cell + 2) where j != i {
                let b = boxes[j]
                if plainOverlap(a.y0, a.y1, b.y0, b.y1) {
                    bestAcross = min(bestAcross, max(0, max(b.x0 - a.x1, a.x0 - b.x1)))
                }
                if plainOverlap(a.x0, a.x1, b.x0, b.x1) {
                    bestDown = min(bestDown, max(0, max(b.y0 - a.y1, a.y0 - b.y1)))
                }
            }
            guard min(bestAcross, bestDown) <= limit, bestAcross != bestDown else { continue }
            if bestAcross < bestDown { across += 1 } else { down += 1 }
        }
        return (across, down)
    }

    static func plainEdges(_ boxes: [Box], size: Int) -> (Int, Double) {
        let limit = Int(LineOrientation.maximumGap * Double(size)), grid = PlainGrid(boxes, cell: max(1, 2 * size))
        var parent = Array(boxes.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        for (i, a) in boxes.enumerated() {
            var best = -1, bestGap = Int.max
            for j in grid.near(a, reach: limit / grid.cell + 2) {
                let b = boxes[j]
                guard j != i, b.x0 > a.x0, plainOverlap(a.y0, a.y1, b.y0, b.y1) else { continue }
                let gap = max(0, b.x0 - a.x1)
                if gap <= limit, gap < bestGap { best = j; bestGap = gap }
            }
            if best >= 0 { parent[root(best)] = root(i) }
        }
        var lines: [Int: [Int]] = [:]
        for i in boxes.indices { lines[root(i), default: []].append(i) }
        var pieces = 0, pairs = 0, bottoms = 0, tops = 0
        for members in lines.values where members.count >= LineOrientation.minimumLinePieces {
            let line = members.sorted { boxes[$0].x0 < boxes[$1].x0 }
            let heights = line.map { boxes[$0].height }
            let tolerance = max(
                1, Int((LineOrientation.edgeTolerance * Double(LineOrientation.median(heights))).rounded()))
            pieces += line.count
            for (k, i) in line.enumerated() {
                for m in max(0, k - LineOrientation.window)...min(line.count - 1, k + LineOrientation.window)
                where m != k {
                    pairs += 1
                    if abs(boxes[i].y1 - boxes[line[m]].y1) <= tolerance { bottoms += 1 }
                    if abs(boxes[i].y0 - boxes[line[m]].y0) <= tolerance { tops += 1 }
                }
            }
        }
        return (pieces, pairs == 0 ? 0 : Double(bottoms - tops) / Double(pairs))
    }
}
