/// The tone operations of the clean-up step, on interleaved 8-bit pixels: grey, paper made
/// white, black and white. Pure functions of the bytes, so they are tested without libvips.
package enum PageTone {
    /// The grey level of each pixel (Rec. 601 luma for colour; the band itself for grey).
    package static func grey(_ bytes: [UInt8], bands: Int) -> [UInt8] {
        guard bands >= 3 else {
            return bands == 1 ? bytes : stride(from: 0, to: bytes.count, by: bands).map { bytes[$0] }
        }
        let n = bytes.count / bands
        var out = [UInt8](repeating: 0, count: n)
        for i in 0..<n {
            let p = i * bands
            let r: Int = 299 * Int(bytes[p]), g: Int = 587 * Int(bytes[p + 1]), b: Int = 114 * Int(bytes[p + 2])
            out[i] = UInt8((r + g + b + 500) / 1000)
        }
        return out
    }

    /// The level below which `share` of the pixels lie (0...1).
    package static func percentile(_ grey: [UInt8], _ share: Double) -> Int {
        var histogram = [Int](repeating: 0, count: 256)
        for v in grey { histogram[Int(v)] += 1 }
        let target = Int(Double(grey.count) * share)
        var seen = 0
        for level in 0..<256 {
            seen += histogram[level]
            if seen > target { return level }
        }
        return 255
    }

    /// The paper's brightness at every pixel: a smooth surface (a cubic in x and y) fitted to
    /// the brightest level of each block of about `block` pixels. Blocks well below the surface
    /// (a picture, a dense table, a dark bar) are left out and the fit is made again, three
    /// times, so the surface follows the light across the sheet (a page brighter on one side,
    /// darker at the spine) but not the pictures on it, which keep their tones.
    package static func paperLevel(_ grey: [UInt8], width: Int, height: Int, block: Int) -> [UInt8] {
        let bw = max(1, (width + block - 1) / block), bh = max(1, (height + block - 1) / block)
        var maxima = [Double](repeating: 0, count: bw * bh)
        for y in 0..<height {
            let by = y / block
            for x in 0..<width {
                let i = by * bw + x / block
                maxima[i] = max(maxima[i], Double(grey[y * width + x]))
            }
        }
        // Block centres in -1...1.
        func u(_ bx: Int) -> Double { bw > 1 ? 2 * Double(bx) / Double(bw - 1) - 1 : 0 }
        func v(_ by: Int) -> Double { bh > 1 ? 2 * Double(by) / Double(bh - 1) - 1 : 0 }
        // (Block centres sit at (b + 0.5) x block pixels; `place` maps a pixel the same way.)
        var used = [Bool](repeating: true, count: bw * bh)
        var surface = Cubic(constant: maxima.reduce(0, +) / Double(maxima.count))
        for _ in 0..<3 {
            var points: [(Double, Double, Double)] = []
            for by in 0..<bh {
                for bx in 0..<bw where used[by * bw + bx] { points.append((u(bx), v(by), maxima[by * bw + bx])) }
            }
            guard points.count >= 20, let fitted = Cubic.fit(points) else { break }
            surface = fitted
            for by in 0..<bh {
                for bx in 0..<bw { used[by * bw + bx] = maxima[by * bw + bx] >= 0.9 * surface.value(u(bx), v(by)) }
            }
        }
        var out = [UInt8](repeating: 0, count: width * height)
        // Pixel centres in the blocks' -1...1 coordinates.
        func place(_ p: Int, blocks: Int) -> Double {
            guard blocks > 1 else { return 0 }
            let inBlocks: Double = (Double(p) + 0.5) / Double(block) - 0.5
            return 2 * inBlocks / Double(blocks - 1) - 1
        }
        let column = (0..<width).map { place($0, blocks: bw) }
        for y in 0..<height {
            let row = place(y, blocks: bh)
            for x in 0..<width {
                out[y * width + x] = UInt8(max(16, min(255, surface.value(column[x], row).rounded())))
            }
        }
        return out
    }

    /// z = sum of c[k] * x^i * y^j over i + j <= 3 (ten terms).
    struct Cubic {
        var c: [Double]

        init(constant: Double) { c = [constant] + [Double](repeating: 0, count: 9) }
        init(coefficients: [Double]) { c = coefficients }

        static func terms(_ x: Double, _ y: Double) -> [Double] {
            [1, x, y, x * x, x * y, y * y, x * x * x, x * x * y, x * y * y, y * y * y]
        }

        func value(_ x: Double, _ y: Double) -> Double {
            zip(c, Self.terms(x, y)).reduce(0) { $0 + $1.0 * $1.1 }
        }

        /// Least squares through the normal equations (ten unknowns); nil when singular.
        static func fit(_ points: [(Double, Double, Double)]) -> Cubic? {
            let n = 10
            var a = [[Double]](repeating: [Double](repeating: 0, count: n + 1), count: n)
            for (x, y, z) in points {
                let t = terms(x, y)
                for i in 0..<n {
                    for j in 0..<n { a[i][j] += t[i] * t[j] }
                    a[i][n] += t[i] * z
                }
            }
            for col in 0..<n {
                guard let pivot = (col..<n).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }), abs(a[pivot][col]) > 1e-9
                else { return nil }
                a.swapAt(col, pivot)
                for row in 0..<n where row != col {
                    let f = a[row][col] / a[col][col]
                    if f != 0 { for k in col...n { a[row][k] -= f * a[col][k] } }
                }
            }
            return Cubic(coefficients: (0..<n).map { a[$0][n] / a[$0][$0] })
        }
    }

    /// Every band of every pixel divided by the paper's level there, so the paper becomes white
    /// (255) and the ink keeps its contrast to it.
    package static func whitened(_ bytes: inout [UInt8], bands: Int, paper: [UInt8]) {
        for i in 0..<paper.count {
            let scale = 255.0 / Double(paper[i])
            for b in 0..<bands {
                let p = i * bands + b
                bytes[p] = UInt8(min(255, (Double(bytes[p]) * scale).rounded()))
            }
        }
    }

    /// Black and white by Sauvola's rule, with the statistics taken over windows of about three
    /// `block`s and interpolated between block centres (so memory stays a few arrays of blocks):
    /// a pixel is ink when darker than mean x (1 + k (sd / 128 - 1)) of its neighbourhood. Local,
    /// so light that still varies across the page (a dark corner) does not swallow the text.
    package static func blackAndWhite(_ grey: [UInt8], width: Int, height: Int, block: Int, k: Double = 0.34) -> [UInt8]
    {
        let bw = max(1, (width + block - 1) / block), bh = max(1, (height + block - 1) / block)
        var sum = [Double](repeating: 0, count: bw * bh), squares = sum, count = sum
        for y in 0..<height {
            let by = y / block
            for x in 0..<width {
                let i = by * bw + x / block
                let g = Double(grey[y * width + x])
                sum[i] += g
                squares[i] += g * g
                count[i] += 1
            }
        }
        var threshold = [Double](repeating: 0, count: bw * bh)
        for by in 0..<bh {
            for bx in 0..<bw {
                var (s, q, n) = (0.0, 0.0, 0.0)
                for dy in -1...1 {
                    for dx in -1...1 {
                        let (x, y) = (bx + dx, by + dy)
                        guard x >= 0, y >= 0, x < bw, y < bh else { continue }
                        let i = y * bw + x
                        s += sum[i]; q += squares[i]; n += count[i]
                    }
                }
                let mean = s / max(1, n)
                let sd = (max(0, q / max(1, n) - mean * mean)).squareRoot()
                threshold[by * bw + bx] = mean * (1 + k * (sd / 128 - 1))
            }
        }
        var out = [UInt8](repeating: 255, count: width * height)
        for y in 0..<height {
            let fy = max(0, min(Double(bh - 1), (Double(y) + 0.5) / Double(block) - 0.5))
            let y0 = Int(fy), y1 = min(bh - 1, y0 + 1), ty = fy - Double(y0)
            for x in 0..<width {
                let fx = max(0, min(Double(bw - 1), (Double(x) + 0.5) / Double(block) - 0.5))
                let x0 = Int(fx), x1 = min(bw - 1, x0 + 1), tx = fx - Double(x0)
                let top = threshold[y0 * bw + x0] * (1 - tx) + threshold[y0 * bw + x1] * tx
                let bottom = threshold[y1 * bw + x0] * (1 - tx) + threshold[y1 * bw + x1] * tx
                if Double(grey[y * width + x]) <= top * (1 - ty) + bottom * ty { out[y * width + x] = 0 }
            }
        }
        return out
    }

    /// Otsu's threshold of a grey image: the level that best separates ink from paper.
    static func otsu(_ grey: [UInt8]) -> Int {
        var histogram = [Double](repeating: 0, count: 256)
        for v in grey { histogram[Int(v)] += 1 }
        let total = Double(grey.count)
        let sum = (0..<256).reduce(0.0) { $0 + Double($1) * histogram[$1] }
        var (weightB, sumB, best, level) = (0.0, 0.0, -1.0, 128)
        for t in 0..<256 {
            weightB += histogram[t]
            guard weightB > 0 else { continue }
            let weightF = total - weightB
            guard weightF > 0 else { break }
            sumB += Double(t) * histogram[t]
            let between = weightB * weightF * pow2(sumB / weightB - (sum - sumB) / weightF)
            if between > best { (best, level) = (between, t) }
        }
        return level
    }

    private static func pow2(_ x: Double) -> Double { x * x }
}
