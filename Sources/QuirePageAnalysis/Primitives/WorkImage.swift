#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The detector's small smoothed working copy: channel planes, colour gradient, thin edges,
/// Hough lines and per-line support profiles.
struct WorkImage {
    let width: Int
    let height: Int
    let channels: Int
    var planes: [[Float]]
    var gx: [Float] = []
    var gy: [Float] = []
    var mag: [Float] = []
    /// Edge threshold on the Sobel magnitude, from the noise level of the image.
    var threshold: Float = WorkImage.minimumEdgeThreshold

    /// The lowest edge threshold on the Sobel magnitude: below it a clean, noise-free copy
    /// would take paper grain for edges.
    static let minimumEdgeThreshold: Float = 10
    /// The edge threshold is this multiple of the median magnitude (the paper's noise and
    /// texture, since most pixels are not on an edge) ...
    static let thresholdMedianMultiple: Float = 3
    /// ... plus this offset, so a very flat image still needs a real step.
    static let thresholdOffset: Float = 4
    /// Every this many pixels feed the magnitude histogram (the median needs no more).
    static let medianSampleStride = 3
    /// tan(67.5 degrees): gradients steeper than this against one axis are suppressed across
    /// that axis; between the two, across a diagonal (non-maximum suppression in 4 directions).
    static let octantSlope: Float = 2.414
    /// How far away (px, on the working copy) an edge of opposite polarity makes a thin bar:
    /// text strokes and printed rules are 2-6 px wide at this scale, a page's side is not.
    static let barWidths: ClosedRange<Float> = 2...6
    /// How strongly that opposite edge must point back (share of this pixel's magnitude).
    static let opposingGradientShare: Float = 0.7
    /// Fewer edge pixels than this and there is nothing to find lines in.
    static let minimumEdgePixels = 20
    /// A pixel votes for angles this many degrees either side of its own gradient direction.
    static let voteAngleSpread = 2
    /// A bar pixel's vote counts this much, so rows of text do not crowd out the page's sides.
    static let barVoteWeight: Float = 0.3
    /// No pixel's vote counts more than this many thresholds, so one high-contrast object does
    /// not outvote a long, fainter page side.
    static let maximumVoteWeight: Float = 3
    /// A line needs votes of at least this share of the copy's short side (a side shorter than
    /// about 6 % of it is not a page's).
    static let minimumVoteShare: Float = 0.06
    /// Peaks are local maxima in a window this many bins either side (5 x 5).
    static let peakWindow = 2
    /// Peaks within this many degrees ...
    static let duplicateDegrees = 3
    /// ... and this many pixels of offset of a kept peak are the same line.
    static let duplicateOffset = 5
    /// The weaker polarity near a peak is fitted as a line of its own when it carries at least
    /// this share of the stronger's weight (a page border and the outer edge of its shadow).
    static let secondPolarityShare = 0.1
    /// Refits this close in direction (cos 3 degrees) ...
    static let collapsedCosine = 0.9986
    /// ... and offset (px) to a kept line collapsed onto it and are dropped.
    static let collapsedOffset = 1.5
    /// A refit starts from the edge pixels within this distance (px) of the peak's line ...
    static let refitFirstBand = 2.5
    /// ... and narrows to this distance for its second and third passes.
    static let refitBand = 1.5
    /// Edge pixels whose gradient is further than about 14 degrees from the line's normal
    /// (cosine under this) belong to something else.
    static let refitAlignment = 0.97
    /// Less total edge weight than this and the refit keeps the peak's line.
    static let minimumRefitWeight = 5.0

    /// The largest block whose sums stay exact in a `Float` (255 x factor² under 2^24), so that
    /// summing in integers first gives the same planes as summing row by row in floats.
    static let largestIntegerSumFactor = 256

    /// Box-averages `factor` x `factor` blocks of the source into float planes (RGB or grey).
    init(pixels: [UInt8], width srcW: Int, height srcH: Int, bands: Int, factor: Int) {
        width = srcW / factor
        height = srcH / factor
        channels = bands >= 3 ? 3 : 1
        planes =
            factor <= Self.largestIntegerSumFactor
            ? Self.boxPlanes(pixels, width: srcW, bands: bands, factor: factor, size: (width, height, channels))
            : Self.boxPlanesByRow(pixels, width: srcW, bands: bands, factor: factor, size: (width, height, channels))
    }

