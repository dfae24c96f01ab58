import QuireGeometry

/// Checks corners a user gave (`--corners`) against the image they are applied to.
enum UserCorners {
    /// How far outside the image a corner may lie, as a share of the image's width (for x) or
    /// height (for y): a page cut by the frame has corners a little outside it, while a corner
    /// further out is a mistake in the file (another image's corners, a unit slip) and would
    /// ask for a page many times the size of its source.
    static let slack = 0.5

    /// - Throws: `ImagingError` badCorners naming the file and the first corner out of range.
    static func check(_ quad: Quad, imageWidth: Int, imageHeight: Int, path: String) throws {
        let (w, h) = (Double(imageWidth), Double(imageHeight))
        let names = ["top-left", "top-right", "bottom-right", "bottom-left"]
        for (i, p) in quad.corners.enumerated() {
            guard p.x.isFinite, p.y.isFinite,
                p.x >= -slack * w, p.x <= (1 + slack) * w, p.y >= -slack * h, p.y <= (1 + slack) * h
            else {
                throw ImagingError(
                    .badCorners, path: path,
                    reason:
                        "the \(names[i]) corner from --corners lies far outside the \(imageWidth)x\(imageHeight) image")
            }
        }
    }
}

/// A warped page larger than `--max-pixels`, found from its corners before any pixel is made;
/// the pipeline names the file (`ImagingError.tooLarge`).
struct OutputTooLarge: Error {
    var width: Int
    var height: Int
    var maxPixels: Int
}
