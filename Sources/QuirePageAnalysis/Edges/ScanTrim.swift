/// Finding a scanned page's rectangle against the scanner lid around it.
///
/// Works on interleaved 8-bit pixels (1-4 bands) of a small copy of an already straightened
/// scan: the lid colour is the median of the outermost pixels, the paper colour the median of
/// the centre, and the page is the longest run of rows (then columns) mostly unlike the lid.
/// Row and column shares rather than single pixels make it indifferent to text, pictures and
/// noise on the page, and it still works when the page runs off one side of the canvas.
package enum ScanTrim {
    /// Page pixels must differ from the lid by at least this much (0-255, largest band
    /// difference) at the centre of the image, or nothing is trimmed.
    static let minimumPaperContrast = 6.0
    /// Largest share of pixels unlike the lid allowed in what is trimmed away.
    static let maximumDetailOutside = 0.02
    /// Smallest share of pixels unlike the lid inside the page.
    static let minimumPaperShare = 0.6

    /// A page rectangle in pixels: `x0..<x1`, `y0..<y1`.
    package struct Box: Equatable {
        package var x0: Int, y0: Int, x1: Int, y1: Int
        package var width: Int { x1 - x0 }
        package var height: Int { y1 - y0 }
        /// The rectangle `x0..<x1` x `y0..<y1`.
        package init(x0: Int, y0: Int, x1: Int, y1: Int) { (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1) }
    }

    /// The median colour (per band) of the outermost `ring` pixels of the image.
    /// - Complexity: O(width + height).
    package static func borderColour(pixels: [UInt8], width: Int, height: Int, bands: Int, ring: Int = 2) -> [Double] {
        let ring = max(1, min(ring, min(width, height) / 4))
        var medians = BandMedians(bands: bands)
        pixels.withUnsafeBufferPointer { p in
            for r in 0..<ring {
                for x in 0..<width {
                    medians.add(p, at: x + r * width); medians.add(p, at: x + (height - 1 - r) * width)
                }
                for y in ring..<(height - ring) {
                    medians.add(p, at: r + y * width); medians.add(p, at: width - 1 - r + y * width)
                }
            }
        }
        return medians.values
    }

    /// The scanner-lid colour: of the four sides' median colours, the one least like the paper
    /// (the median colour of the centre). A page laid in a corner of the glass shows the lid
    /// along two sides only, where the median of the whole border would be paper.
    /// - Complexity: O(width x height x bands) for the centre median.
    package static func lidColour(pixels: [UInt8], width: Int, height: Int, bands: Int, ring: Int = 2) -> [Double] {
        let ring = max(1, min(ring, min(width, height) / 4))
        var sides = [BandMedians](repeating: BandMedians(bands: bands), count: 4)
        var centre = BandMedians(bands: bands)
        pixels.withUnsafeBufferPointer { p in
            for r in 0..<ring {
                for x in 0..<width {
                    sides[0].add(p, at: r * width + x); sides[1].add(p, at: (height - 1 - r) * width + x)
                }
                for y in 0..<height {
                    sides[2].add(p, at: y * width + r); sides[3].add(p, at: y * width + width - 1 - r)
                }
            }
            for y in stride(from: height / 4, to: height - height / 4, by: 2) {
                for x in stride(from: width / 4, to: width - width / 4, by: 2) { centre.add(p, at: y * width + x) }
            }
        }
        let paper = centre.values
        func distance(_ c: [Double]) -> Double { zip(c, paper).map { abs($0 - $1) }.max() ?? 0 }
        return sides.map(\.values).max { distance($0) < distance($1) } ?? paper
    }

    /// The paper colour of a found page: the median colour of a thin band just inside the
    /// box, where page margins are (text and pictures rarely reach them).
    /// - Complexity: O(box perimeter).
    package static func paperColour(pixels: [UInt8], width: Int, bands: Int, box: Box) -> [Double] {
        let inset = max(2, min(box.width, box.height) / 60)
        let x0 = box.x0 + inset, x1 = box.x1 - 1 - inset, y0 = box.y0 + inset, y1 = box.y1 - 1 - inset
        guard x1 > x0, y1 > y0 else { return [Double](repeating: 255, count: bands) }
        var medians = BandMedians(bands: bands)
        pixels.withUnsafeBufferPointer { p in
            for x in x0...x1 { medians.add(p, at: y0 * width + x); medians.add(p, at: y1 * width + x) }
            for y in y0...y1 { medians.add(p, at: y * width + x0); medians.add(p, at: y * width + x1) }
        }
        return medians.values
    }

    /// Largest per-band absolute difference of every pixel to `colour`.
    /// - Complexity: O(width x height x bands).
    package static func distances(pixels: [UInt8], count: Int, bands: Int, colour: [Double]) -> [UInt8] {
        // |v - c| for every byte value v of each band: a table look-up per band and pixel.
        let tables = colour.prefix(bands).map { c in
            let c = Int(c.rounded())
            return (0..<256).map { abs($0 - c) }
        }
        precondition(tables.count == bands && pixels.count >= count * bands, "a colour value per band, and the pixels")
        return [UInt8](unsafeUninitializedCapacity: count) { d, made in
            pixels.withUnsafeBufferPointer { p in
                switch bands {
                case 1:
                    tables[0].withUnsafeBufferPointer { t in for i in 0..<count { d[i] = UInt8(t[Int(p[i])]) } }
                case 3:
                    tables[0].withUnsafeBufferPointer { t0 in
                        tables[1].withUnsafeBufferPointer { t1 in
                            tables[2].withUnsafeBufferPointer { t2 in
                                for i in 0..<count {
                                    let o = i * 3
                                    d[i] = UInt8(max(t0[Int(p[o])], t1[Int(p[o + 1])], t2[Int(p[o + 2])]))
                                }
                            }
                        }
                    }
                default:
                    for i in 0..<count {
                        var m = 0
                        for b in 0..<bands { m = max(m, tables[b][Int(p[i * bands + b])]) }
                        d[i] = UInt8(m)
                    }
                }
            }
            made = count
        }
    }

    /// The distance threshold between lid and paper, or nil when the centre of the image looks
    /// like the lid (no scanner background to trim, or a page the colour of the lid).
    static func threshold(distances d: [UInt8], width: Int, height: Int) -> Double? {
        var centre = BandMedians(bands: 1)
        d.withUnsafeBufferPointer { p in
            for y in (height / 4)..<(height - height / 4) {
                for x in (width / 4)..<(width - width / 4) { centre.add(p, at: y * width + x) }
            }
        }
        guard let paper = centre.values.first, centre.count > 0 else { return nil }
        return paper >= minimumPaperContrast ? paper / 2 : nil
    }

    /// The longest run of indices whose value is at least `level`, bridging gaps up to `gap`.
    static func longestRun(_ values: [Double], level: Double, gap: Int) -> Range<Int>? {
        var best: Range<Int>? = nil
        var start: Int? = nil
        var lastHit = -1
        for (i, v) in values.enumerated() {
            if v >= level {
                if let s = start, i - lastHit - 1 > gap {
                    if best == nil || (lastHit + 1 - s) > best!.count { best = s..<(lastHit + 1) }
                    start = i
                } else if start == nil {
                    start = i
                }
                lastHit = i
            }
        }
        if let s = start, best == nil || (lastHit + 1 - s) > best!.count { best = s..<(lastHit + 1) }
        return best
    }

    /// Per row (within `columns`) or per column (within `rows`): the share of the line spanned
    /// from its first to its last run of `run` pixels beyond `threshold`. Spans, unlike pixel
    /// counts, do not drop on rows full of text the colour of the lid.
    ///
    /// Rows and columns alike are read a row at a time, through pointers: the columns' counts
    /// are kept side by side and advanced row by row, so a column is not read a byte per row
    /// across the copy (the same counts as the element-by-element loop `ScanTrimSpansTests` keeps as the reference).
    static func spans(
        distances d: [UInt8], width: Int, threshold: Double,
        rows: Range<Int>, columns: Range<Int>, alongRows: Bool, run: Int = 3
    ) -> [Double] {
        let t = UInt8(max(0, min(255, threshold.rounded(.down))))
        return d.withUnsafeBufferPointer { p in
            // No bytes: only empty lines can be read (each spans nothing).
            guard p.baseAddress != nil else {
                return [Double](repeating: 0, count: alongRows ? rows.count : columns.count)
            }
            return alongRows
                ? rowSpans(p, width: width, threshold: t, rows: rows, columns: columns, run: run)
                : columnSpans(p, width: width, threshold: t, rows: rows, columns: columns, run: run)
        }
    }

    /// `spans` along rows: each row's bytes within `columns`, in order.
    private static func rowSpans(
        _ p: UnsafeBufferPointer<UInt8>, width: Int, threshold t: UInt8, rows: Range<Int>, columns: Range<Int>,
        run: Int
    ) -> [Double] {
        let count = columns.count
        return rows.map { y in
            let line = p.baseAddress! + y * width + columns.lowerBound
            var first = -1, last = -1, streak = 0
            for i in 0..<count {
                if line[i] > t {
                    streak += 1
                    if streak >= run {
                        if first < 0 { first = i - run + 1 }
                        last = i
                    }
                } else {
                    streak = 0
                }
            }
            return first < 0 ? 0 : Double(last - first + 1) / Double(max(1, count))
        }
    }

    /// `spans` down columns: every column's first, last and current streak advanced a row at a time.
    private static func columnSpans(
        _ p: UnsafeBufferPointer<UInt8>, width: Int, threshold t: UInt8, rows: Range<Int>, columns: Range<Int>,
        run: Int
    ) -> [Double] {
        let n = columns.count, count = rows.count
        var first = [Int](repeating: -1, count: n), last = first, streak = [Int](repeating: 0, count: n)
        first.withUnsafeMutableBufferPointer { first in
            last.withUnsafeMutableBufferPointer { last in
                streak.withUnsafeMutableBufferPointer { streak in
                    for i in 0..<count {
                        let line = p.baseAddress! + (rows.lowerBound + i) * width + columns.lowerBound
                        for c in 0..<n {
                            if line[c] > t {
                                streak[c] += 1
                                if streak[c] >= run {
                                    if first[c] < 0 { first[c] = i - run + 1 }
                                    last[c] = i
                                }
                            } else {
                                streak[c] = 0
                            }
                        }
                    }
                }
            }
        }
        return (0..<n).map { c in first[c] < 0 ? 0 : Double(last[c] - first[c] + 1) / Double(max(1, count)) }
    }

    /// How far each pixel of a small copy lies from the lid colour, and the threshold between
    /// lid and paper: what `pageBox` and `lidShareAround` read, made once a page (each made
    /// them again from the same copy and lid).
    package struct LidDistances {
        /// Largest per-band difference to the lid, one byte per pixel (`ScanTrim.distances`).
        let values: [UInt8]
        let width: Int, height: Int
        /// `ScanTrim.threshold` of `values`: nil when the centre looks like the lid.
        let threshold: Double?

        /// The distances of `pixels` (`width` x `height`, `bands` bands) to `lid`; nil when
        /// there are fewer bytes than that.
        package init?(pixels: [UInt8], width: Int, height: Int, bands: Int, lid: [Double]) {
            guard width > 0, height > 0, bands > 0, pixels.count >= width * height * bands else { return nil }
            values = ScanTrim.distances(pixels: pixels, count: width * height, bands: bands, colour: lid)
            (self.width, self.height) = (width, height)
            threshold = ScanTrim.threshold(distances: values, width: width, height: height)
        }
    }

    /// Share of the pixels in a ring just outside `box` (2 % of the image's short side wide,
    /// the parts on the canvas only) that look like the lid: closer to `lid` than half the
    /// paper's distance from it. A page's outline has the lid around it; a table or a picture
    /// box printed on the page has paper. Nil when the ring lies off the canvas.
    /// - Complexity: O(ring pixels x bands) plus the centre median `threshold` takes.
    package static func lidShareAround(
        _ box: Box, pixels: [UInt8], width: Int, height: Int, bands: Int,
        lid: [Double]
    ) -> Double? {
        LidDistances(pixels: pixels, width: width, height: height, bands: bands, lid: lid).flatMap {
            lidShareAround(box, distances: $0)
        }
    }

    /// `lidShareAround` from distances already made.
    package static func lidShareAround(_ box: Box, distances: LidDistances) -> Double? {
        let (d, width, height) = (distances.values, distances.width, distances.height)
        guard let t = distances.threshold else { return nil }
        let ring = max(2, min(width, height) / 50)
        let outer = Box(
            x0: max(0, box.x0 - ring), y0: max(0, box.y0 - ring),
            x1: min(width, box.x1 + ring), y1: min(height, box.y1 + ring))
        var lidLike = 0, count = 0
        for y in outer.y0..<outer.y1 {
            for x in outer.x0..<outer.x1 where !(x >= box.x0 && x < box.x1 && y >= box.y0 && y < box.y1) {
                count += 1
                if Double(d[y * width + x]) < t { lidLike += 1 }
            }
        }
        return count > 0 ? Double(lidLike) / Double(count) : nil
    }

    /// The page rectangle of a straightened scan, or nil when there is no lid around the page
    /// (or the page cannot be told from it).
    /// - Complexity: O(width x height x bands).
    package static func pageBox(
        pixels: [UInt8], width: Int, height: Int, bands: Int,
        background: [Double]
    ) -> (box: Box, threshold: Double)? {
        guard width >= 8, height >= 8,
            let distances = LidDistances(pixels: pixels, width: width, height: height, bands: bands, lid: background)
        else { return nil }
        return pageBox(distances)
    }

    /// `pageBox` from distances to the lid already made.
    package static func pageBox(_ distances: LidDistances) -> (box: Box, threshold: Double)? {
        let (d, width, height) = (distances.values, distances.width, distances.height)
        guard width >= 8, height >= 8, let t = distances.threshold else { return nil }

        func run(_ values: [Double], length: Int) -> Range<Int>? {
            let sorted = values.sorted()
            let typical = sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
            guard typical > 0.2 else { return nil }
            return longestRun(values, level: typical / 2, gap: max(1, length / 50))
        }
        var rows = 0..<height, columns = 0..<width
        for _ in 0..<2 {
            guard
                let r = run(
                    spans(
                        distances: d, width: width, threshold: t, rows: 0..<height,
                        columns: columns, alongRows: true), length: height)
            else { return nil }
            rows = r
            guard
                let c = run(
                    spans(
                        distances: d, width: width, threshold: t, rows: rows,
                        columns: 0..<width, alongRows: false), length: width)
            else { return nil }
            columns = c
        }
        let box = Box(x0: columns.lowerBound, y0: rows.lowerBound, x1: columns.upperBound, y1: rows.upperBound)
        // What is trimmed away must look like lid: a page without a lid around it (or with a
        // picture taken for the page) leaves text and detail outside the box.
        let t8 = UInt8(max(0, min(255, t.rounded(.down))))
        // And the page itself must be mostly unlike the lid (paper), not lid-coloured paper
        // around a dark picture.
        let inside = box.width * box.height, outside = width * height - inside
        var (far, paper) = (0, 0)
        d.withUnsafeBufferPointer { p in
            for y in 0..<height {
                let line = p.baseAddress! + y * width
                for x in 0..<width where line[x] > t8 { far += 1 }
                guard y >= box.y0, y < box.y1 else { continue }
                for x in box.x0..<box.x1 where line[x] > t8 { paper += 1 }
            }
        }
        let detail = far - paper
        guard outside == 0 || Double(detail) <= maximumDetailOutside * Double(outside),
            Double(paper) >= minimumPaperShare * Double(max(1, inside))
        else { return nil }
        // A "page" smaller than a quarter of the frame is more likely a picture on a blank page.
        guard box.width * box.height * 4 >= width * height else { return nil }
        return (box, t)
    }
}
