/// Skew estimation for flatbed scans: a projection-profile search over the "ink" of a small
/// grey copy of the page.
///
/// Text lines, rules, table and picture edges and the page border against the scanner lid all
/// make the horizontal projection of dark detail sharpest (highest sum of squares) when the
/// projection direction follows them. The search runs coarse to fine: every degree over
/// +/-`searchRange` on a small subsample with 8 px bins, every 0.25 degree with 2 px bins
/// around that pass's peaks, then every 0.1 degree around the best few peaks with 1 px bins,
/// down to 0.01 degree and a parabolic fit of the peak.
package enum SkewEstimator {
    /// Largest skew searched, in degrees: a photocopy laid crooked on the glass, not only a
    /// sheet feeder's small angles (text turned up to 44 degrees is found within 0.01; pinned by
    /// `ScanDeskewTests`' angle sweep).
    static let searchRange = 45.0
    /// Below this confidence the estimate is reported as 0 degrees (never a random angle).
    package static let minimumConfidence = 0.15
    /// Fewer ink pixels than this share of the image: a blank page.
    static let minimumInkShare = 0.0005
    /// The columns' sharpest projection must beat the rows' by this factor for the page's lines
    /// to be taken as running up or down (a page lying a quarter turn round).
    static let columnsWin = 1.25

    /// Grey levels a pixel must lie under its neighbourhood's mean to count as ink.
    static let inkContrast = 20

    /// Pixel positions of ink: pixels clearly darker than their neighbourhood mean.
    ///
    /// A local rather than global threshold keeps text on tinted paper, ignores a flat dark
    /// scanner lid (only its boundary with the page counts, which follows the page edge) and
    /// copes with uneven illumination.
    /// - Complexity: O(width x height).
    /// - Parameters:
    ///   - contrast: how much darker than its neighbourhood's mean (grey levels) a pixel must be.
    ///   - weightCap: largest weight a point carries (its darkness, in grey levels).
    static func inkPoints(
        gray: [UInt8], width: Int, height: Int, contrast: Int = inkContrast, weightCap: Float = .infinity
    ) -> (xs: [Float], ys: [Float], weights: [Float]) {
        // 32-bit sums while the whole image's fit (the same points either way).
        width * height <= Int(Int32.max) / 255
            ? inkPoints(
                gray: gray, width: width, height: height, contrast: contrast, weightCap: weightCap, sums: Int32.self)
            : inkPoints(
                gray: gray, width: width, height: height, contrast: contrast, weightCap: weightCap, sums: Int.self)
    }

    /// Columns `inkPoints` tests at once where its sums are 32-bit (one vector of them).
    static let inkLanes = 8

    /// The window sums of the `inkLanes` interior columns from `x` on, from the row's prefix
    /// sums of column sums, and a bit mask of those whose darkness (window sum less the pixel
    /// times `area`) is over `bar` (bit i for column x + i): `inkPoints`' test, `inkLanes` at a
    /// time.
    @inline(__always)
    static func darkLanes(
        sums: UnsafePointer<Int32>, gray: UnsafePointer<UInt8>, x: Int, radius: Int, area: SIMD8<Int32>,
        bar: SIMD8<Int32>
    ) -> (sums: SIMD8<Int32>, dark: Int32) {
        let ends = UnsafeRawPointer(sums + x + radius + 1).loadUnaligned(as: SIMD8<Int32>.self)
        let starts = UnsafeRawPointer(sums + x - radius).loadUnaligned(as: SIMD8<Int32>.self)
        let sum = ends &- starts
        let grey = SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(gray + x).loadUnaligned(as: SIMD8<UInt8>.self))
        let bits = SIMD8<Int32>(1, 2, 4, 8, 16, 32, 64, 128)
        let dark = SIMD8<Int32>(repeating: 0).replacing(with: bits, where: sum &- grey &* area .> bar)
        return (sum, dark.wrappedSum())
    }

    /// Moves `columns`, the column sums over the rows [low, high), onto the rows [y0, y1)
    /// (rows added below and taken away above, neither range going back up the page) and
    /// writes their prefix sums along the row into `prefix` (`prefix[x]` sums columns 0..<x).
    @inline(__always)
    static func slideWindow<Sum: FixedWidthInteger>(
        columns c: UnsafeMutableBufferPointer<Sum>, prefix s: UnsafeMutableBufferPointer<Sum>,
        gray g: UnsafeBufferPointer<UInt8>, width: Int, rows low: inout Int, _ high: inout Int, to y0: Int, _ y1: Int
    ) {
        while high < y1 {
            for x in 0..<width { c[x] &+= Sum(g[high * width + x]) }
            high += 1
        }
        while low < y0 {
            for x in 0..<width { c[x] &-= Sum(g[low * width + x]) }
            low += 1
        }
        s[0] = 0
        for x in 0..<width { s[x + 1] = s[x] &+ c[x] }
    }

    /// `inkPoints` with its window sums in `Sum`s, which must hold 255 x width x height.
    /// The points are written into arrays made at their largest size (pages past the last
    /// point are never touched) rather than appended one by one (docs/benchmarks.md, "Real
    /// scans: where the excess over the independent floor lies").
    ///
    /// The window sums come from running column sums over the window's rows (one row added
    /// and one taken away as the window moves down) and their prefix sums along the row: the
    /// same exact sums as an integral image of the whole page, from two rows of memory.
    static func inkPoints<Sum: FixedWidthInteger>(
        gray: [UInt8], width: Int, height: Int, contrast: Int, weightCap: Float, sums: Sum.Type
    ) -> (xs: [Float], ys: [Float], weights: [Float]) {
        let radius = max(4, min(width, height) / 48)
        // The outermost pixels are skipped: resampling leaves them slightly off, and a
        // straight row of them is an axis-aligned "line" that pulls the angle to 0.
        let edge = 3
        let capacity = max(0, (height - 2 * edge) * (width - 2 * edge))
        var found = 0
        func collect(
            _ xs: UnsafeMutableBufferPointer<Float>, _ ys: UnsafeMutableBufferPointer<Float>,
            _ weights: UnsafeMutableBufferPointer<Float>
        ) {
            var n = 0  // a local count: the captured `found` is reloaded after every store
            var columns = [Sum](repeating: 0, count: width)  // over the window's rows [low, high)
            var prefix = [Sum](repeating: 0, count: width + 1)  // of `columns`
            var low = 0, high = 0
            gray.withUnsafeBufferPointer { g in
                columns.withUnsafeMutableBufferPointer { c in
                    prefix.withUnsafeMutableBufferPointer { s in
                        // Columns whose window lies wholly inside the image, [inner, outer): one
                        // window width for all of them and no clamping (the same points).
                        let inner = min(max(edge, radius), width - edge)
                        let outer = max(inner, min(width - edge, width - radius))
                        for y in Swift.stride(from: edge, to: height - edge, by: 1) {
                            let y0 = max(0, y - radius), y1 = min(height, y + radius + 1)
                            slideWindow(columns: c, prefix: s, gray: g, width: width, rows: &low, &high, to: y0, y1)
                            let row = y * width
                            @inline(__always) func keep(_ x: Int, sum: Int, area: Int) {
                                let darkness = sum - Int(g[row + x]) * area
                                guard darkness > contrast * area else { return }
                                // A fixed sub-pixel dither (golden-ratio and silver-ratio sequences)
                                // so that the points of one pixel row (or column, for the column
                                // search) do not all land on the same bin phase at 0 degrees, where
                                // linear binning would make the score peak.
                                let k = Double(n + 1)
                                // The fraction as x - trunc(x), exact and equal to fmodf(x, 1) for
                                // x >= 0, which was 40 % of this function's time.
                                let fy = Float(k * 0.6180339887), fx = Float(k * 0.4142135624)
                                xs[n] = Float(x) + (fx - fx.rounded(.towardZero)) - 0.5
                                ys[n] = Float(y) + (fy - fy.rounded(.towardZero)) - 0.5
                                // Grey-level weight keeps the sub-pixel position of anti-aliased
                                // edges, so near-zero angles are not pulled onto the pixel grid.
                                weights[n] = min(weightCap, Float(darkness) / Float(area))
                                n += 1
                            }
                            @inline(__always) func clamped(_ x: Int) {
                                let x0 = max(0, x - radius), x1 = min(width, x + radius + 1)
                                let sum = Int(s[x1]) - Int(s[x0])
                                keep(x, sum: sum, area: (y1 - y0) * (x1 - x0))
                            }
                            for x in edge..<inner { clamped(x) }
                            let area = (y1 - y0) * (2 * radius + 1)
                            var x = inner
                            if Sum.self == Int32.self {
                                // Most pixels are not ink: `inkLanes` columns tested at once, and
                                // only those that pass visited, in order (the same points).
                                let sums = UnsafeRawPointer(s.baseAddress!).assumingMemoryBound(to: Int32.self)
                                let lanesArea = SIMD8<Int32>(repeating: Int32(area))
                                let bar = SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: contrast * area))
                                while x + inkLanes <= outer {
                                    let (sum, dark) = darkLanes(
                                        sums: sums, gray: g.baseAddress! + row, x: x, radius: radius, area: lanesArea,
                                        bar: bar)
                                    var mask = dark
                                    while mask != 0 {
                                        let lane = mask.trailingZeroBitCount
                                        keep(x + lane, sum: Int(sum[lane]), area: area)
                                        mask &= mask - 1
                                    }
                                    x += inkLanes
                                }
                            }
                            for x in x..<outer {
                                let x0 = x - radius, x1 = x + radius + 1
                                let sum = Int(s[x1]) - Int(s[x0])
                                keep(x, sum: sum, area: area)
                            }
                            for x in outer..<(width - edge) { clamped(x) }
                        }
                    }
                }
            }
            found = n
        }
        var xs: [Float] = [], ys: [Float] = [], weights: [Float] = []
        xs = [Float](unsafeUninitializedCapacity: capacity) { xb, xCount in
            ys = [Float](unsafeUninitializedCapacity: capacity) { yb, yCount in
                weights = [Float](unsafeUninitializedCapacity: capacity) { wb, wCount in
                    collect(xb, yb, wb)
                    wCount = found
                }
                yCount = found
            }
            xCount = found
        }
        return (xs, ys, weights)
    }

    /// Profiles `sharpness` fills at once, point i going to profile i mod `scatterLanes`, then
    /// summed: the points of one text row fall into the same bin one after the other, and with
    /// one profile each add waited for the previous add's store to that bin. The loop and the
    /// sum are written out for four.
    static let scatterLanes = 4

    /// Points `scatter` works out at a time before adding them to the profiles.
    static let scatterBlock = 256

    /// Adds the read points (every `pointStride`-th of `count`) into `scatterLanes` profiles
    /// interleaved in `h` (bin k of lane j at k * lanes + j), the j-th point read going to lane
    /// j mod `scatterLanes`: a block of points' bins and shares first, in a loop the compiler
    /// runs several points at a time, then their adds in the points' order (the same sums, made
    /// in the same order, as adding each point as it is worked out).
    @inline(__always)
    static func scatter(
        xs: UnsafeBufferPointer<Float>, ys: UnsafeBufferPointer<Float>, weights: UnsafeBufferPointer<Float>,
        count: Int, pointStride: Int, c: Float, s: Float, offset: Float, into h: UnsafeMutablePointer<Float>
    ) {
        let n = (count + pointStride - 1) / pointStride
        let block = scatterBlock
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: block) { at in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 5 * block) { parts in
                let low = parts.baseAddress!, high = low + block
                let at = at.baseAddress!
                // Read points with a stride are first copied together.
                let gx = high + block, gy = gx + block, gw = gy + block
                var start = 0
                while start < n {
                    let m = min(block, n - start)
                    var x = xs.baseAddress! + start, y = ys.baseAddress! + start, w = weights.baseAddress! + start
                    if pointStride != 1 {
                        for j in 0..<m {
                            let i = (start &+ j) &* pointStride
                            gx[j] = xs[i]
                            gy[j] = ys[i]
                            gw[j] = weights[i]
                        }
                        (x, y, w) = (UnsafePointer(gx), UnsafePointer(gy), UnsafePointer(gw))
                    }
                    for j in 0..<m {
                        let f = y[j] * c + x[j] * s + offset
                        // f's whole part as Int(f) takes it (f lies in [0, 2^22): the profile has
                        // far fewer bins): f + 2^23 rounds to a whole number, one too many where
                        // it rounded up. No conversion that can trap: the loop runs several
                        // points at once.
                        let t = f + 0x1p23
                        let up = t - 0x1p23 > f
                        let whole = (t - 0x1p23) - (up ? 1 : 0)
                        let frac = (f - whole) * w[j]
                        at[j] = (Int32(bitPattern: t.bitPattern) &- 0x4B00_0000 &- (up ? 1 : 0)) &* 4
                        low[j] = w[j] - frac
                        high[j] = frac
                    }
                    // `block` is a multiple of 4: point start + j goes to lane j mod 4.
                    var j = 0
                    while j + 4 <= m {
                        let a0 = Int(at[j]), a1 = Int(at[j + 1]) &+ 1, a2 = Int(at[j + 2]) &+ 2,
                            a3 = Int(at[j + 3]) &+ 3
                        h[a0] += low[j]
                        h[a0 &+ 4] += high[j]
                        h[a1] += low[j + 1]
                        h[a1 &+ 4] += high[j + 1]
                        h[a2] += low[j + 2]
                        h[a2 &+ 4] += high[j + 2]
                        h[a3] += low[j + 3]
                        h[a3 &+ 4] += high[j + 3]
                        j += 4
                    }
                    while j < m {
                        let a = Int(at[j]) &+ (j & 3)
                        h[a] += low[j]
                        h[a &+ 4] += high[j]
                        j += 1
                    }
                    start += m
                }
            }
        }
    }

    /// Sharpness of the projection profile of `points` along lines rising at `degrees`
    /// (counter-clockwise as displayed): the sum of squared bin counts, with each point split
    /// linearly between its two nearest bins so the score varies smoothly with the angle.
    /// The profile is left in `bins`' first bins (scattered into `scatterLanes` profiles and
    /// summed, so its sums are not made in the points' order).
    /// - Complexity: O(points + bins).
    static func sharpness(
        xs: UnsafeBufferPointer<Float>, ys: UnsafeBufferPointer<Float>,
        weights: UnsafeBufferPointer<Float>, count: Int,
        pointStride: Int, degrees: Double, binSize: Float,
        width: Int, height: Int, bins: inout [Float]
    ) -> Double {
        let radians = degrees * .pi / 180
        let c = Float(cos(radians)) / binSize, s = Float(sin(radians)) / binSize
        // y' = y cos a + x sin a stays constant along a line rising to the right at angle a.
        let offset = -min(0, s * Float(width - 1)) + 4
        let binCount = Int((Float(height) * abs(c) + Float(width) * abs(s)).rounded(.up)) + 10
        if bins.count < binCount { bins = [Float](repeating: 0, count: binCount) }
        var total = 0.0
        let lanes = scatterLanes
        bins.withUnsafeMutableBufferPointer { b in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: binCount * lanes) { h in
                // Bin k of lane j at k * lanes + j: a point's two bins lie close together.
                h.initialize(repeating: 0)
                scatter(
                    xs: xs, ys: ys, weights: weights, count: count, pointStride: pointStride, c: c, s: s,
                    offset: offset, into: h.baseAddress!)
                for k in 0..<binCount {
                    let at = k * lanes
                    b[k] = (h[at] + h[at + 1]) + (h[at + 2] + h[at + 3])
                }
            }
            // Energy of the profile's steps rather than of its bins: a picture or a block of
            // dense print adds a broad hump whose sum of squares barely changes over a degree
            // or so, and on a two-column page with pictures it can outweigh the text lines'
            // peaks (0.47 degree off; `RealScanSkewTests` pins the real scans within 0.3); the
            // steps are where lines start and end.
            var sum: Float = 0
            var previous: Float = 0
            for i in 0..<binCount {
                let step = b[i] - previous
                sum += step * step
                previous = b[i]
            }
            total = Double(sum)
        }
        return total
    }

    /// The number of separate lines in a projection profile: runs of bins standing above
    /// 30 % of the way from the median bin to the highest (after a 1-2-1 smoothing).
    /// - Complexity: O(bins log bins).
    static func lineCount(profile: [Float]) -> Int {
        guard profile.count >= 3 else { return 0 }
        var smooth = [Float](repeating: 0, count: profile.count)
        for i in 1..<(profile.count - 1) { smooth[i] = (profile[i - 1] + 2 * profile[i] + profile[i + 1]) / 4 }
        let sorted = smooth.filter { $0 > 0 }.sorted()
        guard let top = sorted.last else { return 0 }
        let median = sorted[sorted.count / 2]
        let level = median + 0.3 * (top - median)
        var runs = 0
        var inside = false
        for v in smooth {
            if v > level && !inside { runs += 1 }
            inside = v > level
        }
        return runs
    }

    /// The skew of the ink of a small grey page, with a confidence from the peak's prominence.
    ///
    /// Both the rows and the columns of the page are searched: a page lying a quarter turn
    /// round (its text lines running up or down, as scanned sideways) has no horizontal lines
    /// at all, and a row search finds a confident false angle on it (0.37 degree on
    /// tesseract's phototest turned 90). Its skew is that of its columns, the same angle once
    /// the page is turned upright. When the rows read under `ruledBelow`, faint long rules
    /// are looked for (`ruledEstimate`): sparse handwriting on ruled paper.
    /// - Complexity: O(width x height + angles x ink points), about 320 angles in all: 180
    ///   on a few thousand points with 8 px bins, the rest on the coarse curve around their
    ///   peaks and finer (the whole coarse curve took 540; docs/benchmarks.md, "The skew
    ///   search coarse to fine").
    /// - Parameter fullSearch: compute the whole coarse curve rather than only around the first
    ///   pass's peaks (`Projection.narrowedCurve`), for comparing the two.
    package static func estimate(gray: [UInt8], width: Int, height: Int, fullSearch: Bool = false) -> SkewEstimate {
        guard width >= 16, height >= 16, gray.count >= width * height else { return .none }
        let (xs, ys, ws) = inkPoints(gray: gray, width: width, height: height)
        let count = xs.count
        if Double(count) < minimumInkShare * Double(width * height) || count < 64 { return .none }

        return xs.withUnsafeBufferPointer { xp in
            ys.withUnsafeBufferPointer { yp in
                ws.withUnsafeBufferPointer { wp in
                    let rows = Projection(xs: xp, ys: yp, weights: wp, count: count, width: width, height: height)
                    // The columns are the rows of the transposed page; transposing mirrors the
                    // page, so an angle found there is the opposite turn.
                    let columns = Projection(xs: yp, ys: xp, weights: wp, count: count, width: height, height: width)
                    // The columns are only looked at every other coarse angle (their peak is broad
                    // enough at 2 px bins) unless they win, which halves their cost.
                    let rowCurve = rows.curve(full: fullSearch)
                    guard let rowMax = rowCurve.max(),
                        let columnMax = columns.curve(every: 2, full: fullSearch).max()
                    else { return .none }
                    if columnMax > columnsWin * rowMax {
                        let found = columns.estimate(coarse: columns.curve(full: fullSearch))
                        return SkewEstimate(
                            degrees: found.degrees == 0 ? 0 : -found.degrees, confidence: found.confidence)
                    }
                    let found = rows.estimate(coarse: rowCurve)
                    if found.confidence < ruledBelow {
                        let (ruled, lines) = ruledEstimate(
                            gray: gray, width: width, height: height, fullSearch: fullSearch)
                        if lines >= ruledMinimumLines, ruled.confidence > found.confidence { return ruled }
                    }
                    guard width > height, found.confidence >= minimumConfidence,
                        hasGutter(xs: xp, weights: wp, width: width)
                    else { return found }
                    return twoPagesCheck(
                        found, xs: xp, ys: yp, weights: wp, width: width, height: height, fullSearch: fullSearch)
                }
            }
        }
    }

    /// Whether the text lines of a small grey page run up or down rather than across: its ink's
    /// columns line up more sharply than its rows by `margin` (`columnsWin`, as `estimate`
    /// decides, unless asked for more) at angles within +/-`range` degrees: a page lying a
    /// quarter turn round.
    /// - Complexity: O(width x height + angles x ink points), about 250 angles over the whole
    ///   search range (the coarse curves narrowed as `estimate` narrows them; 540 whole), 26
    ///   within 2 degrees.
    /// - Parameter fullSearch: compute the whole coarse curves, for comparing.
    package static func linesRunDown(
        gray: [UInt8], width: Int, height: Int, margin: Double = columnsWin,
        within range: Double = searchRange, fullSearch: Bool = false
    ) -> Bool {
        guard width >= 16, height >= 16, gray.count >= width * height else { return false }
        let (xs, ys, ws) = inkPoints(gray: gray, width: width, height: height)
        guard Double(xs.count) >= minimumInkShare * Double(width * height), xs.count >= 64 else { return false }
        return xs.withUnsafeBufferPointer { xp in
            ys.withUnsafeBufferPointer { yp in
                ws.withUnsafeBufferPointer { wp in
                    let rows = Projection(xs: xp, ys: yp, weights: wp, count: xs.count, width: width, height: height)
                    let columns = Projection(xs: yp, ys: xp, weights: wp, count: xs.count, width: height, height: width)
                    // Only the whole range has a narrowed curve; within 2 degrees is cheap already.
                    let narrowed = range >= searchRange && !fullSearch
                    guard
                        let rowMax = (narrowed ? rows.narrowedCurve() : rows.coarseCurve(within: range)).max(),
                        let columnMax =
                            (narrowed
                            ? columns.narrowedCurve(every: 2) : columns.coarseCurve(every: 2, within: range)).max()
                    else {
                        return false
                    }
                    return columnMax > margin * rowMax
                }
            }
        }
    }

    /// Below this confidence the text's own estimate gives too little, and faint ruled lines
    /// are looked for (`ruledEstimate`): the confidence a page filling the frame needs to be
    /// turned (`PageAnalyzer.fillsFrameMinimumConfidence`).
    static let ruledBelow = 0.3
    /// Separate lines the ruled pass's profile must show at its angle: ruled paper has 30-odd
    /// rules down a page, and a picture's few edges (a colour plate: 6) are no ruling.
    static let ruledMinimumLines = 15
    /// Grey levels under the neighbourhood's mean a faint rule's pixel stands, at least: blue
    /// rules on white read 14-17 in the 1024 px grey copy of a 300 dpi scan, under `inkContrast`.
    static let ruledContrast = 6
    /// Weight of every ruled-pass point, at most: a rule's faint pixels count as much as dark
    /// handwriting's, so the long lines, not the few strokes, shape the profile.
    static let ruledWeightCap: Float = 12
    /// Largest difference between the rules' angles in the page's top and bottom halves: a
    /// flat sheet's rules are parallel (two note scans' halves: 0.014 and 0.009 apart), a page
    /// photographed at a slant has them fan out (`rulesFanningOutAreNoFlatSheet`).
    static let ruledHalvesTolerance = 0.2

    /// The skew of faint long lines across the page (ruled paper's rules) when the ink alone
    /// gives too little: sparse handwriting on a ruled sheet has a few strokes, and its rules
    /// are too faint in grey for `inkContrast`. The rules are long, so their projection peaks
    /// sharply even at a low contrast, where the paper's grain adds only a flat floor.
    /// - Parameters:
    ///   - contrast: as `inkPoints`' (`ruledContrast`; other values to compare).
    ///   - weightCap: as `inkPoints`' (`ruledWeightCap`; other values to compare).
    /// - Returns: the estimate along the rows of the faint points (none when the rules of the
    ///   page's top and bottom halves disagree by more than `ruledHalvesTolerance`), and the
    ///   number of separate lines (`lineCount`) in their profile at its angle.
    /// - Complexity: as `estimate`'s row search, on up to a few times its points.
    static func ruledEstimate(
        gray: [UInt8], width: Int, height: Int, fullSearch: Bool = false,
        contrast: Int = ruledContrast, weightCap: Float = ruledWeightCap
    ) -> (estimate: SkewEstimate, lines: Int) {
        let (xs, ys, ws) = inkPoints(gray: gray, width: width, height: height, contrast: contrast, weightCap: weightCap)
        guard xs.count >= 64 else { return (.none, 0) }
        return xs.withUnsafeBufferPointer { xp in
            ys.withUnsafeBufferPointer { yp in
                ws.withUnsafeBufferPointer { wp in
                    let rows = Projection(xs: xp, ys: yp, weights: wp, count: xs.count, width: width, height: height)
                    let found = rows.estimate(coarse: rows.curve(full: fullSearch))
                    var bins: [Float] = []
                    _ = rows.score(found.degrees, stride: 1, bin: 1, bins: &bins)
                    let lines = lineCount(profile: bins)
                    guard lines >= ruledMinimumLines, found.confidence >= minimumConfidence else {
                        return (found, lines)
                    }
                    // A sheet lying flat on the glass has parallel rules; a photographed page's
                    // fan out with the perspective, and a turn would straighten none of them.
                    let halves = [true, false].map { top in
                        halfEstimate(xs: xp, ys: yp, weights: wp, top: top, width: width, height: height)
                    }
                    guard halves.allSatisfy({ $0.confidence >= minimumConfidence }),
                        abs(halves[0].degrees - halves[1].degrees) <= ruledHalvesTolerance
                    else { return (SkewEstimate(degrees: 0, confidence: 0), lines) }
                    return (found, lines)
                }
            }
        }
    }

    /// The row estimate of the points in the top (or bottom) half of the page, read alone.
    static func halfEstimate(
        xs: UnsafeBufferPointer<Float>, ys: UnsafeBufferPointer<Float>, weights: UnsafeBufferPointer<Float>,
        top: Bool, width: Int, height: Int
    ) -> SkewEstimate {
        let half = Float(height) / 2
        var hx: [Float] = [], hy: [Float] = [], hw: [Float] = []
        for i in 0..<xs.count where (ys[i] < half) == top {
            hx.append(xs[i]); hy.append(top ? ys[i] : ys[i] - half); hw.append(weights[i])
        }
        guard hx.count >= 64 else { return .none }
        return hx.withUnsafeBufferPointer { px in
            hy.withUnsafeBufferPointer { py in
                hw.withUnsafeBufferPointer { pw in
                    let side = Projection(
                        xs: px, ys: py, weights: pw, count: hx.count, width: width, height: height - Int(half))
                    return side.estimate(coarse: side.curve(full: false))
                }
            }
        }
    }

    /// A landscape page with a gutter may be an open book: two pages that need not lie at the same angle
    /// (scanned spreads at -0.8 and 2.6 degrees; pinned by `ScanDeskewTests`' spread halves). Each half is measured on its own; when both
    /// read confidently and differ by more than `spreadTolerance`, there is no one angle that
    /// straightens the page, and turning it by either would tilt the other page further, so
    /// the estimate is returned as unsure (0 degrees, low confidence). When they agree, their
    /// mean is the angle.
    private static func twoPagesCheck(
        _ found: SkewEstimate, xs: UnsafeBufferPointer<Float>,
        ys: UnsafeBufferPointer<Float>, weights: UnsafeBufferPointer<Float>,
        width: Int, height: Int, fullSearch: Bool
    ) -> SkewEstimate {
        let half = Float(width) / 2
        var halves: [SkewEstimate] = []
        for left in [true, false] {
            var hx: [Float] = [], hy: [Float] = [], hw: [Float] = []
            for i in 0..<xs.count where (xs[i] < half) == left {
                hx.append(left ? xs[i] : xs[i] - half); hy.append(ys[i]); hw.append(weights[i])
            }
            guard hx.count >= 64 else { return found }
            let estimate = hx.withUnsafeBufferPointer { px in
                hy.withUnsafeBufferPointer { py in
                    hw.withUnsafeBufferPointer { pw in
                        let side = Projection(
                            xs: px, ys: py, weights: pw, count: hx.count, width: width - Int(half), height: height)
                        return side.estimate(coarse: side.curve(full: fullSearch))
                    }
                }
            }
            halves.append(estimate)
        }
        guard halves.allSatisfy({ $0.confidence >= minimumConfidence }) else { return found }
        if abs(halves[0].degrees - halves[1].degrees) > spreadTolerance {
            return SkewEstimate(degrees: 0, confidence: min(found.confidence, minimumConfidence / 2))
        }
        // Two blocks of lines side by side whose baselines do not line up across the gutter
        // pull the whole page's profile towards the angle that joins them (0.24 degree off on
        // two pages both at 1.8); each half alone reads its own lines.
        let mean = (halves[0].degrees + halves[1].degrees) / 2
        return SkewEstimate(degrees: (mean * 1000).rounded() / 1000, confidence: found.confidence)
    }

    /// Whether the ink has a gutter: a vertical band in the middle fifth of the page that holds
    /// under a quarter of the ink of a typical column band (text lines do not cross it, as
    /// they do on a single page, even a wide one; `PageSplitterTests.realSpreadsSplitAndSinglePagesStayWhole`). A headline
    /// running across both pages only darkens the band a little.
    static func hasGutter(xs: UnsafeBufferPointer<Float>, weights: UnsafeBufferPointer<Float>, width: Int) -> Bool {
        let bands = 50
        var ink = [Double](repeating: 0, count: bands)
        for i in 0..<xs.count {
            ink[min(bands - 1, max(0, Int(xs[i] * Float(bands) / Float(width))))] += Double(weights[i])
        }
        let typical = ink.sorted()[bands * 3 / 4]
        guard typical > 0 else { return false }
        return ink[(bands * 2 / 5)...(bands * 3 / 5)].min()! < 0.25 * typical
    }

    /// Largest difference between the two halves of a landscape page still read as one angle.
    static let spreadTolerance = 0.5

    /// The ink points of one page and the projection search along its rows.
    struct Projection {
        let xs: UnsafeBufferPointer<Float>, ys: UnsafeBufferPointer<Float>, weights: UnsafeBufferPointer<Float>
        let count: Int, width: Int, height: Int
        static let coarseStep = 0.25
        static var coarseAngles: [Double] { coarseAngles(within: searchRange) }
        static func coarseAngles(within range: Double) -> [Double] {
            let steps = Int(range / coarseStep)
            return (-steps...steps).map { Double($0) * coarseStep }
        }

        func score(_ degrees: Double, stride: Int, bin: Float, bins: inout [Float]) -> Double {
            sharpness(
                xs: xs, ys: ys, weights: weights, count: count, pointStride: stride, degrees: degrees,
                binSize: bin, width: width, height: height, bins: &bins)
        }

        /// Coarse: a subsample of at most ~10k points, 2 px bins, 0.25 degree steps (or every
        /// `every`-th of those angles) within +/-`range` degrees.
        func coarseCurve(every: Int = 1, within range: Double = searchRange) -> [Double] {
            var bins: [Float] = []
            let angles = Self.coarseAngles(within: range)
            return thinned(max(1, count / 10_000)) { points in
                Swift.stride(from: 0, to: angles.count, by: every).map {
                    points.score(angles[$0], stride: 1, bin: 2, bins: &bins)
                }
            }
        }

        /// `body` on every `stride`-th point of this projection copied together (on this
        /// projection itself when `stride` is 1): a pass reads the same points in the same
        /// order at stride 1 there, at every angle, from memory a `stride`-th the size.
        func thinned<Result>(_ stride: Int, _ body: (Projection) -> Result) -> Result {
            guard stride > 1 else { return body(self) }
            let n = (count + stride - 1) / stride
            return withUnsafeTemporaryAllocation(of: Float.self, capacity: 3 * n) { copy in
                let base = copy.baseAddress!
                for j in 0..<n {
                    base[j] = xs[j * stride]
                    base[n + j] = ys[j * stride]
                    base[2 * n + j] = weights[j * stride]
                }
                return body(
                    Projection(
                        xs: UnsafeBufferPointer(start: base, count: n),
                        ys: UnsafeBufferPointer(start: base + n, count: n),
                        weights: UnsafeBufferPointer(start: base + 2 * n, count: n), count: n, width: width,
                        height: height))
            }
        }

        /// Angle step of the second pass (1 px bins), in degrees. It only picks the angle the
        /// last pass (0.01 degree steps, `finestLimit` either side) starts from, so it need not
        /// be finer than that pass can reach: at half this step the 1 px pass read twice the
        /// angles for the same answers (docs/benchmarks.md, "The skew search's 1 px pass at
        /// 0.1 degree"; `SkewEstimatorFinestTests` pins the two steps together).
        static let fineStep = 0.1
        /// Steps the second pass looks either side of a coarse peak: the coarse step and then some.
        static let fineReach = 3
        /// Steps the second pass may climb beyond its window while the score rises: 2 degrees,
        /// far more than the 1 px and 2 px curves' peaks were seen apart (0.5).
        static let fineClimbSteps = 20

        /// Bin size of the first pass, in copy pixels: 4 times the coarse curve's 2 px, so the
        /// first pass can step a whole degree without stepping over a peak that is about 0.15
        /// degree wide at 2 px. Not wider: bins as wide as a line's pitch rank the angles by the
        /// lines' phase in the bins instead of their alignment (`narrowedSearchFindsTheWholeCurvesAngle`;
        /// docs/benchmarks.md, the skew search coarse to fine).
        static let firstBin: Float = 8
        /// Angle step of the first pass, in degrees (a whole number of `coarseStep`s).
        static let firstStep = 1.0
        /// Points the first pass reads at most: its wide bins need fewer to rank the angles.
        static let firstPoints = 5_000
        /// Every how many-th ink point the first pass reads so that it reads at most
        /// `firstPoints` of `count` (rounded up: rounded down it read up to twice as many).
        static func firstStride(count: Int) -> Int { max(1, (count + firstPoints - 1) / firstPoints) }
        /// First-pass peaks followed into the coarse curve, best first: more than the three
        /// `estimate(coarse:)` refines, as the wide bins can rank close peaks differently.
        static let firstPeaks = 6
        /// First-pass peaks under this share of its highest are not followed.
        static let firstPeakShare = 0.5
        /// How far either side of a first-pass peak the coarse curve is computed, in degrees,
        /// before it is climbed on: two blocks of lines turned a degree apart read as one
        /// first-pass peak, and the reach must cover both of them.
        static let followReach = 2.0

        /// The coarse curve (`coarseCurve(every:)`'s angles, bins and points, so the same
        /// values) computed only where it can peak: a first pass every `firstStep` degrees with
        /// `firstBin` px bins finds the candidate angles, and from each the coarse curve is
        /// climbed to its local maximum (`followReach` either side, then on while it rises).
        /// Angles not computed are -infinity.
        func narrowedCurve(every: Int = 1) -> [Double] {
            var bins: [Float] = []
            let angles = Self.coarseAngles
            let n = angles.count
            var curve = [Double](repeating: -.infinity, count: n)
            let ratio = Int((Self.firstStep / Self.coarseStep).rounded())
            let firstIndices = Array(Swift.stride(from: 0, to: n, by: ratio))
            let first = thinned(Self.firstStride(count: count)) { points in
                firstIndices.map { points.score(angles[$0], stride: 1, bin: Self.firstBin, bins: &bins) }
            }
            guard !first.isEmpty else { return [] }
            return thinned(max(1, count / 10_000)) { points in
                func value(_ i: Int) -> Double {
                    if curve[i] == -.infinity { curve[i] = points.score(angles[i], stride: 1, bin: 2, bins: &bins) }
                    return curve[i]
                }
                points.follow(first, from: firstIndices, every: every, value: value)
                return every == 1 ? curve : Swift.stride(from: 0, to: n, by: every).map { curve[$0] }
            }
        }

        /// `narrowedCurve`'s climbs: the coarse curve (`value` at an index of `coarseAngles`)
        /// from each of the first pass's best peaks (`first`, at `firstIndices`) to its local
        /// maximum, `followReach` either side and then on while it rises.
        func follow(_ first: [Double], from firstIndices: [Int], every: Int, value: (Int) -> Double) {
            let n = Self.coarseAngles.count
            guard let firstMax = first.max() else { return }
            var seeds: [Int] = []
            for i in first.indices where first[i] >= Self.firstPeakShare * firstMax {
                if (i == 0 || first[i] >= first[i - 1]) && (i + 1 == first.count || first[i] >= first[i + 1]) {
                    seeds.append(i)
                }
            }
            seeds.sort { first[$0] > first[$1] }
            for seed in seeds.prefix(Self.firstPeaks) {
                // Indices on `every`'s grid (the first pass's are: `ratio` is a multiple of 2).
                let reach = Int((Self.followReach / Self.coarseStep).rounded())
                var lo = max(0, firstIndices[seed] - reach), hi = min(n - 1, firstIndices[seed] + reach)
                lo -= lo % every
                hi -= hi % every
                for i in Swift.stride(from: lo, through: hi, by: every) { _ = value(i) }
                while true {
                    let best = Swift.stride(from: lo, through: hi, by: every).max { value($0) < value($1) }!
                    if best == lo && lo - every >= 0 {
                        lo -= every
                    } else if best == hi && hi + every < n {
                        hi += every
                    } else {
                        break
                    }
                }
            }
        }

        /// The coarse curve, narrowed (`narrowedCurve`) unless `full`.
        func curve(every: Int = 1, full: Bool) -> [Double] {
            full ? coarseCurve(every: every) : narrowedCurve(every: every)
        }

        /// The peak of the 1 px curve near the coarse curve's best peaks (`fineReach` steps of
        /// `fineStep` either side of each), to 0.01 degree (`finestReach` steps either side of
        /// the best) and a parabolic fit. An angle is scored once, however many windows hold it.
        /// - Parameters:
        ///   - reach: 0.01 degree steps read either side before following the rise
        ///     (`finestReach`; `finestLimit` reads them all, for comparing).
        ///   - step: the second pass's angle step (`fineStep`; others to compare), which must
        ///     divide the window's width and the coarse step into whole steps of 0.01 or more.
        func finePeak(
            coarse: [Double], coarseMax: Double, stride fineStride: Int, reach: Int = finestReach,
            step: Double = fineStep, bins: inout [Float]
        ) -> Double {
            var memo: [Double: Double] = [:]
            func score(_ degrees: Double) -> Double {
                if let known = memo[degrees] { return known }
                let value = self.score(degrees, stride: fineStride, bin: 1, bins: &bins)
                memo[degrees] = value
                return value
            }
            let coarseAngles = Self.coarseAngles
            // Local maxima of the coarse curve, best first; refine the top three. A narrowed
            // curve's angles left out (-infinity) are no one's neighbours: an angle next to
            // one is not known to be a maximum.
            var peaks: [Int] = []
            for i in coarse.indices where coarse[i].isFinite {
                let left = i > 0 ? coarse[i - 1] : -Double.infinity
                let right = i + 1 < coarse.count ? coarse[i + 1] : -Double.infinity
                if (i > 0 && !left.isFinite) || (i + 1 < coarse.count && !right.isFinite) { continue }
                if coarse[i] >= left && coarse[i] >= right { peaks.append(i) }
            }
            peaks.sort { coarse[$0] > coarse[$1] }
            var best = (angle: 0.0, value: -Double.infinity)
            // The side of its window the best lies on (-1, +1), 0 inside it.
            var edge = 0
            // The window's reach and the climb's limit in `step`s: as wide in degrees whatever the step.
            let windowSteps = Int((Double(Self.fineReach) * Self.fineStep / step).rounded())
            let climbSteps = Int((Double(Self.fineClimbSteps) * Self.fineStep / step).rounded())
            for p in peaks.prefix(3) where coarse[p] >= 0.8 * coarseMax {
                let centre = coarseAngles[p]
                for k in -windowSteps...windowSteps {
                    let a = centre + Double(k) * step
                    let v = score(a)
                    if v > best.value { (best, edge) = ((a, v), abs(k) == windowSteps ? k.signum() : 0) }
                }
            }
            // A best on its window's edge is no peak: the 1 px curve can peak further out than
            // the 2 px coarse one (a two-column page: 0.5 degree apart), so climb on while it rises.
            var climbed = 0
            while edge != 0, climbed < climbSteps {
                let a = best.angle + Double(edge) * step
                let v = score(a)
                guard v > best.value else { break }
                best = (a, v)
                climbed += 1
            }
            // Finest: 0.01 degree steps around the best, then a parabola through the peak.
            // Read `finestReach` steps either side first, and on (up to `finestLimit`) while
            // the best lies on an end.
            let centre = best.angle
            func finest(_ k: Int) -> Double { centre + Double(k) * 0.01 }
            var lo = -reach, hi = reach
            var fine = (lo...hi).map { $0 == 0 ? best.value : score(finest($0)) }
            while true {
                let top = fine.indices.max { fine[$0] < fine[$1] }!
                if top == 0, lo > -Self.finestLimit {
                    lo -= 1
                    fine.insert(score(finest(lo)), at: 0)
                } else if top == fine.count - 1, hi < Self.finestLimit {
                    hi += 1
                    fine.append(score(finest(hi)))
                } else {
                    break
                }
            }
            let fineAngles = (lo...hi).map(finest)
            var i = fine.indices.max { fine[$0] < fine[$1] }!
            i = min(max(i, 1), fine.count - 2)
            var angle = fineAngles[i]
            let (l, m, r) = (fine[i - 1], fine[i], fine[i + 1])
            let curvature = l - 2 * m + r
            if curvature < 0 {
                angle += 0.01 * max(-1, min(1, 0.5 * (l - r) / curvature))
            }
            return angle
        }

        /// 0.01 degree steps the last pass first looks either side of the best `fineStep` angle:
        /// half a `fineStep`, every angle nearer to it than to the steps either side. The 1 px
        /// curve can have two tops a few hundredths apart between two steps (faint rules under
        /// grain, `SkewEstimatorRuledTests`), and a shorter read stops on the lower one.
        static let finestReach = 5
        /// The furthest the last pass goes either side while its best lies on an end: two steps
        /// past `finestReach`, so a top on its end has a point beyond it for the parabola (the
        /// same angles as reading all of them whenever the curve rises to its top and falls
        /// after it).
        static let finestLimit = 7

        /// The angle near the coarse curve's best peaks (`finePeak`) and its confidence, the
        /// 1 px passes reading every `count / 60_000`-th point (`thinned`).
        func estimate(coarse: [Double]) -> SkewEstimate {
            thinned(max(1, count / 60_000)) { $0.estimateOnEveryPoint(coarse: coarse) }
        }

        /// `estimate` with the 1 px passes reading every point.
        func estimateOnEveryPoint(coarse: [Double]) -> SkewEstimate {
            var bins: [Float] = []
            func score(_ degrees: Double, stride: Int, bin: Float) -> Double {
                self.score(degrees, stride: stride, bin: bin, bins: &bins)
            }
            guard let coarseMax = coarse.max(), coarseMax > 0 else { return .none }
            let fineStride = 1
            let angle = finePeak(coarse: coarse, coarseMax: coarseMax, stride: fineStride, bins: &bins)

            // Confidence from how far the peak stands above angles well away from it, at
            // full resolution (2 px bins blur the small print of dense pages).
            let away = [-12.0, -8, -5, -3, 3, 5, 8, 12].map { score(angle + $0, stride: fineStride, bin: 1) }.sorted()
            let reference = (away[3] + away[4]) / 2
            guard reference > 0 else { return .none }
            // The peak's profile, made once in its own buffer (the line count below reads it
            // whole; the shared one is only ever grown, so its tail would still hold bins of an
            // earlier, wider angle's profile).
            var profile: [Float] = []
            let peak = self.score(angle, stride: fineStride, bin: 1, bins: &profile)
            let ratio = peak / reference
            var confidence = max(0, min(1, (ratio - confidenceFloor) / confidenceSpan))
            // A weak peak must also be narrow: a map or a photo has a broad hump of near-equal
            // scores a degree wide, and where its top falls is noise (a straight colour map
            // read -0.43, scoring 0.74 of the peak 1 degree away; text pages score under 0.45
            // there, a newspaper page of pictures 0.61; `RealScanSkewTests` pins the shared
            // real scans turned right or left alone).
            if ratio < broadPeakRatio {
                let aside = max(
                    score(angle - 1, stride: fineStride, bin: 1), score(angle + 1, stride: fineStride, bin: 1))
                if aside > broadPeakShare * peak { confidence = min(confidence, minimumConfidence / 2) }
            }
            if abs(angle) > searchRange - 0.5 { confidence *= 0.5 }
            // A blank page on a lid still has a sharp profile: its own top and bottom edges.
            // Without at least three separate lines (text, rules, pictures) report nothing.
            if lineCount(profile: profile) < 3 { confidence = min(confidence, minimumConfidence / 2) }
            if confidence < minimumConfidence { return SkewEstimate(degrees: 0, confidence: confidence) }
            return SkewEstimate(degrees: (angle * 1000).rounded() / 1000, confidence: confidence)
        }
    }

    /// Peak-to-reference ratios mapped onto confidence 0...1: `confidenceFloor` and below is 0,
    /// `confidenceFloor + confidenceSpan` and above is 1. Calibrated on the real scans and
    /// pictures of ../shared/data and Tools/accuracy/real-scans: text pages score 5 (a
    /// newspaper page turned 15 degrees) to 160, pictures and motion-blurred photos at most
    /// 2.65, so the `minimumConfidence` line (2.95) sits between them.
    static let confidenceFloor = 2.5
    /// Peaks below this ratio must fall to `broadPeakShare` of their height 1 degree away.
    static let broadPeakRatio = 8.0
    static let broadPeakShare = 0.7
    static let confidenceSpan = 3.0
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
