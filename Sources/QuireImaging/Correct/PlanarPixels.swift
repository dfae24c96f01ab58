import VipsBridge

/// A borrowed view of an image held as YCbCr planes (`YCbCrFrame`): full-size luma and chroma
/// subsampled 2x across and 1x or 2x down, with JPEG's centred chroma siting. What the warp,
/// the detection copy and the corner refinement read when a capture is decoded to planes.
///
/// Coordinates: luma sample (i, j) is centred at (i + 0.5, j + 0.5) of the image; chroma
/// sample (i, j) covers `h` x `v` luma samples and is centred on them, at
/// ((i + 0.5) h, (j + 0.5) v). So luma sample position x (a sample index, centres at whole
/// numbers) is chroma position (x + 0.5) / h - 0.5, as libjpeg's triangle upsampling assumes.
public struct PlanarPixels: @unchecked Sendable {
    public let luma: UnsafePointer<UInt8>
    public let cb: UnsafePointer<UInt8>
    public let cr: UnsafePointer<UInt8>
    public let width: Int, height: Int
    public let chromaWidth: Int, chromaHeight: Int
    public let lumaStride: Int, chromaStride: Int
    /// log2 of the subsampling: 1 across; 1 (4:2:0) or 0 (4:2:2) down.
    public let horizontalShift: Int, verticalShift: Int

    /// A view of three planes the caller keeps alive: luma `width` x `height`, chroma `chromaWidth` x `chromaHeight`, subsampled by 2^shift.
    public init(
        luma: UnsafePointer<UInt8>, cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>,
        width: Int, height: Int, chromaWidth: Int, chromaHeight: Int,
        lumaStride: Int, chromaStride: Int, horizontalShift: Int, verticalShift: Int
    ) {
        precondition((0...1).contains(horizontalShift) && (0...1).contains(verticalShift))
        precondition(
            chromaWidth == (width + (1 << horizontalShift) - 1) >> horizontalShift
                && chromaHeight == (height + (1 << verticalShift) - 1) >> verticalShift)
        self.luma = luma
        self.cb = cb
        self.cr = cr
        self.width = width
        self.height = height
        self.chromaWidth = chromaWidth
        self.chromaHeight = chromaHeight
        self.lumaStride = lumaStride
        self.chromaStride = chromaStride
        self.horizontalShift = horizontalShift
        self.verticalShift = verticalShift
    }

    /// The planes of a decoded frame (valid while the frame lives).
    public init(_ frame: YCbCrFrame) {
        self.init(
            luma: frame.luma, cb: frame.cb, cr: frame.cr, width: frame.width, height: frame.height,
            chromaWidth: frame.chromaWidth, chromaHeight: frame.chromaHeight,
            lumaStride: frame.lumaStride, chromaStride: frame.chromaStride,
            horizontalShift: frame.horizontalFactor == 2 ? 1 : 0, verticalShift: frame.verticalFactor == 2 ? 1 : 0)
    }

    /// JFIF's YCbCr -> RGB (full range, BT.601) as what to add to luma for each channel, from
    /// chroma scaled by 2^16 (the output of an 8.8 x 8.8 fixed-point bilinear tap): 1.402,
    /// 0.344136, 0.714136 and 1.772 in 14-bit fixed point on chroma cut to 8 fractional bits,
    /// so every product fits 32 bits (the AVX2 warp, `WarpKernel`, computes the same), with the
    /// rounding half folded in: channel = (luma scaled by 2^16 + offset) >> 16.
    @inline(__always)
    static func rgbOffsets(cb: Int, cr: Int) -> (r: Int, g: Int, b: Int) {
        let b0 = (cb &>> 8) &- 32768, r0 = (cr &>> 8) &- 32768
        return (
            ((22970 &* r0) &>> 6) &+ 32768,
            32768 &- ((5638 &* b0 &+ 11700 &* r0) &>> 6),
            ((29032 &* b0) &>> 6) &+ 32768
        )
    }

    /// A channel from luma scaled by 2^16 and its offset, clamped to a byte.
    @inline(__always)
    static func channel(_ y: Int, _ offset: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max((y &+ offset) &>> 16, 0), 255))
    }

    /// RGB from luma and chroma scaled by 2^16 (see `rgbOffsets`).
    @inline(__always)
    static func rgb(y: Int, cb: Int, cr: Int) -> (UInt8, UInt8, UInt8) {
        let d = rgbOffsets(cb: cb, cr: cr)
        return (channel(y, d.r), channel(y, d.g), channel(y, d.b))
    }

    /// Bilinear sample of one plane at sample position (x, y), clamped to its edges: the value
    /// scaled by 2^16.
    @inline(__always)
    static func sample(_ plane: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, x: Double, y: Double)
        -> Double
    {
        let cx = min(max(x, 0), Double(width - 1)), cy = min(max(y, 0), Double(height - 1))
        let x0 = min(Int(cx), width - 1), y0 = min(Int(cy), height - 1)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = cx - Double(x0), fy = cy - Double(y0)
        let top = Double(plane[y0 * stride + x0]) * (1 - fx) + Double(plane[y0 * stride + x1]) * fx
        let bottom = Double(plane[y1 * stride + x0]) * (1 - fx) + Double(plane[y1 * stride + x1]) * fx
        return top * (1 - fy) + bottom * fy
    }

    /// Luma, Cb and Cr at luma sample position (x, y), bilinear, edges clamped.
    @inline(__always)
    func ycc(_ x: Double, _ y: Double) -> (Double, Double, Double) {
        let cx = (x + 0.5) / Double(1 << horizontalShift) - 0.5, cy = (y + 0.5) / Double(1 << verticalShift) - 0.5
        return (
            Self.sample(luma, stride: lumaStride, width: width, height: height, x: x, y: y),
            Self.sample(cb, stride: chromaStride, width: chromaWidth, height: chromaHeight, x: cx, y: cy),
            Self.sample(cr, stride: chromaStride, width: chromaWidth, height: chromaHeight, x: cx, y: cy)
        )
    }
}
