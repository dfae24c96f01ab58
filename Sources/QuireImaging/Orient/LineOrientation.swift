/// Which way up a page of printed text is, read from the shapes of its text lines alone: the
/// cheap first look before Tesseract's orientation detection, which is asked only when this look
/// is not sure (`TesseractOSD`). Pure code on a grey pixel buffer (no libvips, no Foundation), so
/// it can move into the page-analysis module.
///
/// The ink is thresholded halfway between paper and ink (as `TextPresence` does) and its
/// connected pieces of glyph size are kept as boxes. Then:
/// - **Lines across or down.** Each piece's nearest neighbour along the row (the pieces beside
///   it that share its height band) and along the column are compared: letters of a line lie
///   closer to each other than to the lines above and below, so on a page of lines running
///   across most pieces vote "across". The vote's margin is the share of pieces agreeing.
/// - **Up or down.** Pieces are chained into lines in the winning direction. Latin-like text
///   sits on a baseline: every letter but the few with descenders (g j p q y) ends on it, while
///   the tops split between the x-height and the ascenders and capitals (b d f h k l t, A-Z,
///   0-9). So along a line the bottoms of the pieces agree more often than their tops; turned
///   upside down, the tops agree more. The margin is the difference of the two shares.
///
/// A guess is sure only when both margins clear their thresholds and enough pieces voted
/// (`LineOrientation.isSure`); the thresholds were fitted on half the sources of the real scans
/// and photos and checked on the other half (`Tools/accuracy/fit_line_orientation.py`;
/// docs/benchmarks.md, "Orientation: thresholds fitted on half the sources").
enum LineOrientation {
    /// A piece is a glyph when its longer side is at least this many pixels (smaller ones are
    /// specks, dots and commas, which carry no line shape).
    static let minimumGlyphSize = 5
    /// ... and at most the copy's short side divided by this (larger: headings, rules, pictures).
    static let maximumGlyphFraction = 20
    /// A piece filling more than this share of a box at least `solidSide` px on both sides is a
    /// solid blot (a dash, a bar, a filled shape), not a letter.
    static let maximumGlyphFill = 0.85
    static let solidSide = 4
    /// Two pieces are neighbours on one line when they share at least this share of the smaller
    /// one's height band, and their gap is at most `maximumGap` times the median glyph size.
    static let minimumBandOverlap = 0.5
    static let maximumGap = 1.5
    /// A line is read for up and down when it has at least this many pieces: shorter ones
    /// (page numbers, stray marks) say little about a baseline.
    static let minimumLinePieces = 5
    /// Neighbours on each side a piece's top and bottom are compared with (near ones only: a
    /// line's baseline drifts when the page is a little skewed).
    static let window = 3
    /// A piece's edge agrees with a neighbour's when it is within this share of the line's
    /// median glyph height of it (and at least one pixel).
    static let edgeTolerance = 0.12

    /// Sure only with at least this many glyph pieces voting on the direction (fewer: a label,
    /// a caption, a form's few words). Fitted, with the share and pieces below (2026-11-26:
    /// 100, 0.6, 20 from 150, 0.8, 100): no held-out page turned wrong.
    static let minimumVotes = 100
    /// Sure only when at least this share of the votes say one direction (0.5 is a coin).
    static let minimumDirectionShare = 0.6
    /// Sure only when the bottoms agree this much more (or less) often than the tops, over the
    /// pairs of pieces compared. Kept at 0.15, above the fit's 0.10: whole two-page spreads can
    /// read the wrong way just over 0.10, too close to the bar (docs/benchmarks.md, "the line
    /// look's thresholds fitted on half the sources").
    static let minimumEdgeMargin = 0.15
    /// ... counted on at least this many pieces in lines.
    static let minimumLinePiecesRead = 20
    /// The confidence of a finding at its thresholds: `OrientationPolicy.minimumConfidence`, so
    /// that a sure finding turns a page (kept here so this file needs nothing else;
    /// `LineOrientationTests.aSureFindingTurnsAPage` checks they agree).
    static let sureConfidence = 2.0

    /// What the look found on a page.
    struct Finding: Equatable {
        /// The clockwise quarter turn that makes the text upright: 0, 90, 180 or 270.
        var rotate: Int
        /// Pieces that voted on the direction, and the share of them that agreed.
        var votes: Int
        var directionShare: Double
        /// Pieces read in lines, and (bottoms agreeing - tops agreeing) / pairs compared,
        /// positive when the text reads upright in the frame its lines run across.
        var linePieces: Int
        var edgeMargin: Double

