import VipsBridge

/// The EXIF orientations that are pure rotations (1, 3, 6, 8), as maps between display
/// coordinates (the upright image) and stored coordinates (the pixels as the file holds them),
/// both continuous (an image spans 0...width, pixel centres at +0.5).
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
        orientation == 6 || orientation == 8 ? (Int(storedHeight), Int(storedWidth)) : (Int(storedWidth), Int(storedHeight))
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
        Quad(topLeft: stored(q.topLeft), topRight: stored(q.topRight),
             bottomRight: stored(q.bottomRight), bottomLeft: stored(q.bottomLeft))
    }

    func display(_ q: Quad) -> Quad {
        Quad(topLeft: display(q.topLeft), topRight: display(q.topRight),
             bottomRight: display(q.bottomRight), bottomLeft: display(q.bottomLeft))
    }
}

extension PageCorrector {
    /// Straightens a photo's page straight from the file's stored pixels: one streaming decode
    /// (no random-access copy of the frame, no upright copy of an EXIF-rotated capture), the
    /// corners refined and the page warped in stored coordinates with the quad mapped there —
    /// the rotation folds into the warp's homography, so the output is the same upright page.
    /// Peak memory is one decoded frame plus the page, instead of three or four frames.
    ///
    /// - Parameters:
    ///   - quad: the page corners in display pixels; `refineRadius` > 0 refines them first.
    /// - Returns: nil when the file cannot be read this way (multi-page or vector formats,
    ///   decoders that orient themselves, mirrored orientations, a frame that does not match
    ///   `displayWidth` x `displayHeight`): the caller then takes the upright-image path.
    func straightenFromStoredPixels(source: PageSource, displayWidth: Int, displayHeight: Int, quad: Quad,
                                    insideBrighter: Bool, refineRadius: Double) throws -> (image: VIPSImage, quad: Quad)? {
        guard !source.path.isEmpty, let format = try? SourceProbe.format(of: source.path),
              [.jpeg, .png, .webp].contains(format) else { return nil }
        let file: VIPSImage
        do {
            file = try VIPSImage.load(file: source.path, options: .init(sequential: true, failOn: .truncated))
        } catch {
            throw ImagingError.decoding(error, path: source.path)
        }
        guard let map = StoredOrientation(orientation: file.orientation, storedWidth: file.width, storedHeight: file.height),
              map.displaySize == (displayWidth, displayHeight) else { return nil }
        var stored = try file.displayReady(keepGray: true, background: 255)
        if stored.format != .uchar { stored = try stored.castToUChar() }
        let (width, height, bands) = (stored.width, stored.height, stored.bands)
        var storedQuad = map.stored(quad)
        let page: VIPSImage
        do {
            // Decoded straight into one array (no libvips copy beside it).
            let bytes = try stored.pixelBytesDirect()
            stored = file  // drop the pipeline's reference before the big work
            if refineRadius > 0 {
                storedQuad = PageDetector.refine(storedQuad, pixels: bytes, width: width, height: height, bands: bands,
                                                 insideBrighter: insideBrighter, searchRadius: refineRadius)
            }
            let size = PageShape.outputSize(for: map.display(storedQuad), imageWidth: displayWidth,
                                            imageHeight: displayHeight, paper: options.paper)
            // Warped straight into the page image's own buffer.
            page = try VIPSImage.filled(width: size.width, height: size.height, bands: bands) { out in
                try bytes.withUnsafeBufferPointer { src in
                    try PerspectiveWarp.warp(pixels: src, width: width, height: height, bands: bands, quad: storedQuad,
                                             outputWidth: size.width, outputHeight: size.height, into: out)
                }
            }
        } catch let error as ImagingError {
            throw error
        } catch {
            throw ImagingError.decoding(error, path: source.path)
        }
        return (page, map.display(storedQuad))
    }
}