    /// The block means of every channel from one pass over the source: integer block sums (all
    /// channels of a pixel together), each converted once and scaled.
    static func boxPlanes(
        _ pixels: [UInt8], width srcW: Int, bands: Int, factor: Int, size: (width: Int, height: Int, channels: Int)
    ) -> [[Float]] {
        let (w, h, ch) = size
        // A plane of its own each: planes sharing one array would each copy it on first write.
        var planes = (0..<ch).map { _ in [Float](repeating: 0, count: w * h) }
        let inv = 1 / Float(factor * factor)
        var sums = [Int32](repeating: 0, count: w * ch)
        pixels.withUnsafeBufferPointer { src in
            sums.withUnsafeMutableBufferPointer { acc in
                for y in 0..<h {
                    for i in 0..<(w * ch) { acc[i] = 0 }
                    for sy in 0..<factor {
                        let row = (y * factor + sy) * srcW * bands
                        addBlockRows(src, from: row, into: acc, blocks: w, factor: factor, bands: bands, channels: ch)
                    }
                    for c in 0..<ch {
                        planes[c].withUnsafeMutableBufferPointer { dst in
                            for x in 0..<w { dst[y * w + x] = Float(acc[x * ch + c]) * inv }
                        }
                    }
                }
            }
        }
        return planes
    }

    /// Adds one source row (from `row`) to the block sums `acc` (`channels` a block): each
    /// block's part of the row summed in registers, then added once, for three channels or one
    /// (integer sums, so in any order the same).
    @inline(__always)
    private static func addBlockRows(
        _ src: UnsafeBufferPointer<UInt8>, from row: Int, into acc: UnsafeMutableBufferPointer<Int32>, blocks: Int,
        factor: Int, bands: Int, channels: Int
    ) {
        let p = src.baseAddress.unsafelyUnwrapped, a = acc.baseAddress.unsafelyUnwrapped
        var o = row
        if channels == 3, bands == 3, factor == 2 {
            // A ~1000 px RGB copy on the ~480 px working copy: pairs of pixels, the loop unrolled.
            for x in 0..<blocks {
                let q = p + (row &+ 6 &* x), s = a + 3 &* x
                s[0] &+= Int32(q[0]) &+ Int32(q[3])
                s[1] &+= Int32(q[1]) &+ Int32(q[4])
                s[2] &+= Int32(q[2]) &+ Int32(q[5])
            }
        } else if channels == 3 {
            for x in 0..<blocks {
                var r: Int32 = 0, g: Int32 = 0, b: Int32 = 0
                for _ in 0..<factor {
                    r &+= Int32(p[o]); g &+= Int32(p[o &+ 1]); b &+= Int32(p[o &+ 2])
                    o &+= bands
                }
                a[3 &* x] &+= r; a[3 &* x &+ 1] &+= g; a[3 &* x &+ 2] &+= b
            }
        } else {
            for x in 0..<blocks {
                var v: Int32 = 0
                for _ in 0..<factor {
                    v &+= Int32(p[o])
                    o &+= bands
                }
                a[x] &+= v
            }
        }
    }

    /// The same by float sums of each block's rows (the original loop): for blocks too large
    /// for `boxPlanes`' exact sums, and for `WorkImageBoxTests` to compare with.
    static func boxPlanesByRow(
        _ pixels: [UInt8], width srcW: Int, bands: Int, factor: Int, size: (width: Int, height: Int, channels: Int)
    ) -> [[Float]] {
        let (w, h, ch) = size
        let n = w * h
        var planes = [[Float]](repeating: [Float](repeating: 0, count: n), count: ch)
        let inv = 1 / Float(factor * factor)
        pixels.withUnsafeBufferPointer { src in
            for c in 0..<ch {
                planes[c].withUnsafeMutableBufferPointer { dst in
                    for y in 0..<h {
                        for sy in 0..<factor {
                            let row = (y * factor + sy) * srcW * bands
                            for x in 0..<w {
                                var s: Int = 0
                                var o = row + x * factor * bands + c
                                for _ in 0..<factor { s += Int(src[o]); o += bands }
                                dst[y * w + x] += Float(s)
                            }
                        }
                    }
                    for i in 0..<n { dst[i] *= inv }
                }
            }
        }
        return planes
    }

