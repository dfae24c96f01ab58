/// Whether a page shows enough printed glyphs for Tesseract's orientation detection to read:
/// the cheap look that comes before the subprocess. Tesseract spends 0.5-0.8 s on a printed
/// page and 2-3.5 s on a page of shapes that are not letters (word-shaped dashes, drawings)
/// only to answer "Too few characters" (docs/benchmarks.md); this look costs milliseconds.
///
/// On a grey copy (block means, about `longSide` long) the ink is thresholded halfway between
/// the paper's level and the darkest ink, and its connected pieces are measured: a glyph is a
/// piece of letter size whose ink fills well under its box (strokes with counters and gaps),
/// while a solid dash, a bar or a filled shape fills its box. A page needs `minimumGlyphs`
/// such pieces before Tesseract is asked.
enum TextPresence {
    /// Long side of the grey copy looked at: 10 pt text on a 300 dpi A4 page keeps an x-height
    /// of about 11 px and one-pixel strokes (block factor 2).
    static let longSide = 2000
    /// Glyph-like pieces a page needs: Tesseract's OSD gives up under about 50 characters
    /// (`min_characters_to_try`), and a piece may be two letters run together.
    static let minimumGlyphs = 30
    /// Least difference between paper and ink, in grey levels, for any ink to count: a blank or
    /// flat page has none.
    static let minimumContrast = 48
    /// Height range of a glyph in copy pixels: under 5 px nothing is readable (specks, halftone
    /// dots); over a twentieth of the copy's short side it is a heading, a shape or a picture.
    static let minimumGlyphHeight = 5
    static let maximumGlyphFraction = 20
    /// A glyph's ink covers at most this share of its box (letters: 0.3-0.6; a solid dash or
    /// bar: 0.9 and more).
    static let maximumGlyphFill = 0.8
    /// A glyph is at most this many times as wide as high (a few letters run together).
    static let maximumGlyphAspect = 4

    /// Whether `gray` (`width` x `height`, 8-bit) shows at least `minimumGlyphs` glyph-like pieces.
    static func hasReadableText(gray: [UInt8], width: Int, height: Int) -> Bool {
        readableTextThreshold(gray: gray, width: width, height: height) != nil
    }

    /// `hasReadableText`'s ink threshold (`LineOrientation.inkThreshold`'s, from the same
    /// histogram) when `gray` shows at least `minimumGlyphs` glyph-like pieces; nil otherwise.
    /// The line look on the same copy starts from it rather than counting the pixels again.
    static func readableTextThreshold(gray: [UInt8], width: Int, height: Int) -> UInt8? {
        guard width > 0, height > 0, gray.count == width * height,
            let threshold = LineOrientation.inkThreshold(gray: gray)
        else { return nil }
        let glyphs = glyphCount(gray: gray, width: width, height: height, below: threshold, enough: minimumGlyphs)
        return glyphs >= minimumGlyphs ? threshold : nil
    }

    /// Pixels of `gray` at each grey level. Counted into `histogramLanes` tables, pixel i into
    /// table i mod `histogramLanes`, then summed: on a page most pixels are paper of one or two
    /// levels, and with one table each count waited for the previous one's store to that level.
    static func histogram(_ gray: [UInt8]) -> [Int] {
        let lanes = histogramLanes
        var tables = [Int](repeating: 0, count: 256 * lanes)
        gray.withUnsafeBufferPointer { g in
            tables.withUnsafeMutableBufferPointer { t in
                var i = 0
                while i + 4 <= g.count {
                    t[Int(g[i])] += 1
                    t[256 + Int(g[i + 1])] += 1
                    t[512 + Int(g[i + 2])] += 1
                    t[768 + Int(g[i + 3])] += 1
                    i += 4
                }
                while i < g.count {
                    t[Int(g[i])] += 1
                    i += 1
                }
            }
        }
        return (0..<256).map { (tables[$0] + tables[256 + $0]) + (tables[512 + $0] + tables[768 + $0]) }
    }

    /// Tables `histogram` counts into (its loop is written out for four).
    static let histogramLanes = 4

    /// The grey level under which `share` of the `count` pixels of `histogram` lie.
    static func percentile(_ histogram: [Int], _ share: Double, of count: Int) -> Int {
        let target = Int(Double(count) * share)
        var seen = 0
        for (level, n) in histogram.enumerated() {
            seen += n
            if seen > target { return level }
        }
        return 255
    }

    /// Connected pieces (4-neighbour) of pixels darker than `threshold` that look like glyphs,
    /// counted up to `enough` (the search stops there).
    static func glyphCount(gray: [UInt8], width: Int, height: Int, below threshold: UInt8, enough: Int) -> Int {
        let maxHeight = max(minimumGlyphHeight, min(width, height) / maximumGlyphFraction)
        var seen = [Bool](repeating: false, count: gray.count)
        var stack: [Int] = []
        var glyphs = 0
        for start in 0..<gray.count where !seen[start] && gray[start] < threshold {
            seen[start] = true
            stack.append(start)
            var (minX, maxX, minY, maxY, area) = (width, 0, height, 0, 0)
            while let i = stack.popLast() {
                let (x, y) = (i % width, i / width)
                area += 1
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                if x > 0, !seen[i - 1], gray[i - 1] < threshold { seen[i - 1] = true; stack.append(i - 1) }
                if x + 1 < width, !seen[i + 1], gray[i + 1] < threshold { seen[i + 1] = true; stack.append(i + 1) }
                if y > 0, !seen[i - width], gray[i - width] < threshold {
                    seen[i - width] = true; stack.append(i - width)
                }
                if y + 1 < height, !seen[i + width], gray[i + width] < threshold {
                    seen[i + width] = true; stack.append(i + width)
                }
            }
            let (w, h) = (maxX - minX + 1, maxY - minY + 1)
            guard h >= minimumGlyphHeight, h <= maxHeight, w <= maximumGlyphAspect * h else { continue }
            if Double(area) <= maximumGlyphFill * Double(w * h) {
                glyphs += 1
                if glyphs >= enough { return glyphs }
            }
        }
        return glyphs
    }
}
