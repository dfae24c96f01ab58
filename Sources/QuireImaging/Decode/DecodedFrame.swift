import VipsBridge

/// A page decoded once, at full size, in the orientation the file stores it: the pixels every
/// later step of the page reads (detection copy, corner refinement, warp, or the page itself).
///
/// Why stored orientation: the decode streams top to bottom into one buffer with no rotated
/// copy; the upright page is reached through `orientation` (a rotation folded into the warp's
/// homography, or a lazy libvips rotation for uncorrected pages). Mirrored EXIF orientations
/// (2, 4, 5, 7, rare in captures) are decoded upright instead, so `orientation` is 1 for them.
struct DecodedFrame {
    /// How the pixels are held: interleaved 8-bit (RGB, grey, ...), or a JPEG's own YCbCr
    /// planes (half the memory of RGB for 4:2:0; see `YCbCrFrame`).
    enum Pixels {
        case interleaved(VIPSFrame)
        case planar(YCbCrFrame)
    }
    var pixels: Pixels
    /// Stored -> display.
    var orientation: StoredOrientation
    /// The EXIF orientation (1-8) Quire applied (1 when the decoder had already applied it).
    var exifOrientation: Int
    var format: SourceFormat

    /// Size of the upright page.
    var displayWidth: Int { orientation.displaySize.width }
    var displayHeight: Int { orientation.displaySize.height }
    var storedHeight: Int { Int(orientation.storedHeight) }

    /// A frame of an image already upright and display-ready (tests, pixels from elsewhere).
    init(upright image: VIPSImage, format: SourceFormat = .jpeg) throws {
        var image = image
        if image.format != .uchar { image = try image.castToUChar() }
        let frame = try VIPSFrame(rendering: image)
        pixels = .interleaved(frame)
        orientation = StoredOrientation(orientation: 1, storedWidth: frame.width, storedHeight: frame.height)!
        exifOrientation = 1
        self.format = format
    }

    init(frame: VIPSFrame, orientation: StoredOrientation, exifOrientation: Int, format: SourceFormat) {
        self.init(
            pixels: .interleaved(frame), orientation: orientation, exifOrientation: exifOrientation, format: format)
    }

    init(pixels: Pixels, orientation: StoredOrientation, exifOrientation: Int, format: SourceFormat) {
        self.pixels = pixels
        self.orientation = orientation
        self.exifOrientation = exifOrientation
        self.format = format
    }

    /// The interleaved frame, converting planes to RGB (as libjpeg would have decoded them)
    /// band by band, handing the planes back to the kernel as it goes.
    func interleaved() throws -> VIPSFrame {
        switch pixels {
        case .interleaved(let frame): frame
        case .planar(let planes): try planes.rgbFrame(releasing: true)
        }
    }

    /// Hands stored `rows` back to the kernel (they read as zero afterwards).
    func releaseRows(_ rows: Range<Int>) {
        switch pixels {
        case .interleaved(let frame): frame.releaseRows(rows)
        case .planar(let planes): planes.releaseRows(rows)
        }
    }

    /// The upright page as a libvips image over the frame's pixels (rotated lazily).
    func uprightImage() throws -> VIPSImage {
        let image = try interleaved().image
        switch orientation.orientation {
        case 3: return try image.rotated(quarterTurns: 2)
        case 6: return try image.rotated(quarterTurns: 1)
        case 8: return try image.rotated(quarterTurns: 3)
        default: return image
        }
    }
}

extension DecodedFrame {
    /// The small upright copy detection runs on, averaged from the frame in either form (or
    /// taken from the averages made while the planes were decoded).
    func detectionCopy() -> DetectionCopy {
        switch pixels {
        case .interleaved(let frame):
            DetectionCopy(
                frame: UnsafeBufferPointer(frame.pixels), width: frame.width, height: frame.height,
                bands: frame.bands, orientation: orientation)
        case .planar(let planes):
            DetectionCopy(averaged: planes, orientation: orientation)
                ?? DetectionCopy(planes: PlanarPixels(planes), orientation: orientation)
        }
    }

    /// `quad` (stored pixels) with its sides re-measured on the full-size frame
    /// (`PageDetector.refine`).
    func refined(_ quad: Quad, insideBrighter: Bool, searchRadius: Double) -> Quad {
        switch pixels {
        case .interleaved(let frame):
            PageDetector.refine(
                quad, pixels: UnsafeBufferPointer(frame.pixels), width: frame.width, height: frame.height,
                bands: frame.bands, insideBrighter: insideBrighter, searchRadius: searchRadius)
        case .planar(let planes):
            PageDetector.refine(
                quad, on: PlanarPixels(planes), insideBrighter: insideBrighter, searchRadius: searchRadius)
        }
    }
}