    /// Two passes of the separable [1 2 1]/4 kernel (about a Gaussian of sigma 1).
    mutating func blur() {
        let (w, h) = (width, height)
        var tmp = [Float](repeating: 0, count: w * h)
        for c in 0..<channels {
            for _ in 0..<2 {
                planes[c].withUnsafeMutableBufferPointer { p in
                    tmp.withUnsafeMutableBufferPointer { t in
                        Self.blurPass(p.baseAddress!, through: t.baseAddress!, width: w, height: h)
                    }
                }
            }
        }
    }

    /// One pass of the [1 2 1]/4 kernel across then down `p` (w x h, w and h at least 2),
    /// through `t`; on raw row pointers with wrapping index arithmetic, so that the loops
    /// vectorise (the same operations in the same order as element by element).
    private static func blurPass(
        _ p: UnsafeMutablePointer<Float>, through t: UnsafeMutablePointer<Float>, width w: Int, height h: Int
    ) {
        for y in 0..<h {
            let (src, dst) = (p + y &* w, t + y &* w)
            dst[0] = src[0]; dst[w &- 1] = src[w &- 1]
            for x in 1..<(w &- 1) {
                dst[x] = 0.25 * src[x &- 1] + 0.5 * src[x] + 0.25 * src[x &+ 1]
            }
        }
        for x in 0..<w { p[x] = t[x]; p[(h &- 1) &* w &+ x] = t[(h &- 1) &* w &+ x] }
        for y in 1..<(h &- 1) {
            let (up, mid, down, dst) = (t + (y &- 1) &* w, t + y &* w, t + (y &+ 1) &* w, p + y &* w)
            for x in 0..<w { dst[x] = 0.25 * up[x] + 0.5 * mid[x] + 0.25 * down[x] }
        }
    }

    /// Sobel gradient of the channel with the strongest response at each pixel, and the
    /// noise-adaptive edge threshold (a multiple of the median magnitude).
    mutating func computeGradient() {
        let (w, h) = (width, height)
        let n = w * h
        // Three arrays of their own: copies of one would each be copied again on first write.
        var gx = [Float](repeating: 0, count: n), gy = [Float](repeating: 0, count: n)
        var mag = [Float](repeating: 0, count: n)
        for c in 0..<channels {
            planes[c].withUnsafeBufferPointer { p in
                gx.withUnsafeMutableBufferPointer { GX in
                    gy.withUnsafeMutableBufferPointer { GY in
                        mag.withUnsafeMutableBufferPointer { M in
                            Self.strongerSobel(
                                p.baseAddress!, into: (GX.baseAddress!, GY.baseAddress!, M.baseAddress!), width: w,
                                height: h)
                        }
                    }
                }
            }
        }
        var histogram = [Int](repeating: 0, count: 1024)
        var count = 0
        for i in 0..<n {
            let m = mag[i].squareRoot()
            mag[i] = m
            if i % Self.medianSampleStride == 0 { histogram[min(1023, Int(m))] += 1; count += 1 }
        }
        var acc = 0, median = 0
        for (v, k) in histogram.enumerated() { acc += k; if acc * 2 >= count { median = v; break } }
        threshold = max(Self.minimumEdgeThreshold, Float(median) * Self.thresholdMedianMultiple + Self.thresholdOffset)
        self.gx = gx; self.gy = gy; self.mag = mag
    }

