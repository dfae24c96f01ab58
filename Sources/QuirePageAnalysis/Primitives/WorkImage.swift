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
    var threshold: Float = 10

    /// Box-averages `factor` x `factor` blocks of the source into float planes (RGB or grey).
    init(pixels: [UInt8], width srcW: Int, height srcH: Int, bands: Int, factor: Int) {
        width = srcW / factor
        height = srcH / factor
        channels = bands >= 3 ? 3 : 1
        let n = width * height
        var planes = [[Float]](repeating: [Float](repeating: 0, count: n), count: channels)
        let inv = 1 / Float(factor * factor)
        let (w, h, ch) = (width, height, channels)
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
        self.planes = planes
    }

    /// Two passes of the separable [1 2 1]/4 kernel (about a Gaussian of sigma 1).
    mutating func blur() {
        let (w, h) = (width, height)
        var tmp = [Float](repeating: 0, count: w * h)
        for c in 0..<channels {
            for _ in 0..<2 {
                planes[c].withUnsafeMutableBufferPointer { p in
                    tmp.withUnsafeMutableBufferPointer { t in
                        for y in 0..<h {
                            let r = y * w
                            t[r] = p[r]; t[r + w - 1] = p[r + w - 1]
                            for x in 1..<(w - 1) {
                                t[r + x] = 0.25 * p[r + x - 1] + 0.5 * p[r + x] + 0.25 * p[r + x + 1]
                            }
                        }
                        for x in 0..<w { p[x] = t[x]; p[(h - 1) * w + x] = t[(h - 1) * w + x] }
                        for y in 1..<(h - 1) {
                            let r = y * w
                            for x in 0..<w { p[r + x] = 0.25 * t[r - w + x] + 0.5 * t[r + x] + 0.25 * t[r + w + x] }
                        }
                    }
                }
            }
        }
    }

    /// Sobel gradient of the channel with the strongest response at each pixel, and the
    /// noise-adaptive edge threshold (a multiple of the median magnitude).
    mutating func computeGradient() {
        let (w, h) = (width, height)
        let n = w * h
        var gx = [Float](repeating: 0, count: n), gy = gx, mag = gx
        for c in 0..<channels {
            planes[c].withUnsafeBufferPointer { p in
                gx.withUnsafeMutableBufferPointer { GX in
                    gy.withUnsafeMutableBufferPointer { GY in
                        mag.withUnsafeMutableBufferPointer { M in
                            for y in 1..<(h - 1) {
                                let r = y * w
                                for x in 1..<(w - 1) {
                                    let i = r + x
                                    let a = p[i - w - 1], b = p[i - w], cc = p[i - w + 1]
                                    let d = p[i - 1], f = p[i + 1]
                                    let g = p[i + w - 1], hh = p[i + w], k = p[i + w + 1]
                                    let sx = (cc + 2 * f + k) - (a + 2 * d + g)
                                    let sy = (g + 2 * hh + k) - (a + 2 * b + cc)
                                    let m = sx * sx + sy * sy
                                    if m > M[i] { M[i] = m; GX[i] = sx; GY[i] = sy }
                                }
                            }
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
            if i % 3 == 0 { histogram[min(1023, Int(m))] += 1; count += 1 }
        }
        var acc = 0, median = 0
        for (v, k) in histogram.enumerated() { acc += k; if acc * 2 >= count { median = v; break } }
        threshold = max(10, Float(median) * 3 + 4)
        self.gx = gx; self.gy = gy; self.mag = mag
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
                            if ax > 2.414 * ay {
                                o = 1
                            } else if ay > 2.414 * ax {
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
                            var k: Float = 2
                            while k <= 6 && !bar {
                                let ox = Int((k * ux).rounded()), oy = Int((k * uy).rounded())
                                k += 1
                                let xa = x + ox, ya = y + oy, xb = x - ox, yb = y - oy
                                if xa >= 0 && ya >= 0 && xa < w && ya < h {
                                    let j = ya * w + xa
                                    if GX[j] * ux + GY[j] * uy < -0.7 * m { bar = true }
                                }
                                if xb >= 0 && yb >= 0 && xb < w && yb < h {
                                    let j = yb * w + xb
                                    if GX[j] * ux + GY[j] * uy < -0.7 * m { bar = true }
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
        guard edges.count >= 20 else { return [] }
        let (w, h) = (width, height)
        let diag = Int(Double(w * w + h * h).squareRoot()) + 2
        let nRho = 2 * diag + 1
        let nTheta = 180
        var cosT = [Float](repeating: 0, count: nTheta), sinT = cosT
        for t in 0..<nTheta { cosT[t] = Float(cos(Double(t) * .pi / 180)); sinT[t] = Float(sin(Double(t) * .pi / 180)) }
        var acc = [Float](repeating: 0, count: nTheta * nRho)
        let t = threshold
        let spread = 2
        acc.withUnsafeMutableBufferPointer { A in
            for (k, e) in edges.enumerated() {
                let i = Int(e)
                let x = Float(i % w), y = Float(i / w)
                var ang = atan2(gy[i], gx[i])
                if ang < 0 { ang += .pi }
                let t0 = Int((ang * 180 / .pi).rounded())
                // Bars count for less, so that rows of text do not crowd out the page's sides.
                let weight = min(mag[i] / t, 3) * (bars[k] ? 0.3 : 1)
                for dt in -spread...spread {
                    var tb = t0 + dt
                    if tb < 0 { tb += nTheta } else if tb >= nTheta { tb -= nTheta }
                    let rho = x * cosT[tb] + y * sinT[tb]
                    let r = Int(rho.rounded()) + diag
                    A[tb * nRho + r] += weight
                }
            }
        }
        // Peaks: local maxima in a 5 x 5 window (theta wraps with rho negated).
        let minVotes = Float(min(w, h)) * 0.06
        var peaks: [(Float, Int, Int)] = []
        acc.withUnsafeBufferPointer { A in
            for tb in 0..<nTheta {
                for r in 2..<(nRho - 2) {
                    let v = A[tb * nRho + r]
                    if v < minVotes { continue }
                    var isMax = true
                    outer: for dt in -2...2 {
                        var tt = tb + dt, rr = r
                        if tt < 0 {
                            tt += nTheta; rr = 2 * diag - r
                        } else if tt >= nTheta {
                            tt -= nTheta; rr = 2 * diag - r
                        }
                        for dr in -2...2 where !(dt == 0 && dr == 0) {
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
                if dt <= 3 && dr <= 5 { clash = true; break }
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
            if min(wp, wn) >= 0.1 * max(wp, wn) {
                fitted.append(refit(peak, edges: edgeSet, polarity: wp >= wn ? -1 : 1).line)
            }
            for line in fitted {
                // Drop refits that collapsed onto an already kept line.
                if lines.contains(where: {
                    abs($0.nx * line.nx + $0.ny * line.ny) > 0.9986
                        && abs($0.c - line.c * ($0.nx * line.nx + $0.ny * line.ny).sign()) < 1.5
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
            set.weight.append(min(m / Double(threshold), 3))
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
        // Candidates: edge pixels within 2.5 px of the starting line.
        var near: [Int] = []
        edges.x.withUnsafeBufferPointer { X in
            edges.y.withUnsafeBufferPointer { Y in
                for k in 0..<X.count where abs(start.nx * X[k] + start.ny * Y[k] - start.c) <= 2.5 { near.append(k) }
            }
        }
        var polarity = fixed
        var weights = (0.0, 0.0)
        for pass in 0..<3 {
            let maxDist = pass == 0 ? 2.5 : 1.5
            var sums = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 2)
            for k in near {
                let x = edges.x[k], y = edges.y[k]
                if abs(line.distance(x, y)) > maxDist { continue }
                let gn = edges.ux[k] * line.nx + edges.uy[k] * line.ny
                if abs(gn) < 0.97 { continue }
                let group = gn > 0 ? 0 : 1
                if polarity != 0 && (group == 0) != (polarity > 0) { continue }
                let wt = edges.weight[k]
                sums[group][0] += wt; sums[group][1] += wt * x; sums[group][2] += wt * y
                sums[group][3] += wt * x * x; sums[group][4] += wt * y * y; sums[group][5] += wt * x * y
            }
            if pass == 0 { weights = (sums[0][0], sums[1][0]) }
            if polarity == 0 { polarity = sums[0][0] >= sums[1][0] ? 1 : -1 }
            let s = sums[polarity > 0 ? 0 : 1]
            let sw = s[0]
            guard sw > 5 else { return (line, weights) }
            let mx = s[1] / sw, my = s[2] / sw
            let cxx = s[3] / sw - mx * mx, cyy = s[4] / sw - my * my, cxy = s[5] / sw - mx * my
            // Normal = eigenvector of the smallest eigenvalue of the covariance.
            let theta = 0.5 * atan2(2 * cxy, cxx - cyy)  // direction of the line
            var nx = -sin(theta), ny = cos(theta)
            if nx * line.nx + ny * line.ny < 0 { nx = -nx; ny = -ny }
            line = PageDetector.Line(nx: nx, ny: ny, c: nx * mx + ny * my)
        }
        return (line, weights)
    }
}

extension Double {
    fileprivate func sign() -> Double { self < 0 ? -1 : 1 }
}