        /// The finding's confidence, on the scale `OrientationPolicy` reads: each margin over
        /// its threshold (the direction's counted from a coin's 0.5), the smaller of the two,
        /// times `sureConfidence`; so a sure finding scores at least that and turns a page, and
        /// a clearer one scores more.
        var confidence: Double {
            let direction = (directionShare - 0.5) / (LineOrientation.minimumDirectionShare - 0.5)
            let edges = abs(edgeMargin) / LineOrientation.minimumEdgeMargin
            let value = LineOrientation.sureConfidence * min(direction, edges)
            return (value * 100).rounded() / 100
        }

        /// Whether the finding clears every threshold.
        var isSure: Bool { isAxisSure && abs(edgeMargin) >= LineOrientation.minimumEdgeMargin }

        /// Whether it clears every threshold but the edge margin's: sure whether the lines run
        /// across or down, not of up or down (where a second reading may settle it:
        /// `TesseractOSD.upDownGuess`).
        var isAxisSure: Bool {
            votes >= LineOrientation.minimumVotes && directionShare >= LineOrientation.minimumDirectionShare
                && linePieces >= LineOrientation.minimumLinePiecesRead
        }
    }

    /// A piece's box, in pixels (inclusive).
    struct Box: Equatable {
        var x0: Int, y0: Int, x1: Int, y1: Int
        var width: Int { x1 - x0 + 1 }
        var height: Int { y1 - y0 + 1 }
    }

    /// The look at `gray` (`width` x `height`, 8-bit, paper light); nil when it shows no ink
    /// (too little contrast) or no glyph pieces.
    static func find(gray: [UInt8], width: Int, height: Int) -> Finding? {
        look(gray: gray, width: width, height: height).finding
    }

    /// The look at `gray` as `find` makes it, with the glyph boxes it read (empty when it
    /// shows no ink), for choosing where Tesseract looks when the look is not sure.
    static func look(gray: [UInt8], width: Int, height: Int) -> (finding: Finding?, boxes: [Box]) {
        look(gray: gray, width: width, height: height, threshold: inkThreshold(gray: gray))
    }

    /// `look` with `gray`'s `inkThreshold` already known (`TextPresence.readableTextThreshold`
    /// read it from the same copy).
    static func look(gray: [UInt8], width: Int, height: Int, threshold: UInt8?) -> (finding: Finding?, boxes: [Box]) {
        guard width > 0, height > 0, gray.count == width * height, let threshold else { return (nil, []) }
        let boxes = glyphs(gray: gray, width: width, height: height, below: threshold)
        guard !boxes.isEmpty else { return (nil, []) }
        return (find(boxes: boxes, width: width, height: height), boxes)
    }

    /// The grey level halfway between the paper and the darkest ink of `gray`, under which a
    /// pixel is ink; nil when they differ by less than `TextPresence.minimumContrast` (no ink).
    static func inkThreshold(gray: [UInt8]) -> UInt8? {
        let histogram = TextPresence.histogram(gray)
        let ink = TextPresence.percentile(histogram, 0.01, of: gray.count)
        let paper = TextPresence.percentile(histogram, 0.90, of: gray.count)
        guard paper - ink >= TextPresence.minimumContrast else { return nil }
        return UInt8((paper + ink) / 2)
    }

    /// The square window `side` px on a side (clipped to the `width` x `height` page) whose
    /// glyph pieces are most numerous, its corner on a grid of a quarter side, and their count;
    /// nil without boxes. Where Tesseract reads the page's way up when the look is not sure:
    /// its cost grows with the characters it reads, not with the page (`TesseractOSD`).
    /// `skippingDensest`: the window so found among the boxes whose centres lie outside the
    /// densest window (a second crop of different text).
    static func densestWindow(_ boxes: [Box], width: Int, height: Int, side: Int, skippingDensest: Bool = false)
        -> (window: Box, pieces: Int)?
    {
        if skippingDensest {
            guard let first = densestWindow(boxes, width: width, height: height, side: side)?.window else { return nil }
            let rest = boxes.filter { b in
                let cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2
                return cx < first.x0 || cx > first.x1 || cy < first.y0 || cy > first.y1
            }
            return densestWindow(rest, width: width, height: height, side: side)
        }
        guard !boxes.isEmpty, width > 0, height > 0, side > 0 else { return nil }
        let step = max(1, side / 4)
        let columns = (width + step - 1) / step, rows = (height + step - 1) / step
        var cells = [Int](repeating: 0, count: columns * rows)
        for b in boxes {
            let cx = min(columns - 1, max(0, (b.x0 + b.x1) / 2 / step))
            let cy = min(rows - 1, max(0, (b.y0 + b.y1) / 2 / step))
            cells[cy * columns + cx] += 1
        }
        let span = max(1, side / step)
        var best = (x: 0, y: 0, count: -1)
        for gy in 0...max(0, rows - span) {
            for gx in 0...max(0, columns - span) {
                var count = 0
                for y in gy..<min(rows, gy + span) {
                    for x in gx..<min(columns, gx + span) { count += cells[y * columns + x] }
                }
                if count > best.count { best = (gx, gy, count) }
            }
        }
        let x0 = best.x * step, y0 = best.y * step
        let window = Box(x0: x0, y0: y0, x1: min(width, x0 + side) - 1, y1: min(height, y0 + side) - 1)
        return (window, best.count)
    }