    /// The Sobel response of one channel plane `p` (w x h), kept at each inner pixel where its
    /// squared magnitude exceeds the one already in `out.m` (with its gx, gy). Four pixels at a
    /// time in SIMD lanes with a lane-wise select (a scalar select becomes a branch a pixel),
    /// the rest of a row one by one: the same operations in the same order in every lane.
    private static func strongerSobel(
        _ p: UnsafePointer<Float>,
        into out: (gx: UnsafeMutablePointer<Float>, gy: UnsafeMutablePointer<Float>, m: UnsafeMutablePointer<Float>),
        width w: Int, height h: Int
    ) {
        typealias V = SIMD4<Float>
        @inline(__always) func load(_ q: UnsafePointer<Float>) -> V { UnsafeRawPointer(q).loadUnaligned(as: V.self) }
        @inline(__always) func store(_ v: V, _ q: UnsafeMutablePointer<Float>) {
            UnsafeMutableRawPointer(q).storeBytes(of: v, as: V.self)
        }
        for y in 1..<(h &- 1) {
            let (up, mid, down) = (p + (y &- 1) &* w, p + y &* w, p + (y &+ 1) &* w)
            let (gxRow, gyRow, mRow) = (out.gx + y &* w, out.gy + y &* w, out.m + y &* w)
            var x = 1
            while x &+ 4 <= w &- 1 {
                let a = load(up + (x &- 1)), b = load(up + x), cc = load(up + (x &+ 1))
                let d = load(mid + (x &- 1)), f = load(mid + (x &+ 1))
                let g = load(down + (x &- 1)), hh = load(down + x), k = load(down + (x &+ 1))
                let sx = (cc + 2 * f + k) - (a + 2 * d + g)
                let sy = (g + 2 * hh + k) - (a + 2 * b + cc)
                let m = sx * sx + sy * sy
                let old = load(mRow + x)
                let stronger = m .> old
                store(old.replacing(with: m, where: stronger), mRow + x)
                store(load(gxRow + x).replacing(with: sx, where: stronger), gxRow + x)
                store(load(gyRow + x).replacing(with: sy, where: stronger), gyRow + x)
                x &+= 4
            }
            while x < w &- 1 {
                let a = up[x &- 1], b = up[x], cc = up[x &+ 1]
                let d = mid[x &- 1], f = mid[x &+ 1]
                let g = down[x &- 1], hh = down[x], k = down[x &+ 1]
                let sx = (cc + 2 * f + k) - (a + 2 * d + g)
                let sy = (g + 2 * hh + k) - (a + 2 * b + cc)
                let m = sx * sx + sy * sy
                if m > mRow[x] { mRow[x] = m; gxRow[x] = sx; gyRow[x] = sy }
                x &+= 1
            }
        }
    }

    /// Thin edge pixels: local maxima of the magnitude across the edge, above the threshold;
    /// pixels on thin bars (an edge of opposite polarity 2-6 px away: text strokes, rules, but
    /// also a page border with a dark shadow line on a light desk) are flagged in `bars`.
    func edgePixels() -> (edges: [Int32], bars: [Bool]) {
        let (w, h) = (width, height)
        var edges: [Int32] = []
        var bars: [Bool] = []
        edges.reserveCapacity(w * h / 8)
        bars.reserveCapacity(w * h / 8)
        let t = threshold
        mag.withUnsafeBufferPointer { M in
            gx.withUnsafeBufferPointer { GX in
                gy.withUnsafeBufferPointer { GY in
                    for y in 2..<(h - 2) {
                        for x in 2..<(w - 2) {
                            let i = y * w + x
                            let m = M[i]
                            if m < t { continue }
                            let ax = abs(GX[i]), ay = abs(GY[i])
                            let o: Int
                            if ax > Self.octantSlope * ay {
                                o = 1
                            } else if ay > Self.octantSlope * ax {
                                o = w
                            } else if (GX[i] > 0) == (GY[i] > 0) {
                                o = w + 1
                            } else {
                                o = w - 1
                            }
                            guard m >= M[i - o] && m > M[i + o] else { continue }
                            // Thin dark or light bars (text strokes, rules) have an edge of the
                            // opposite polarity a few pixels away: they are not page borders.
                            let ux = GX[i] / m, uy = GY[i] / m
                            var bar = false
                            var k = Self.barWidths.lowerBound
                            while k <= Self.barWidths.upperBound && !bar {
                                let ox = (k * ux).roundedInt, oy = (k * uy).roundedInt
                                k += 1
                                let xa = x + ox, ya = y + oy, xb = x - ox, yb = y - oy
                                if xa >= 0 && ya >= 0 && xa < w && ya < h {
                                    let j = ya * w + xa
                                    if GX[j] * ux + GY[j] * uy < -Self.opposingGradientShare * m { bar = true }
                                }
                                if xb >= 0 && yb >= 0 && xb < w && yb < h {
                                    let j = yb * w + xb
                                    if GX[j] * ux + GY[j] * uy < -Self.opposingGradientShare * m { bar = true }
                                }
                            }
                            edges.append(Int32(i))
                            bars.append(bar)
                        }
                    }
                }
            }
        }
        return (edges, bars)
    }

