import VipsBridge

extension DetectionCopy {
    /// The box factor of the copy of a `width` x `height` frame: the smallest whole factor
    /// that brings the long side to `longSide` or less (at most the short side).
    static func factor(width w: Int, height h: Int, longSide: Int = DetectionCopy.longSide) -> Int {
        max(1, min((max(w, h) + longSide - 1) / longSide, w, h))
    }

    /// The detection copy of a decoded frame: `factor` x `factor` box averages (the smallest
    /// whole factor that brings the long side to `longSide` or less), turned upright.
    ///
    /// Why from the frame: the page is decoded at full size anyway, and averaging its pixels
    /// costs a small fraction of a second, DCT-scaled decode of the file (docs/benchmarks.md,
    /// "Figures behind design choices").
    /// - Complexity: O(frame pixels), one pass; vertical sums run over whole rows.
    init(
        frame pixels: UnsafeBufferPointer<UInt8>, width w: Int, height h: Int, bands: Int,
        orientation: StoredOrientation, longSide: Int = DetectionCopy.longSide
    ) {
        let factor = Self.factor(width: w, height: h, longSide: longSide)
        let (cw, ch) = (w / factor, h / factor)
        let used = cw * factor * bands
        var stored = [UInt8](repeating: 0, count: cw * ch * bands)
        // Vertical sums of `factor` rows fit 16 bits (factor <= 257).
        var sums = [UInt16](repeating: 0, count: max(used, 1))
        let area = UInt32(factor * factor)
        // (s + area / 2) / area, rounded, as a multiply and a shift: with m = ceil(2^40 / area),
        // (n * m) >> 40 == n / area for every n < 2^40 / area, far above 255 * area + area / 2
        // (a division per value was a third of this function's time).
        let magic = ((UInt64(1) << 40) + UInt64(area) - 1) / UInt64(area)
        @inline(__always) func average(_ sum: UInt32) -> UInt8 {
            UInt8(truncatingIfNeeded: (UInt64(sum &+ area / 2) &* magic) &>> 40)
        }
        stored.withUnsafeMutableBufferPointer { out in
            sums.withUnsafeMutableBufferPointer { acc in
                let src = pixels.baseAddress!
                for j in 0..<ch {
                    for i in 0..<used { acc[i] = 0 }
                    for r in 0..<factor {
                        let row = src + (j * factor + r) * w * bands
                        for i in 0..<used { acc[i] &+= UInt16(row[i]) }
                    }
                    var o = j * cw * bands
                    if bands == 3 {
                        var k = 0
                        for _ in 0..<cw {
                            var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                            for _ in 0..<factor {
                                r &+= UInt32(acc[k]); g &+= UInt32(acc[k + 1]); b &+= UInt32(acc[k + 2])
                                k += 3
                            }
                            out[o] = average(r); out[o + 1] = average(g); out[o + 2] = average(b)
                            o += 3
                        }
                    } else {
                        for i in 0..<cw {
                            for b in 0..<bands {
                                var s: UInt32 = 0
                                var k = i * factor * bands + b
                                for _ in 0..<factor { s &+= UInt32(acc[k]); k += bands }
                                out[o] = average(s)
                                o += 1
                            }
                        }
                    }
                }
            }
        }
        self.init(stored: stored, width: cw, height: ch, bands: bands, factor: factor, orientation: orientation)
    }