    /// The look at glyph boxes on a `width` x `height` page.
    static func find(boxes: [Box], width: Int, height: Int) -> Finding {
        let size = median(boxes.map { max($0.width, $0.height) })
        let (across, down) = directionVotes(boxes, size: size)
        let votes = across + down
        let sideways = down > across
        let share = votes == 0 ? 0 : Double(max(across, down)) / Double(votes)
        // Read up and down with the lines running across: a page whose lines run down is
        // looked at turned a quarter clockwise.
        let frame = sideways ? boxes.map { turnedClockwise($0, height: height) } : boxes
        let (pieces, margin) = edgeAgreement(frame, size: size)
        let upright = margin >= 0
        let rotate = sideways ? (upright ? 90 : 270) : (upright ? 0 : 180)
        return Finding(rotate: rotate, votes: votes, directionShare: share, linePieces: pieces, edgeMargin: margin)
    }

    /// `box` on its page (`height` rows) turned a quarter clockwise: (x, y) goes to (height - 1 - y, x).
    static func turnedClockwise(_ box: Box, height: Int) -> Box {
        Box(x0: height - 1 - box.y1, y0: box.x0, x1: height - 1 - box.y0, y1: box.x1)
    }

    /// The boxes of the connected pieces (4-neighbour) of pixels darker than `threshold` that
    /// have a glyph's size and are not solid blots.
    static func glyphs(gray: [UInt8], width: Int, height: Int, below threshold: UInt8) -> [Box] {
        let maxSize = max(minimumGlyphSize, min(width, height) / maximumGlyphFraction)
        // Ink pixels, marked 0 once their piece is taken (unchecked buffers: this loop visits
        // every pixel of the copy and is most of the look's time).
        var ink = [Bool](unsafeUninitializedCapacity: gray.count) { ink, initialized in
            gray.withUnsafeBufferPointer { g in
                for i in 0..<g.count { ink[i] = g[i] < threshold }
            }
            initialized = gray.count
        }
        var seeds: [Int] = []
        var boxes: [Box] = []
        ink.withUnsafeMutableBufferPointer { buffer in
            guard let ink = buffer.baseAddress else { return }
            let count = buffer.count
            var start = 0
            while start < count {
                // Most of the page is paper: eight pixels at a time while none is ink left.
                if start + 8 <= count, UnsafeRawPointer(ink + start).loadUnaligned(as: UInt64.self) == 0 {
                    start += 8
                    continue
                }
                defer { start += 1 }
                guard ink[start] else { continue }
                let (box, area) = takePiece(ink, width: width, height: height, from: start, seeds: &seeds)
                let (w, h) = (box.width, box.height)
                guard max(w, h) >= minimumGlyphSize, max(w, h) <= maxSize else { continue }
                if min(w, h) >= solidSide, Double(area) > maximumGlyphFill * Double(w * h) { continue }
                boxes.append(box)
            }
        }
        return boxes
    }