    /// Hough lines from edge pixels voting near their own gradient direction, refitted to their
    /// edge pixels and de-duplicated; strongest first.
    func findLines(maxLines: Int) -> [PageDetector.Line] {
        let (edges, bars) = edgePixels()
        guard edges.count >= Self.minimumEdgePixels else { return [] }
        let (w, h) = (width, height)
        let diag = Int(Double(w * w + h * h).squareRoot()) + 2
        let nRho = 2 * diag + 1
        let nTheta = 180
        var cosT = [Float](repeating: 0, count: nTheta), sinT = cosT
        for t in 0..<nTheta { cosT[t] = Float(cos(Double(t) * .pi / 180)); sinT[t] = Float(sin(Double(t) * .pi / 180)) }
        var acc = [Float](repeating: 0, count: nTheta * nRho)
        let t = threshold
        let spread = Self.voteAngleSpread
        acc.withUnsafeMutableBufferPointer { A in
            for (k, e) in edges.enumerated() {
                let i = Int(e)
                let x = Float(i % w), y = Float(i / w)
                var ang = atan2(gy[i], gx[i])
                if ang < 0 { ang += .pi }
                let t0 = (ang * 180 / .pi).roundedInt
                // Bars count for less, so that rows of text do not crowd out the page's sides.
                let weight = min(mag[i] / t, Self.maximumVoteWeight) * (bars[k] ? Self.barVoteWeight : 1)
                for dt in -spread...spread {
                    var tb = t0 + dt
                    if tb < 0 { tb += nTheta } else if tb >= nTheta { tb -= nTheta }
                    let rho = x * cosT[tb] + y * sinT[tb]
                    let r = rho.roundedInt + diag
                    A[tb * nRho + r] += weight
                }
            }
        }
        // Peaks: local maxima in the peak window (theta wraps with rho negated).
        let minVotes = Float(min(w, h)) * Self.minimumVoteShare
        var peaks: [(Float, Int, Int)] = []
        acc.withUnsafeBufferPointer { A in
            for tb in 0..<nTheta {
                for r in Self.peakWindow..<(nRho - Self.peakWindow) {
                    let v = A[tb * nRho + r]
                    if v < minVotes { continue }
                    var isMax = true
                    outer: for dt in -Self.peakWindow...Self.peakWindow {
                        var tt = tb + dt, rr = r
                        if tt < 0 {
                            tt += nTheta; rr = 2 * diag - r
                        } else if tt >= nTheta {
                            tt -= nTheta; rr = 2 * diag - r
                        }
                        for dr in -Self.peakWindow...Self.peakWindow where !(dt == 0 && dr == 0) {
                            let q = rr + dr
                            if q < 0 || q >= nRho { continue }
                            let u = A[tt * nRho + q]
                            if u > v || (u == v && (dt < 0 || (dt == 0 && dr < 0))) { isMax = false; break outer }
                        }
                    }
                    if isMax { peaks.append((v, tb, r)) }
                }
            }
        }
        peaks.sort { $0.0 > $1.0 }
        var lines: [PageDetector.Line] = []
        var kept: [(Int, Int)] = []
        let edgeSet = edgeSet(edges)
        for (_, tb, r) in peaks {
            if lines.count >= maxLines { break }
            var clash = false
            for (kt, kr) in kept {
                var dt = abs(kt - tb), dr = abs(kr - r)
                if dt > 90 { dt = 180 - dt; dr = abs((2 * diag - kr) - r) }
                if dt <= Self.duplicateDegrees && dr <= Self.duplicateOffset { clash = true; break }
            }
            if clash { continue }
            kept.append((tb, r))
            let theta = Double(tb) * .pi / 180
            let peak = PageDetector.Line(nx: cos(theta), ny: sin(theta), c: Double(r - diag))
            // Edges of both polarities near one peak are two lines (a page border and the outer
            // edge of its shadow, say): fit each polarity that carries real weight.
            let first = refit(peak, edges: edgeSet, polarity: 0)
            var fitted = [first.line]
            let (wp, wn) = first.weights
            if min(wp, wn) >= Self.secondPolarityShare * max(wp, wn) {
                fitted.append(refit(peak, edges: edgeSet, polarity: wp >= wn ? -1 : 1).line)
            }
            for line in fitted {
                // Drop refits that collapsed onto an already kept line.
                if lines.contains(where: {
                    abs($0.nx * line.nx + $0.ny * line.ny) > Self.collapsedCosine
                        && abs($0.c - line.c * ($0.nx * line.nx + $0.ny * line.ny).sign()) < Self.collapsedOffset
                }) {
                    continue
                }
                lines.append(line)
            }
        }
        return lines
    }

