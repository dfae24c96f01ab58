/// Finds the dark bars and shadows that a scanner leaves along a page's edges (the lid's edge,
/// the glass's border, a shadow where the page lifted), on a small grey copy of the page.
///
/// A bar is a connected region of dark pixels that touches the page's border, runs along that
/// side for a good part of it (at least `minimumContact` of its length; a deskewed bar slants, so
/// its extent counts, not only the pixels on the border) and reaches only a little way in (at
/// most `maximumDepth` of the page). Text, pictures and rules are printed inside a margin: a glyph
/// that touches the border does so over a few pixels only, and a picture that reaches the border
/// reaches far in. So a region is taken only when it looks like an edge, and the caller fills it
/// with the paper colour; anything else is left alone.
package enum ScannerEdges {
    /// Share of a side a bar must lie along.
    static let minimumContact = 0.2
    /// Share of the rest of the page that must be paper (within 20 % of its level) for the page
    /// to be taken for a document at all: a photograph, a chart or a pattern that touches the
    /// border is never "cleaned".
    static let minimumPaper = 0.6
    /// How far in (share of the page's size across the side) a bar may reach.
    static let maximumDepth = 0.15
    /// The shorter side of a copy worth looking at, in pixels.
    static let minimumSide = 200
    /// How many times longer than deep a bar is, at least.
    static let elongation = 4.0
    /// How near the border (share of the page's size) a bar must come.
    static let nearBorder = 0.02
    /// Pixels darker than this share of the paper's level are dark.
    static let darkness = 0.55

    /// How many columns (`x`) and rows (`y`) along each side of a `width` x `height` copy
    /// `find` grows bars from: the rest of the copy only joins a bar through them.
    package static func seedMargin(width: Int, height: Int) -> (x: Int, y: Int) {
        (max(1, Int(nearBorder * Double(width))), max(1, Int(nearBorder * Double(height))))
    }

    /// The darkest level that can never start a bar: a pixel is dark below `darkness` of the
    /// paper's level, and the paper is at most 255.
    package static let neverDark = UInt8(255 * darkness)

    /// Whether grey pixels of a copy's seed margin (`seedMargin`, any of its four strips) can
    /// start a bar: false when none is darker than `neverDark`, whatever the paper's level, so
    /// `find` on that copy returns nil and the caller need not make the rest of the copy.
    package static func maySeed(_ grey: [UInt8]) -> Bool {
        grey.contains { $0 < neverDark }
    }

    package struct Found: Equatable {
        /// One flag per pixel of the analysed copy: part of an edge bar (grown by one pixel).
        package var mask: [Bool]
        package var width: Int
        package var height: Int
        /// Pixels of the copy in the mask.
        package var area: Int
    }

    /// The edge bars of a grey copy `width` x `height` (row-major), or nil when there is none.
    /// - Parameter paper: the paper's grey level (a high percentile of the copy).
    /// - Complexity: O(width x height).
    package static func find(grey: [UInt8], width: Int, height: Int, paper: Int) -> Found? {
        // A strip of one text line (a few dozen pixels high) is no scanned sheet: its glyphs
        // reach across most of it.
        guard min(width, height) >= minimumSide, grey.count == width * height, paper > 100 else { return nil }
        let threshold = UInt8(Double(paper) * darkness)
        var label = [Int32](repeating: -1, count: width * height)
        var keep = [Bool](repeating: false, count: width * height)
        var stack: [Int] = []
        var pixels: [Int] = []
        var next: Int32 = 0
        // Components are grown only from pixels near the border: a bar lies along it (after a
        // deskew, the paper-coloured corners turned in can hold it off by a few pixels).
        let margin = seedMargin(width: width, height: height)
        var seeds: [Int] = []
        for y in 0..<height {
            if y < margin.y || y >= height - margin.y {
                for x in 0..<width { seeds.append(y * width + x) }
            } else {
                for x in 0..<margin.x { seeds += [y * width + x, y * width + width - 1 - x] }
            }
        }
        for seed in seeds where grey[seed] < threshold && label[seed] < 0 {
            pixels.removeAll(keepingCapacity: true)
            stack = [seed]
            label[seed] = next
            var (minX, maxX, minY, maxY) = (width, 0, height, 0)
            while let p = stack.popLast() {
                pixels.append(p)
                let x = p % width, y = p / width
                (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                where nx >= 0 && ny >= 0 && nx < width && ny < height {
                    let q = ny * width + nx
                    if label[q] < 0 && grey[q] < threshold {
                        label[q] = next
                        stack.append(q)
                    }
                }
            }
            next += 1
            // Edge bars: every pixel within `maximumDepth` of a side (bars along two sides meet
            // in a corner as one region), and long along a side it is near.
            let depth = (x: Int(maximumDepth * Double(width)), y: Int(maximumDepth * Double(height)))
            let shallow = pixels.allSatisfy { p in
                let x = p % width, y = p / width
                return x < depth.x || x >= width - depth.x || y < depth.y || y >= height - depth.y
            }
            // Long along a side it is near, and thin: its length at least `elongation` times
            // its mean thickness (area / length), so bars along two sides that meet in a corner
            // still count, and a glyph at the border (a "T" of a text line cut close) does not.
            let along = (x: Double(maxX - minX + 1), y: Double(maxY - minY + 1))
            let area = Double(pixels.count)
            let long =
                ((minY < margin.y || maxY >= height - margin.y) && along.x >= minimumContact * Double(width)
                    && along.x * along.x >= elongation * area)
                || ((minX < margin.x || maxX >= width - margin.x) && along.y >= minimumContact * Double(height)
                    && along.y * along.y >= elongation * area)
            let isBar = shallow && long
            if isBar { for p in pixels { keep[p] = true } }
        }
        // A document: most of what is not a bar is paper.
        let paperLevel = UInt8(Double(paper) * 0.8)
        var rest = 0, paperPixels = 0
        for i in 0..<grey.count where !keep[i] {
            rest += 1
            if grey[i] >= paperLevel { paperPixels += 1 }
        }
        guard Double(paperPixels) >= minimumPaper * Double(max(1, rest)) else { return nil }
        // Grow by one pixel so the bar's soft edge goes too.
        var grown = keep
        var area = 0
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                if !keep[i] {
                    if (x > 0 && keep[i - 1]) || (x < width - 1 && keep[i + 1])
                        || (y > 0 && keep[i - width]) || (y < height - 1 && keep[i + width])
                    {
                        grown[i] = true
                    }
                }
                if grown[i] { area += 1 }
            }
        }
        return area > 0 ? Found(mask: grown, width: width, height: height, area: area) : nil
    }
}
