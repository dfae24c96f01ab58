import VipsBridge

/// A page decoded and made upright: the first step of the one-page flow.
struct DecodedPage {
    /// Oriented, display-ready pixels (8-bit sRGB, or 8-bit grey for grey sources; alpha
    /// flattened on white). Lazy: pixels are computed when first read.
    var image: VIPSImage
    /// The EXIF orientation (1-8) Quire applied (1 when the decoder had already applied it).
    var orientation: Int
    var format: SourceFormat
}

/// Opens one page of a file, checks its size from the header, and makes it upright and
/// display-ready.
struct PageDecoder: Sendable {
    /// Pages with more pixels than this are refused before any pixel is decoded.
    var maxPixels: Int

    /// - Throws: `ImagingError` (tooLarge is decided from the header alone).
    func decode(_ source: PageSource) throws -> DecodedPage {
        let format = try SourceProbe.format(of: source.path)
        if format == .jpeg { try JPEGDataFloor.check(path: source.path) }
        let inches = format == .pdf ? try PDFPageSize.check(source) : nil
        let header: VIPSImage
        let atDirectory: Bool
        do {
            // Random access (the default) decodes once into memory on first read, so the
            // page, its preview and the corrector all read the same decoded pixels.
            (header, atDirectory) = try TIFFDirectories.load(
                source, format: format,
                options: .init(
                    page: source.page, pageCount: 1, dpi: format == .pdf ? source.dpi : nil,
                    failOn: .truncated))
        } catch {
            throw ImagingError.decoding(error, path: source.path)
        }
        if format.isMultiPage && !atDirectory && source.page >= header.pageCount {
            throw ImagingError(
                .noSuchPage, path: source.path,
                reason: "has no page \(source.page + 1) (it has \(header.pageCount))")
        }
        if let inches { try PDFPageSize.verify(header, inches: inches, source: source) }
        let pixels = header.width * header.height
        if pixels > maxPixels {
            throw ImagingError(
                .tooLarge, path: source.path,
                reason:
                    "\(header.width)x\(header.height) is \(Self.megapixels(pixels)) MP, over --max-pixels \(Self.megapixels(maxPixels)) MP"
            )
        }
        do {
            let orientation = format.decoderAppliesOrientation ? 1 : header.orientation
            let upright = orientation == 1 ? header : try header.autorotated()
            let display = try upright.displayReady(keepGray: true, background: 255)
            return DecodedPage(image: display, orientation: orientation, format: format)
        } catch {
            throw ImagingError.decoding(error, path: source.path)
        }
    }