    /// Edge pixels as flat arrays for the line refits: position, unit gradient and weight.
    struct EdgeSet {
        var x: [Double] = [], y: [Double] = [], ux: [Double] = [], uy: [Double] = [], weight: [Double] = []
    }

    func edgeSet(_ edges: [Int32]) -> EdgeSet {
        var set = EdgeSet()
        set.x.reserveCapacity(edges.count); set.y.reserveCapacity(edges.count)
        set.ux.reserveCapacity(edges.count); set.uy.reserveCapacity(edges.count);
        set.weight.reserveCapacity(edges.count)
        for e in edges {
            let i = Int(e)
            let m = Double(mag[i])
            guard m > 0 else { continue }
            set.x.append(Double(i % width)); set.y.append(Double(i / width))
            set.ux.append(Double(gx[i]) / m); set.uy.append(Double(gy[i]) / m)
            set.weight.append(min(m / Double(threshold), Double(Self.maximumVoteWeight)))
        }
        return set
    }

    /// Weighted total-least-squares refit of a line to the edge pixels near it whose gradient
    /// agrees with its normal, keeping only one polarity (a page border and the outer edge of
    /// its shadow are two lines, not one): the dominant one when `fixed` is 0.
    /// - Returns: the line and the weights of both polarities near the starting line.
    func refit(_ start: PageDetector.Line, edges: EdgeSet, polarity fixed: Double)
        -> (line: PageDetector.Line, weights: (Double, Double))
    {
        var line = start
        // Candidates: edge pixels within the first band of the starting line.
        var near: [Int] = []
        edges.x.withUnsafeBufferPointer { X in
            edges.y.withUnsafeBufferPointer { Y in
                for k in 0..<X.count where abs(start.nx * X[k] + start.ny * Y[k] - start.c) <= Self.refitFirstBand {
                    near.append(k)
                }
            }
        }
        var polarity = fixed
        var weights = (0.0, 0.0)
        for pass in 0..<3 {
            let maxDist = pass == 0 ? Self.refitFirstBand : Self.refitBand
            // Each polarity's weighted moments in a value of its own (a nested array was checked
            // and indexed twice an addition); the same additions in the same order.
            var sums = (RefitMoments(), RefitMoments())
            for k in near {
                let x = edges.x[k], y = edges.y[k]
                if abs(line.distance(x, y)) > maxDist { continue }
                let gn = edges.ux[k] * line.nx + edges.uy[k] * line.ny
                if abs(gn) < Self.refitAlignment { continue }
                let positive = gn > 0
                if polarity != 0 && positive != (polarity > 0) { continue }
                let wt = edges.weight[k]
                if positive { sums.0.add(x, y, weight: wt) } else { sums.1.add(x, y, weight: wt) }
            }
            if pass == 0 { weights = (sums.0.w, sums.1.w) }
            if polarity == 0 { polarity = sums.0.w >= sums.1.w ? 1 : -1 }
            let s = polarity > 0 ? sums.0 : sums.1
            let sw = s.w
            guard sw > Self.minimumRefitWeight else { return (line, weights) }
            let mx = s.x / sw, my = s.y / sw
            let cxx = s.xx / sw - mx * mx, cyy = s.yy / sw - my * my, cxy = s.xy / sw - mx * my
            // Normal = eigenvector of the smallest eigenvalue of the covariance.
            let theta = 0.5 * atan2(2 * cxy, cxx - cyy)  // direction of the line
            var nx = -sin(theta), ny = cos(theta)
            if nx * line.nx + ny * line.ny < 0 { nx = -nx; ny = -ny }
            line = PageDetector.Line(nx: nx, ny: ny, c: nx * mx + ny * my)
        }
        return (line, weights)
    }
}

/// One polarity's weighted sums for `WorkImage.refit`: weight, x, y, x², y², xy.
private struct RefitMoments {
    var w = 0.0, x = 0.0, y = 0.0, xx = 0.0, yy = 0.0, xy = 0.0

    /// Adds the point (`x`, `y`) with weight `wt`, each product formed as the nested loop did.
    @inline(__always)
    mutating func add(_ px: Double, _ py: Double, weight wt: Double) {
        w += wt; x += wt * px; y += wt * py
        xx += wt * px * px; yy += wt * py * py; xy += wt * px * py
    }
}

extension Double {
    fileprivate func sign() -> Double { self < 0 ? -1 : 1 }
}