    /// The box and pixel count of the piece of `ink` (`width` x `height`) holding pixel
    /// `start`, its pixels cleared. Filled a row span at a time: each span taken is widened
    /// left and right to the ends of its run, and the rows above and below it are scanned for
    /// the runs touching it, one seed a run (`seeds`, a stack kept between pieces). The piece,
    /// hence its box and count, is the one a pixel-by-pixel flood fill finds.
    static func takePiece(
        _ ink: UnsafeMutablePointer<Bool>, width: Int, height: Int, from start: Int, seeds: inout [Int]
    ) -> (box: Box, area: Int) {
        var (minX, maxX, minY, maxY, area) = (width, 0, height, 0, 0)
        seeds.append(start)
        while let seed = seeds.popLast() {
            guard ink[seed] else { continue }
            let y = seed / width
            let row = ink + y * width
            var left = seed - y * width, right = left
            while left > 0, row[left - 1] { left -= 1 }
            while right + 1 < width, row[right + 1] { right += 1 }
            for x in left...right { row[x] = false }
            area += right - left + 1
            minX = min(minX, left); maxX = max(maxX, right); minY = min(minY, y); maxY = max(maxY, y)
            for next in stride(from: y - 1, through: y + 1, by: 2) where next >= 0 && next < height {
                let other = ink + next * width
                var x = left
                while x <= right {
                    guard other[x] else { x += 1; continue }
                    seeds.append(next * width + x)
                    while x <= right, other[x] { x += 1 }
                }
            }
        }
        return (Box(x0: minX, y0: minY, x1: maxX, y1: maxY), area)
    }

    /// The median of `values` (0 when empty).
    static func median(_ values: [Int]) -> Int {
        guard !values.isEmpty else { return 0 }
        return values.sorted()[values.count / 2]
    }

    /// Whether `a` and `b` share at least `minimumBandOverlap` of the smaller one's extent
    /// between `lo` and `hi` (rows for neighbours across, columns for neighbours down).
    /// Bands that do not meet fail at once, on integers (most pieces near a piece lie on the
    /// lines above and below it): the share is more than 0, so an overlap of none is too little.
    @inline(__always)
    static func bandsOverlap(_ aLo: Int, _ aHi: Int, _ bLo: Int, _ bHi: Int) -> Bool {
        let overlap = min(aHi, bHi) - max(aLo, bLo) + 1
        guard overlap > 0 else { return false }
        return Double(overlap) >= minimumBandOverlap * Double(min(aHi - aLo, bHi - bLo) + 1)
    }

    /// Pieces sorted into square cells of about twice the glyph size, for neighbour searches.
    struct Grid {
        let cell: Int, columns: Int, rows: Int
        /// The pieces of cell c, in the order of the boxes, are `members[starts[c]..<starts[c + 1]]`
        /// (one array for all the cells rather than an array a cell: `near` visits many cells
        /// a piece).
        let starts: [Int], members: [Int]

        init(_ boxes: [Box], cell: Int) {
            let cell = max(1, cell)
            let maxX = boxes.map(\.x1).max() ?? 0, maxY = boxes.map(\.y1).max() ?? 0
            let columns = maxX / cell + 1
            let cells = boxes.map { b in ((b.y0 + b.y1) / 2 / cell) * columns + (b.x0 + b.x1) / 2 / cell }
            (self.cell, self.columns, rows) = (cell, columns, maxY / cell + 1)
            var starts = [Int](repeating: 0, count: columns * rows + 1)
            for c in cells { starts[c + 1] += 1 }
            for c in 0..<(columns * rows) { starts[c + 1] += starts[c] }
            var next = starts
            var members = [Int](repeating: 0, count: boxes.count)
            for (i, c) in cells.enumerated() {
                members[next[c]] = i
                next[c] += 1
            }
            (self.starts, self.members) = (starts, members)
        }

        /// Calls `body` with every piece whose centre lies within `reach` cells of `box`'s
        /// (inlined, and unchecked reads: the votes and the chaining call it for every piece).
        @inline(__always)
        func near(_ box: Box, reach: Int, _ body: (Int) -> Void) {
            let cx = (box.x0 + box.x1) / 2 / cell, cy = (box.y0 + box.y1) / 2 / cell
            starts.withUnsafeBufferPointer { starts in
                members.withUnsafeBufferPointer { members in
                    for gy in max(0, cy - reach)...min(rows - 1, cy + reach) {
                        let first = gy * columns + max(0, cx - reach),
                            last = gy * columns + min(columns - 1, cx + reach)
                        // The cells of a row are adjacent: their pieces lie in one run of `members`.
                        for k in starts[first]..<starts[last + 1] { body(members[k]) }
                    }
                }
            }
        }
    }