    /// Decodes the page once, at full size, into a frame (see `DecodedFrame`): a streaming
    /// decode in stored orientation for upright and rotated files, an upright random-access
    /// decode for mirrored orientations. The size is checked from the header first.
    /// - Throws: `ImagingError` (tooLarge from the header; decoding errors name the file).
    /// - Parameters:
    ///   - planar: a 4:2:0 or 4:2:2 JPEG may come back as its YCbCr planes (half the memory of
    ///     RGB), for callers that read `DecodedFrame.pixels` in either form.
    ///   - admit: called once with the frame's size in bytes after the header is read, before
    ///     any pixel is decoded (where a batch waits for room in its `FrameGate`).
    ///   - averaging: planes also average the detection copy's pixels as they are decoded
    ///     (`DecodedFrame.detectionCopy()` then takes them), for callers that will make it.
    func decodeFrame(
        _ source: PageSource, planar: Bool = false, averaging: Bool = false, admit: (Int) -> Void = { _ in }
    ) throws -> DecodedFrame {
        let header = try decode(source)
        var admitted = false
        func admitOnce(_ bytes: Int) {
            if !admitted { admit(bytes) }
            admitted = true
        }
        do {
            let o = header.orientation
            if let map = StoredOrientation(
                orientation: o, storedWidth: o >= 5 ? header.image.height : header.image.width,
                storedHeight: o >= 5 ? header.image.width : header.image.height)
            {
                // A capture's own YCbCr planes when asked (half the memory). A file the plane
                // decoder declines decodes to RGB; one it fails on (corrupt, truncated) goes
                // straight to libvips below, which refuses it too and words the error. Should it
                // fail after admission, the page keeps the smaller claim it was admitted with:
                // the gate is a bound for the normal case, and the failure ends the page.
                var libjpegFailed = false
                if planar, header.format == .jpeg {
                    do {
                        let (w, h) = (Int(map.storedWidth), Int(map.storedHeight))
                        if let planes = try YCbCrFrame.decodingJPEG(
                            file: source.path, width: w, height: h,
                            averagingBy: averaging ? DetectionCopy.factor(width: w, height: h) : nil,
                            admit: admitOnce)
                        {
                            return DecodedFrame(
                                pixels: .planar(planes), orientation: map, exifOrientation: o,
                                format: header.format)
                        }
                    } catch {
                        libjpegFailed = true
                    }
                }
                admitOnce(header.image.width * header.image.height * header.image.bands)
                // JPEGs (nearly every capture) straight from libjpeg; anything it declines or
                // stops on goes through libvips below, which also words the error.
                if header.format == .jpeg, !libjpegFailed,
                    let frame = try? VIPSFrame.decodingJPEG(
                        file: source.path, width: Int(map.storedWidth),
                        height: Int(map.storedHeight), bands: header.image.bands)
                {
                    return DecodedFrame(frame: frame, orientation: map, exifOrientation: o, format: header.format)
                }
                // PNGs (most scans) straight from libpng; the same fallback for what it declines
                // or stops on.
                if header.format == .png,
                    let frame = try? VIPSFrame.decodingPNG(
                        file: source.path, width: Int(map.storedWidth),
                        height: Int(map.storedHeight), bands: header.image.bands)
                {
                    return DecodedFrame(frame: frame, orientation: map, exifOrientation: o, format: header.format)
                }
                // TIFFs (scanner output: one-bit G4 pages) straight from libtiff; the same
                // fallback for what it declines or stops on.
                if header.format == .tiff,
                    let frame = try? VIPSFrame.decodingTIFF(
                        file: source.path, page: source.page, width: Int(map.storedWidth),
                        height: Int(map.storedHeight), bands: header.image.bands)
                {
                    return DecodedFrame(frame: frame, orientation: map, exifOrientation: o, format: header.format)
                }
                var stored = try TIFFDirectories.load(
                    source, format: header.format,
                    options: .init(
                        page: source.page, pageCount: 1, dpi: header.format == .pdf ? source.dpi : nil,
                        sequential: true, failOn: .truncated)
                ).0
                stored = try stored.displayReady(keepGray: true, background: 255)
                if stored.format != .uchar { stored = try stored.castToUChar() }
                if (stored.width, stored.height) == (Int(map.storedWidth), Int(map.storedHeight)) {
                    return DecodedFrame(
                        frame: try VIPSFrame(rendering: stored), orientation: map,
                        exifOrientation: o, format: header.format)
                }
            }
            // Mirrored orientations (or a loader that disagrees with its header): upright.
            admitOnce(header.image.width * header.image.height * header.image.bands)
            var upright = header.image
            if upright.format != .uchar { upright = try upright.castToUChar() }
            let frame = try VIPSFrame(rendering: upright)
            return DecodedFrame(
                frame: frame,
                orientation: StoredOrientation(orientation: 1, storedWidth: frame.width, storedHeight: frame.height)!,
                exifOrientation: o, format: header.format)
        } catch let error as ImagingError {
            throw error
        } catch {
            throw ImagingError.decoding(error, path: source.path)
        }
    }

    static func megapixels(_ pixels: Int) -> String {
        let tenths = (Double(pixels) / 100_000).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0
            ? String(Int(tenths / 10)) : String(Double(tenths) / 10)
    }
}
