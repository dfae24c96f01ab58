import VipsBridge

/// A page photographed lying a quarter turn round (the photographer at the desk's side, or a
/// landscape page shot in portrait) comes out of the warp on its side: the quad's corners are
/// named as the photo shows them, not as the page reads. Asking Tesseract which way up every
/// photo is would cost a subprocess per page, so a cheap look comes first: on a straightened
/// page the text lines run along one of its axes, and a page on its side has its ink lining up
/// in columns rather than rows (the comparison the skew estimate makes, within a few degrees).
/// Only then is the orientation detector asked, and only a quarter turn it is sure of is taken
/// (a page whose lines run down is not upside down).
extension PageCorrector {
    /// Long side of the grey copy the lines' direction is measured on.
    static let sidewaysCheckLongSide = 400
    /// Angles looked at on either side of the straightened page's axes (a page warped from its
    /// quad lies square to within a degree or so).
    static let sidewaysCheckRange = 2.0

    /// A photo straightened from a detected quad (`record`), with its `preview`: turned upright
    /// when its lines run up or down and the orientation detector is sure which way; as it is
    /// otherwise. The turned page's quad names the page's own corners (its top-left first), so
    /// warping from it gives the upright page and a split half maps back through it.
    func turnedUpright(_ page: VIPSImage, preview: VIPSImage, record: CorrectionRecord) throws
        -> (page: VIPSImage, preview: VIPSImage, record: CorrectionRecord)
    {
        guard orientation != nil, record.kind == .perspective, let quad = record.quad else {
            return (page, preview, record)
        }
        let runsDown = try StageProfile.measure("2g line direction") {
            let small = try Self.gray(preview, longSide: Self.sidewaysCheckLongSide)
            return SkewEstimator.linesRunDown(
                gray: small.gray, width: small.width, height: small.height,
                within: Self.sidewaysCheckRange)
        }
        guard runsDown else { return (page, preview, record) }
        var turned = record
        guard let guess = try quarterTurn(of: page) else { return (page, preview, record) }
        turned.rotationConfidence = guess.confidence
        guard OrientationPolicy.turns(guess), guess.rotate % 180 == 90 else { return (page, preview, turned) }
        let turns = guess.rotate / 90
        turned.rotation = guess.rotate
        turned.quad = Self.quarterTurned(quad, turns: turns)
        return (try page.rotated(quarterTurns: turns), try preview.rotated(quarterTurns: turns), turned)
    }

    /// A grey copy of `image` about `longSide` long: block means of its green channel (most of
    /// luma), every other pixel of each block, when the image is 8-bit in memory (a preview:
    /// about a millisecond), else shrunk by libvips (`ScanDeskew.smallGray`).
    static func gray(_ image: VIPSImage, longSide: Int) throws -> (gray: [UInt8], width: Int, height: Int) {
        guard image.format == .uchar, image.isInMemory else {
            return try ScanDeskew.smallGray(image, longSide: longSide)
        }
        let (w, h, bands) = (image.width, image.height, image.bands)
        let f = max(1, (max(w, h) + longSide - 1) / longSide)
        let (ow, oh) = (w / f, h / f)
        guard ow >= 16, oh >= 16 else { return try ScanDeskew.smallGray(image, longSide: longSide) }
        let step = f >= 2 ? 2 : 1, channel = bands >= 3 ? 1 : 0
        let taps = ((f + step - 1) / step) * ((f + step - 1) / step)
        return try image.withPixels { p in
            var gray = [UInt8](repeating: 0, count: ow * oh)
            for oy in 0..<oh {
                for ox in 0..<ow {
                    var sum = 0
                    for y in stride(from: oy * f, to: oy * f + f, by: step) {
                        for x in stride(from: ox * f, to: ox * f + f, by: step) {
                            sum += Int(p[(y * w + x) * bands + channel])
                        }
                    }
                    gray[oy * ow + ox] = UInt8(sum / taps)
                }
            }
            return (gray, ow, oh)
        }
    }

    /// `quad`'s corners renamed for the page warped from it and then turned `turns` quarter
    /// turns clockwise: the turned page's top-left is the old bottom-left, and so on.
    static func quarterTurned(_ quad: Quad, turns: Int) -> Quad {
        let k = ((turns % 4) + 4) % 4
        return Quad(corners: (0..<4).map { quad.corners[($0 + 4 - k) % 4] })!
    }
}