    /// Votes of the pieces whose nearest neighbour (gap at most `maximumGap` sizes) lies across
    /// (sharing its rows) and of those whose nearest lies down (sharing its columns).
    static func directionVotes(_ boxes: [Box], size: Int) -> (across: Int, down: Int) {
        let limit = Int(maximumGap * Double(size))
        let grid = Grid(boxes, cell: 2 * size)
        let reach = limit / grid.cell + 2
        var across = 0, down = 0
        boxes.withUnsafeBufferPointer { boxes in
            for i in 0..<boxes.count {
                let a = boxes[i]
                var bestAcross = Int.max, bestDown = Int.max
                grid.near(a, reach: reach) { j in
                    guard j != i else { return }
                    let b = boxes[j]
                    if bandsOverlap(a.y0, a.y1, b.y0, b.y1) {
                        let gap = max(b.x0 - a.x1, a.x0 - b.x1)
                        bestAcross = min(bestAcross, max(0, gap))
                    }
                    if bandsOverlap(a.x0, a.x1, b.x0, b.x1) {
                        let gap = max(b.y0 - a.y1, a.y0 - b.y1)
                        bestDown = min(bestDown, max(0, gap))
                    }
                }
                guard min(bestAcross, bestDown) <= limit, bestAcross != bestDown else { continue }
                if bestAcross < bestDown { across += 1 } else { down += 1 }
            }
        }
        return (across, down)
    }

    /// Chains `boxes` into lines running across (each piece joined to its nearest neighbour on
    /// the right that shares its rows, within `maximumGap` sizes) and, over the lines of at
    /// least `minimumLinePieces`, compares how often a piece's bottom agrees with a neighbour's
    /// (within the line, `window` each side) with how often its top does. Pairs, not a median:
    /// a median of an even count leans to one side, and did so more for upright pages.
    /// - Returns: the pieces read and (bottoms agreeing - tops agreeing) / pairs compared.
    static func edgeAgreement(_ boxes: [Box], size: Int) -> (pieces: Int, margin: Double) {
        let lines = chainedLines(boxes, size: size)
        var pieces = 0, pairs = 0, bottoms = 0, tops = 0
        boxes.withUnsafeBufferPointer { boxes in
            for members in lines where members.count >= minimumLinePieces {
                let line = members.sorted { boxes[$0].x0 < boxes[$1].x0 }
                let tolerance = max(1, Int((edgeTolerance * Double(median(line.map { boxes[$0].height }))).rounded()))
                pieces += line.count
                for (k, i) in line.enumerated() {
                    for m in max(0, k - window)...min(line.count - 1, k + window) where m != k {
                        let j = line[m]
                        pairs += 1
                        if abs(boxes[i].y1 - boxes[j].y1) <= tolerance { bottoms += 1 }
                        if abs(boxes[i].y0 - boxes[j].y0) <= tolerance { tops += 1 }
                    }
                }
            }
        }
        return (pieces, pairs == 0 ? 0 : Double(bottoms - tops) / Double(pairs))
    }

    /// `boxes` chained into lines running across (each piece joined to its nearest neighbour on
    /// the right that shares its rows, within `maximumGap` sizes; the first of equal gaps): the
    /// lines' pieces, each line's in the order of the boxes, the lines by their root piece.
    static func chainedLines(_ boxes: [Box], size: Int) -> [ArraySlice<Int>] {
        let limit = Int(maximumGap * Double(size))
        let grid = Grid(boxes, cell: 2 * size)
        let reach = limit / grid.cell + 2
        var parent = Array(boxes.indices)
        parent.withUnsafeMutableBufferPointer { parent in
            func root(_ i: Int) -> Int {
                var i = i
                while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
                return i
            }
            boxes.withUnsafeBufferPointer { boxes in
                for i in 0..<boxes.count {
                    let a = boxes[i]
                    var best = -1, bestGap = Int.max
                    grid.near(a, reach: reach) { j in
                        let b = boxes[j]
                        guard j != i, b.x0 > a.x0, bandsOverlap(a.y0, a.y1, b.y0, b.y1) else { return }
                        let gap = max(0, b.x0 - a.x1)
                        if gap <= limit, gap < bestGap { best = j; bestGap = gap }
                    }
                    if best >= 0 { parent[root(best)] = root(i) }
                }
            }
            for i in 0..<parent.count { parent[i] = root(i) }
        }
        // Grouped by root, a counting sort keeping each line's pieces in the order of the boxes.
        var starts = [Int](repeating: 0, count: boxes.count + 1)
        for r in parent { starts[r + 1] += 1 }
        for r in 0..<boxes.count { starts[r + 1] += starts[r] }
        var next = starts
        var order = [Int](repeating: 0, count: boxes.count)
        for (i, r) in parent.enumerated() {
            order[next[r]] = i
            next[r] += 1
        }
        return (0..<boxes.count).compactMap { r in starts[r + 1] > starts[r] ? order[starts[r]..<starts[r + 1]] : nil }
    }
}
