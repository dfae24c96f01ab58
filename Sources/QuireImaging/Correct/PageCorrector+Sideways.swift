import VipsBridge

/// A photographed page comes out of the warp the way the photo held it: the quad's corners are
/// named as the photo shows them, not as the page reads, so a page shot from the desk's side,
/// a landscape page shot in portrait or a page shot upside down comes out on its side or
/// upside down. Every straightened photo is asked which way up it is, as a scan is: the
/// orientation detector (`TesseractOSD`: the line look, then Tesseract on a crop when the look
/// is not sure) answers in tens of milliseconds on most pages of text, and a page with too
/// little text is kept as it is with low confidence.
extension PageCorrector {
    /// A photo straightened from a detected quad (`record`), with its `preview`: turned upright
    /// when the orientation detector is sure which way up it is (a quarter turn or a half);
    /// as it is otherwise. The turned page's quad names the page's own corners (its top-left
    /// first), so warping from it gives the upright page and a split half maps back through it.
    func turnedUpright(_ page: VIPSImage, preview: VIPSImage, record: CorrectionRecord) throws
        -> (page: VIPSImage, preview: VIPSImage, record: CorrectionRecord)
    {
        guard orientation != nil, record.kind == .perspective, let quad = record.quad else {
            return (page, preview, record)
        }
        var turned = record
        guard let guess = try quarterTurn(of: page) else { return (page, preview, record) }
        turned.rotationConfidence = guess.confidence
        guard OrientationPolicy.turns(guess) else { return (page, preview, turned) }
        let turns = guess.rotate / 90
        turned.rotation = guess.rotate
        turned.quad = Self.quarterTurned(quad, turns: turns)
        return (try page.rotated(quarterTurns: turns), try preview.rotated(quarterTurns: turns), turned)
    }

    /// A grey copy of `image` about `longSide` long: block means of its green channel (most of
    /// luma), every other pixel of each block (`blockGray`), when the image is 8-bit in memory
    /// (a preview: about a millisecond), else shrunk by libvips (`ScanDeskew.smallGray`).
    static func gray(_ image: VIPSImage, longSide: Int) throws -> (gray: [UInt8], width: Int, height: Int) {
        guard image.format == .uchar, image.isInMemory else {
            return try ScanDeskew.smallGray(image, longSide: longSide)
        }
        let (w, h, bands) = (image.width, image.height, image.bands)
        let f = max(1, (max(w, h) + longSide - 1) / longSide)
        let (ow, oh) = (w / f, h / f)
        guard ow >= 16, oh >= 16 else { return try ScanDeskew.smallGray(image, longSide: longSide) }
        let pixels = try image.withPixels { p in Self.blockGray(p, width: w, height: h, bands: bands, factor: f) }
        return (pixels, ow, oh)
    }

    /// `quad`'s corners renamed for the page warped from it and then turned `turns` quarter
    /// turns clockwise: the turned page's top-left is the old bottom-left, and so on.
    static func quarterTurned(_ quad: Quad, turns: Int) -> Quad {
        let k = ((turns % 4) + 4) % 4
        return Quad(corners: (0..<4).map { quad.corners[($0 + 4 - k) % 4] })!
    }
}