    /// The detection copy of a frame held as YCbCr planes: `factor` x `factor` averages of
    /// luma and of the chroma samples under the same block (f / 2 across, and down for
    /// 4:2:0, cut at the plane's edge), converted to RGB, turned upright. Reads half the bytes
    /// an RGB frame would.
    /// - Complexity: O(frame pixels), one pass; vertical sums run over whole rows.
    /// - Parameter portable: run the Swift loop rather than the C one (`PlaneBoxAverage`: the
    ///   same bytes, a quarter less time), for comparing the two.
    init(
        planes p: PlanarPixels, orientation: StoredOrientation, longSide: Int = DetectionCopy.longSide,
        portable: Bool = false
    ) {
        let (w, h) = (p.width, p.height)
        let f = Self.factor(width: w, height: h, longSide: longSide)
        let (cw, ch) = (w / f, h / f)
        if !portable, f <= 257, cw * ch < Int(Int32.max) / 3 {
            var made = false
            let stored = [UInt8](unsafeUninitializedCapacity: cw * ch * 3) { buffer, count in
                made = PlaneBoxAverage.rgb(
                    luma: p.luma, lumaStride: p.lumaStride, cb: p.cb, cr: p.cr,
                    chromaStride: p.chromaStride, chromaWidth: p.chromaWidth,
                    chromaHeight: p.chromaHeight, horizontalShift: p.horizontalShift,
                    verticalShift: p.verticalShift, factor: f, outWidth: cw, outHeight: ch,
                    into: buffer.baseAddress!)
                if !made { buffer.initialize(repeating: 0) }
                count = buffer.count
            }
            if made {
                self.init(stored: stored, width: cw, height: ch, bands: 3, factor: f, orientation: orientation)
                return
            }
        }
        let (hs, vs) = (p.horizontalShift, p.verticalShift)
        let bw = (f + (1 << hs) - 1) >> hs, bh = (f + (1 << vs) - 1) >> vs
        let usedY = cw * f, chromaWidth = p.chromaWidth
        var stored = [UInt8](repeating: 0, count: cw * ch * 3)
        // Vertical sums of at most `f` rows fit 16 bits (f <= 257).
        let ySums = UnsafeMutablePointer<UInt16>.allocate(capacity: usedY)
        let bSums = UnsafeMutablePointer<UInt16>.allocate(capacity: chromaWidth)
        let rSums = UnsafeMutablePointer<UInt16>.allocate(capacity: chromaWidth)
        defer { ySums.deallocate(); bSums.deallocate(); rSums.deallocate() }
        /// Means scaled by 2^16 as a multiply and a shift: (sum * round(2^32 / n)) >> 16
        /// (a division or a floating-point conversion per value was most of this function's time).
        func multiplier(_ n: Int) -> Int { ((1 << 32) + n / 2) / n }
        let yMul = multiplier(f * f)
        stored.withUnsafeMutableBufferPointer { buffer in
            var out = buffer.baseAddress!
            for j in 0..<ch {
                ySums.update(repeating: 0, count: usedY)
                for r in 0..<f {
                    let row = p.luma + (j * f + r) * p.lumaStride
                    for i in 0..<usedY { ySums[i] &+= UInt16(row[i]) }
                }
                let cy0 = min((j * f) >> vs, p.chromaHeight - 1), rows = min(bh, p.chromaHeight - cy0)
                bSums.update(repeating: 0, count: chromaWidth)
                rSums.update(repeating: 0, count: chromaWidth)
                for r in 0..<rows {
                    let b = p.cb + (cy0 + r) * p.chromaStride, q = p.cr + (cy0 + r) * p.chromaStride
                    for i in 0..<chromaWidth { bSums[i] &+= UInt16(b[i]); rSums[i] &+= UInt16(q[i]) }
                }
                let wholeMul = multiplier(rows * bw)
                for i in 0..<cw {
                    var ys = 0
                    for k in (i * f)..<(i * f + f) { ys &+= Int(ySums[k]) }
                    let cx0 = min((i * f) >> hs, chromaWidth - 1), columns = min(bw, chromaWidth - cx0)
                    var bs = 0, rs = 0
                    for k in cx0..<(cx0 + columns) { bs &+= Int(bSums[k]); rs &+= Int(rSums[k]) }
                    let cMul = columns == bw ? wholeMul : multiplier(rows * columns)
                    (out[0], out[1], out[2]) = PlanarPixels.rgb(
                        y: (ys &* yMul) &>> 16, cb: (bs &* cMul) &>> 16,
                        cr: (rs &* cMul) &>> 16)
                    out += 3
                }
            }
        }
        self.init(stored: stored, width: cw, height: ch, bands: 3, factor: f, orientation: orientation)
    }

    /// The copy from box averages made while the planes were decoded (`YCbCrFrame.averages`,
    /// the same bytes as `init(planes:orientation:longSide:)`), or nil when there are none of
    /// this copy's factor. The frame lets go of them (`takeAverages`): a later copy of the same
    /// frame is averaged from its planes.
    init?(averaged planes: YCbCrFrame, orientation: StoredOrientation, longSide: Int = DetectionCopy.longSide) {
        guard let a = planes.takeAverages(),
            a.factor == Self.factor(width: planes.width, height: planes.height, longSide: longSide)
        else { return nil }
        self.init(
            stored: a.pixels, width: a.width, height: a.height, bands: 3, factor: a.factor, orientation: orientation)
    }

    /// The copy from its stored-orientation pixels (`width` x `height`, each `factor` x
    /// `factor` frame pixels), turned upright.
    private init(
        stored: [UInt8], width cw: Int, height ch: Int, bands: Int, factor: Int, orientation: StoredOrientation
    ) {
        // Upright: display copy pixel (x, y) shows stored copy pixel `at(x, y)`.
        let o = orientation.orientation
        let (dw, dh) = o == 6 || o == 8 ? (ch, cw) : (cw, ch)
        func at(_ x: Int, _ y: Int) -> (Int, Int) {
            switch o {
            case 3: (cw - 1 - x, ch - 1 - y)
            case 6: (y, ch - 1 - x)
            case 8: (cw - 1 - y, x)
            default: (x, y)
            }
        }
        var upright = stored
        if o != 1 {
            // at(x, y) is linear in x along a display row: start at at(0, y), step by `step`
            // stored pixels (the orientation, fixed for the image, stays out of the loop).
            let (ax, ay) = at(0, 0), (bx, by) = at(1, 0)
            let step = ((by - ay) * cw + (bx - ax)) * bands
            stored.withUnsafeBufferPointer { src in
                upright.withUnsafeMutableBufferPointer { dst in
                    var d = 0
                    for y in 0..<dh {
                        let (sx, sy) = at(0, y)
                        var p = (sy * cw + sx) * bands
                        for _ in 0..<dw {
                            for b in 0..<bands { dst[d + b] = src[p + b] }
                            d += bands
                            p += step
                        }
                    }
                }
            }
        }
        self.init(pixels: upright, width: dw, height: dh, bands: bands, scaleX: Double(factor), scaleY: Double(factor))
        // Where display copy pixel (0, 0) starts in full display pixels.
        let (sx0, sy0) = at(0, 0)
        let centre = orientation.display(
            Point(x: (Double(sx0) + 0.5) * Double(factor), y: (Double(sy0) + 0.5) * Double(factor)))
        offsetX = centre.x - 0.5 * Double(factor)
        offsetY = centre.y - 0.5 * Double(factor)
    }
}
