internal import CVips
internal import CVipsShim

extension VIPSImage {
    /// Applies the EXIF orientation tag so the image is upright as displayed, and clears it.
    public func autorotated() throws -> VIPSImage {
        try Self.make("autorot") { cvips_autorot(pointer, $0) }
    }

    /// Converts to 8-bit sRGB (or 8-bit grey when `keepGray` and the image is grey), going
    /// through an embedded ICC profile when there is one and flattening any alpha onto a
    /// grey level `background` (255 = white).
    public func displayReady(keepGray: Bool = true, background: Double = 255) throws -> VIPSImage {
        try Self.make("colourspace") { cvips_to_display(pointer, keepGray ? 1 : 0, background, $0) }
    }

    /// Resamples by the given factors (Lanczos3 when shrinking).
    public func resized(horizontal: Double, vertical: Double) throws -> VIPSImage {
        try Self.make("resize") { cvips_resize(pointer, horizontal, vertical, $0) }
    }

    /// Resizes so the result is exactly `width` x `height` pixels.
    public func resized(toWidth width: Int, height: Int) throws -> VIPSImage {
        guard width > 0, height > 0 else {
            throw VIPSError(operation: "resize", message: "target size \(width)x\(height) is empty")
        }
        if width == self.width && height == self.height { return self }
        // vips_resize rounds the output size; nudge the factors so it lands on the target.
        let h = (Double(width) + 0.25) / Double(self.width)
        let v = (Double(height) + 0.25) / Double(self.height)
        return try resized(horizontal: h, vertical: v)
    }

    /// A rectangular region, in pixels.
    public func cropped(x: Int, y: Int, width: Int, height: Int) throws -> VIPSImage {
        try Self.make("crop") { cvips_crop(pointer, Int32(x), Int32(y), Int32(width), Int32(height), $0) }
    }

    /// Rotates clockwise by `quarterTurns` x 90 degrees.
    public func rotated(quarterTurns: Int) throws -> VIPSImage {
        try Self.make("rot") { cvips_rot90(pointer, Int32(quarterTurns), $0) }
    }

    /// Mirrors left-right (`horizontal`) or top-bottom.
    public func flipped(horizontal: Bool) throws -> VIPSImage {
        try Self.make("flip") { cvips_flip(pointer, horizontal ? 1 : 0, $0) }
    }

    /// Fits inside a `box` x `box` square (never enlarging), Lanczos3 through `vips_resize`,
    /// for a result that is saved or materialised (the input is read top to bottom, see
    /// `streamed()`). For pixels already decoded this is several times cheaper than
    /// `thumbnail(width:height:)`, which resamples a memory image tile by tile.
    public func fitted(inside box: Int) throws -> VIPSImage {
        guard box > 0 else { throw VIPSError(operation: "resize", message: "box \(box) is empty") }
        if width <= box && height <= box { return self }
        let size = Self.fittedSize(width: width, height: height, inside: box)
        return try streamed().resized(toWidth: size.width, height: size.height)
    }

    /// The size `fitted(inside:)` gives a `width` x `height` image: the largest with its
    /// aspect ratio inside a `box` x `box` square, rounded to whole pixels, never enlarged.
    public static func fittedSize(width: Int, height: Int, inside box: Int) -> (width: Int, height: Int) {
        if width <= box && height <= box { return (width, height) }
        let scale = min(Double(box) / Double(width), Double(box) / Double(height))
        return (
            min(box, max(1, Int((Double(width) * scale).rounded()))),
            min(box, max(1, Int((Double(height) * scale).rounded())))
        )
    }

    /// Fits inside `width` x `height` (never enlarging) from already-decoded pixels.
    public func thumbnail(width: Int, height: Int) throws -> VIPSImage {
        try Self.make("thumbnail") { cvips_thumbnail_image(pointer, Int32(width), Int32(height), $0) }
    }

    /// Renders the pipeline into memory once, so later reads do not recompute it.
    public func materialized() throws -> VIPSImage {
        try Self.make("copy_memory") { cvips_copy_memory(pointer, $0) }
    }

    /// Casts pixel values to 8-bit unsigned (clipping).
    public func castToUChar() throws -> VIPSImage {
        try Self.make("cast") { cvips_cast_uchar(pointer, $0) }
    }

    /// Bands `first ..< first + count`.
    public func extractBands(_ first: Int, count: Int = 1) throws -> VIPSImage {
        try Self.make("extract_band") { cvips_extract_band(pointer, Int32(first), Int32(count), $0) }
    }
}
