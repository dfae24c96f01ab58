internal import CTesseract

/// Leptonica's reading of whether lines of text running across are upright or upside down
/// (`pixUpDownDetect`, BSD-2, in the leptonica library Tesseract links): it closes the letters
/// of each word into a solid band, then counts hit-miss matches of the corners where
/// ascenders rise above the x-height and where descenders hang below it. Latin text has more
/// ascenders than descenders, so upright the "up" corners win. It reads ink shapes, not the
/// baseline statistics of the line look (`LineOrientation`), so the two are independent
/// witnesses on a page's 0 or 180; it costs a few milliseconds on a 2000 px page.
public enum TextUpDown {
    /// Leptonica's own least count of corners (`DefaultMinUpDownCount`): under it the reading
    /// is 0 (no answer).
    public static let leptonicaMinimumCount: Int32 = 70

    /// Leptonica's confidence that the ink of `gray` (`width` x `height`, 8-bit, paper light)
    /// darker than `threshold` is text reading upright: 2 (up - down) / sqrt(up + down) over
    /// the corners counted, positive upright, negative upside down, 0 with too few corners.
    /// With `turnedClockwise` the page is read turned a quarter clockwise (for lines that run
    /// down it). nil when the sizes do not match or leptonica fails.
    public static func confidence(
        gray: [UInt8], width: Int, height: Int, below threshold: UInt8, turnedClockwise: Bool = false
    ) -> Double? {
        guard width > 0, height > 0, width <= TextImage.maximumSide, height <= TextImage.maximumSide,
            gray.count == width * height
        else { return nil }
        let (w, h) = turnedClockwise ? (height, width) : (width, height)
        guard let pix = pixCreate(Int32(w), Int32(h), 1) else { return nil }
        defer {
            var owned: UnsafeMutablePointer<PIX>? = pix
            pixDestroy(&owned)
        }
        guard let data = pixGetData(pix) else { return nil }
        let wpl = Int(pixGetWpl(pix))
        for y in 0..<h {
            let row = data + y * wpl
            for x in 0..<w {
                // Turned a quarter clockwise, (x, y) shows the page's (y, height - 1 - x).
                let i = turnedClockwise ? (height - 1 - x) * width + y : y * width + x
                if gray[i] < threshold { row[x >> 5] |= UInt32(0x8000_0000) >> UInt32(x & 31) }
            }
        }
        var conf: Float = 0
        guard pixUpDownDetect(pix, &conf, leptonicaMinimumCount, 0, 0) == 0, conf.isFinite else { return nil }
        return Double(conf)
    }
}
