import VipsBridge

/// A page decoded once, at full size, in the orientation the file stores it: the pixels every
/// later step of the page reads (detection copy, corner refinement, warp, or the page itself).
///
/// Why stored orientation: the decode streams top to bottom into one buffer with no rotated
/// copy; the upright page is reached through `orientation` (a rotation folded into the warp's
/// homography, or a lazy libvips rotation for uncorrected pages). Mirrored EXIF orientations
/// (2, 4, 5, 7, rare in captures) are decoded upright instead, so `orientation` is 1 for them.
struct DecodedFrame {
    var frame: VIPSFrame
    /// Stored -> display.
    var orientation: StoredOrientation
    /// The EXIF orientation (1-8) Quire applied (1 when the decoder had already applied it).
    var exifOrientation: Int
    var format: SourceFormat

    /// Size of the upright page.
    var displayWidth: Int { orientation.displaySize.width }
    var displayHeight: Int { orientation.displaySize.height }

    /// A frame of an image already upright and display-ready (tests, pixels from elsewhere).
    init(upright image: VIPSImage, format: SourceFormat = .jpeg) throws {
        var image = image
        if image.format != .uchar { image = try image.castToUChar() }
        frame = try VIPSFrame(rendering: image)
        orientation = StoredOrientation(orientation: 1, storedWidth: frame.width, storedHeight: frame.height)!
        exifOrientation = 1
        self.format = format
    }

    init(frame: VIPSFrame, orientation: StoredOrientation, exifOrientation: Int, format: SourceFormat) {
        self.frame = frame
        self.orientation = orientation
        self.exifOrientation = exifOrientation
        self.format = format
    }

    /// The upright page as a libvips image over the frame's pixels (rotated lazily).
    func uprightImage() throws -> VIPSImage {
        switch orientation.orientation {
        case 3: try frame.image.rotated(quarterTurns: 2)
        case 6: try frame.image.rotated(quarterTurns: 1)
        case 8: try frame.image.rotated(quarterTurns: 3)
        default: frame.image
        }
    }
}
