import QuireGeometry

/// The EXIF orientations that are pure rotations (1, 3, 6, 8), as maps between display
/// coordinates (the upright image) and stored coordinates (the pixels as the file holds them),
/// both continuous (an image spans 0...width, pixel centres at +0.5).
///
/// Why: a page is decoded in the orientation the file stores it (a streaming decode, no
/// rotated copy of the frame); quads move between the two frames through this map, and the
/// rotation folds into the perspective warp's homography.
struct StoredOrientation: Sendable, Equatable {
    var orientation: Int
    /// Size of the stored image.
    var storedWidth: Double, storedHeight: Double

    /// nil for the mirrored orientations (2, 4, 5, 7), whose quads would turn inside out.
    init?(orientation: Int, storedWidth: Int, storedHeight: Int) {
        guard [1, 3, 6, 8].contains(orientation) else { return nil }
        self.orientation = orientation
        self.storedWidth = Double(storedWidth)
        self.storedHeight = Double(storedHeight)
    }

    /// The upright (display) size.
    var displaySize: (width: Int, height: Int) {
        orientation == 6 || orientation == 8
            ? (Int(storedHeight), Int(storedWidth)) : (Int(storedWidth), Int(storedHeight))
    }

    /// Display -> stored. Orientation 6 is shown turned 90 degrees clockwise (stored (sx, sy)
    /// appears at (H - sy, sx)), 8 counter-clockwise (at (sy, W - sx)), 3 half a turn.
    func stored(_ p: Point) -> Point {
        switch orientation {
        case 3: Point(x: storedWidth - p.x, y: storedHeight - p.y)
        case 6: Point(x: p.y, y: storedHeight - p.x)
        case 8: Point(x: storedWidth - p.y, y: p.x)
        default: p
        }
    }

    /// Stored -> display (the inverse of `stored`).
    func display(_ p: Point) -> Point {
        switch orientation {
        case 3: Point(x: storedWidth - p.x, y: storedHeight - p.y)
        case 6: Point(x: storedHeight - p.y, y: p.x)
        case 8: Point(x: p.y, y: storedWidth - p.x)
        default: p
        }
    }

    func stored(_ q: Quad) -> Quad {
        Quad(
            topLeft: stored(q.topLeft), topRight: stored(q.topRight),
            bottomRight: stored(q.bottomRight), bottomLeft: stored(q.bottomLeft))
    }

    func display(_ q: Quad) -> Quad {
        Quad(
            topLeft: display(q.topLeft), topRight: display(q.topRight),
            bottomRight: display(q.bottomRight), bottomLeft: display(q.bottomLeft))
    }
}
