import VipsBridge

/// The warp of a capture held as YCbCr planes (`PerspectiveWarp.warp(planes:...)`): the same
/// walk as the interleaved warp (16-pixel spans with exact ends, 16.16 fixed-point source
/// positions, 64-column tiles), sampling luma and both chroma planes bilinearly and converting
/// each output pixel to RGB.
///
/// Why sample the chroma planes directly rather than upsample them first: libjpeg's upsampling
/// is itself a linear interpolation of the chroma samples (its "fancy" triangle filter), so
/// a bilinear tap at the chroma position gives what a bilinear tap of the upsampled image
/// gives, up to rounding, without ever making the 10 MP RGB photo.
struct PlanarWarpJob: WarpKernel, @unchecked Sendable {
    let m: [Double]
    let planes: PlanarPixels
    let dst: UnsafeMutablePointer<UInt8>
    let ow: Int, oh: Int
    var sh: Int { planes.height }
    var sourceRowBytes: Int { planes.lumaStride + (2 * planes.chromaStride) >> planes.verticalShift }
    var outputPixelBytes: Int { 3 }
    /// The AVX2 loop runs when the CPU has it and every 16.16 position and plane offset fits
    /// its 32-bit lanes.
    let kernel: Bool

    init(m: [Double], planes: PlanarPixels, dst: UnsafeMutablePointer<UInt8>, ow: Int, oh: Int, vectorized: Bool) {
        self.m = m
        self.planes = planes
        self.dst = dst
        self.ow = ow
        self.oh = oh
        kernel =
            vectorized && SIMDWarp.planarAvailable && max(planes.width, planes.height) < 30_000
            && planes.lumaStride * (planes.height + 1) < Int(Int32.max)
    }

    /// A bilinear tap of `plane` at 16.16 position (u, v), both neighbours inside: the value
    /// scaled by 2^16.
    @inline(__always)
    private static func tap(_ plane: UnsafePointer<UInt8>, _ stride: Int, _ u: Int, _ v: Int) -> Int {
        let ax = (u &>> 8) & 255, ay = (v &>> 8) & 255
        let p = plane + ((v &>> 16) &* stride &+ (u &>> 16)), q = p + stride
        let top = Int(p[0]) &<< 8 &+ (Int(p[1]) &- Int(p[0])) &* ax
        let bottom = Int(q[0]) &<< 8 &+ (Int(q[1]) &- Int(q[0])) &* ax
        return top &<< 8 &+ (bottom &- top) &* ay
    }

    /// The same with the position clamped to the plane (`maxX`, `maxY`: its last sample) and
    /// the edge sample repeated.
    @inline(__always)
    private static func clampedTap(
        _ plane: UnsafePointer<UInt8>, _ stride: Int, _ maxX: Int, _ maxY: Int,
        _ u: Int, _ v: Int
    ) -> Int {
        let fx = min(max(u >> 8, 0), maxX << 8), fy = min(max(v >> 8, 0), maxY << 8)
        let x0 = fx >> 8, y0 = fy >> 8, ax = fx & 255, ay = fy & 255
        let dx = x0 < maxX ? 1 : 0, dy = y0 < maxY ? stride : 0
        let p = plane + y0 * stride + x0
        let top = Int(p[0]) << 8 + (Int(p[dx]) - Int(p[0])) * ax
        let bottom = Int(p[dy]) << 8 + (Int(p[dy + dx]) - Int(p[dy])) * ax
        return top << 8 + (bottom - top) * ay
    }

    /// Output row `y`, columns `xStart..<xEnd`.
    @inline(__always)
    func span(y: Int, from xStart: Int, to xEnd: Int) {
        let p = planes
        let (hs, vs) = (p.horizontalShift, p.verticalShift)
        let (maxX, maxY, cMaxX, cMaxY) = (p.width - 1, p.height - 1, p.chromaWidth - 1, p.chromaHeight - 1)
        let (ls, cs) = (p.lumaStride, p.chromaStride)
        // Chroma position of a luma position, 16.16: (u + 0.5) / h - 0.5.
        @inline(__always) func chroma(_ u: Int, _ shift: Int) -> Int { ((u &+ 32768) &>> shift) &- 32768 }
        var out = dst + (y * ow + xStart) * 3
        SpanWalk(m, y: y).steps(from: xStart, to: xEnd, width: ow) { s in
            var (u, v) = (s.u, s.v)
            let (du, dv) = (s.du, s.dv)
            let (ua, ub, va, vb) = (s.ua, s.ub, s.va, s.vb)
            // Both ends inside every plane (with their right and lower neighbours): so is
            // every sample between them, and no tap needs clamping.
            let (cua, cub, cva, cvb) = (chroma(ua, hs), chroma(ub, hs), chroma(va, vs), chroma(vb, vs))
            let inside =
                min(ua, ub) >= 0 && min(va, vb) >= 0 && max(ua, ub) >> 16 < maxX && max(va, vb) >> 16 < maxY
                && min(cua, cub) >= 0 && min(cva, cvb) >= 0 && max(cua, cub) >> 16 < cMaxX
                && max(cva, cvb) >> 16 < cMaxY
            if inside {
                // Pixels in pairs sharing one chroma tap, at the pair's midpoint: the page is
                // written with 4:2:0 chroma anyway, and the source's chroma is half-resolution
                // (a third fewer taps than sampling chroma at every pixel).
                let (luma, cb, cr) = (p.luma, p.cb, p.cr)
                var n = s.x1 - s.x
                // Eight at a time with AVX2 where every 4-byte tap stays inside its plane's rows.
                if kernel, n >= 8, max(ua, ub) >> 16 + 3 < ls, max(cua, cub) >> 16 + 3 < cs {
                    let made = SIMDWarp.planarPairs(
                        luma: luma, lumaStride: ls, cb: cb, cr: cr, chromaStride: cs,
                        horizontalShift: hs, verticalShift: vs,
                        u: u, v: v, du: du, dv: dv, count: n, out: out)
                    out += 3 * made
                    u &+= du &* made; v &+= dv &* made
                    n &-= made
                }
                while n > 0 {
                    let pair = n >= 2
                    let cu = chroma(pair ? u &+ du &>> 1 : u, hs), cv = chroma(pair ? v &+ dv &>> 1 : v, vs)
                    let d = PlanarPixels.rgbOffsets(cb: Self.tap(cb, cs, cu, cv), cr: Self.tap(cr, cs, cu, cv))
                    for k in 0..<(pair ? 2 : 1) {
                        let l = Self.tap(luma, ls, u, v)
                        out[3 * k] = PlanarPixels.channel(l, d.r)
                        out[3 * k + 1] = PlanarPixels.channel(l, d.g)
                        out[3 * k + 2] = PlanarPixels.channel(l, d.b)
                        u &+= du; v &+= dv
                    }
                    out += pair ? 6 : 3
                    n &-= pair ? 2 : 1
                }
            } else {
                for _ in s.x..<s.x1 {
                    let cu = chroma(u, hs), cv = chroma(v, vs)
                    let (r, g, b) = PlanarPixels.rgb(
                        y: Self.clampedTap(p.luma, ls, maxX, maxY, u, v),
                        cb: Self.clampedTap(p.cb, cs, cMaxX, cMaxY, cu, cv),
                        cr: Self.clampedTap(p.cr, cs, cMaxX, cMaxY, cu, cv))
                    out[0] = r; out[1] = g; out[2] = b
                    out += 3
                    u += du; v += dv
                }
            }
        }
    }
}
