import VipsBridge

/// A JPEG thumbnail the way Pillow's draft mode makes one, for `--thumbnails-only`: libjpeg
/// decodes at the smallest DCT scale (1/8 or 1/4, else full size) still 1.5 times as large as the thumbnail,
/// `Resampler` filters that down to the exact size, then the EXIF orientation is applied to the
/// few thousand pixels left.
///
/// Why not `vips_thumbnail`: it decodes at a larger scale (it keeps a factor of two for its
/// final filter) through its pipeline and 4 KiB reads, so this path takes about two thirds of
/// its CPU on phone captures (figures in docs/benchmarks.md#figures-behind-design-choices).
/// At 1/8 each output pixel is the mean of an 8x8 block (the DC coefficient), so the
/// Lanczos3 step after it still sees an anti-aliased image.
struct JPEGDraft {
    /// The thumbnail's size, upright.
    var width: Int, height: Int
    /// EXIF orientation of the file (1-8).
    var orientation: Int

    /// `size` (upright) in the file's stored orientation (5-8 are stored turned a quarter).
    func stored(_ size: (width: Int, height: Int)) -> (width: Int, height: Int) {
        orientation >= 5 ? (size.height, size.width) : size
    }

    /// The largest DCT shrink (8, 4, 2 or 1) whose decoded size, ceil(stored / shrink) in both
    /// directions, is still at least 1.5 x `target`, so Lanczos3 has pixels to filter (with
    /// less, small text comes out visibly softer than libvips's thumbnail; Pillow's draft mode
    /// stops at 1x). A 10 MP capture still decodes at 1/8 for a 256-pixel thumbnail.
    static func shrink(storedWidth: Int, storedHeight: Int, covering target: (width: Int, height: Int)) -> Int {
        for s in [8, 4, 2]
        where (storedWidth + s - 1) / s * 2 >= target.width * 3
            && (storedHeight + s - 1) / s * 2 >= target.height * 3
        {
            return s
        }
        return 1
    }

    /// The thumbnail of the JPEG at `path` (`sourceWidth` x `sourceHeight` upright), in memory;
    /// nil when the file is not one this path takes (CMYK) or libjpeg stops on it, so the
    /// caller falls back to libvips, which also words the error.
    /// - Throws: `VIPSError` for a truncated file (the message names the truncation).
    func render(file path: String, sourceWidth: Int, sourceHeight: Int) throws -> VIPSImage? {
        let target = stored((width, height))
        let (storedWidth, storedHeight) = stored((sourceWidth, sourceHeight))
        // At 1/2 the decode saves little and the result is measurably softer on small pictures
        // (2.0 against 0.4 mean error on a 308 x 231 test photo): those decode at full size,
        // which with Resampler is the ideal thumbnail itself, for a few milliseconds.
        let fitting = Self.shrink(storedWidth: storedWidth, storedHeight: storedHeight, covering: target)
        let s = fitting >= 4 ? fitting : 1
        var decoded: VIPSImage
        do {
            guard
                let image = try StageProfile.measure(
                    "t2a draft decode", { try VIPSImage.jpegScaled(file: path, shrink: s) })
            else { return nil }
            decoded = image
        } catch let error as VIPSError where LoaderMessage.jpegEndsEarly.isSaid(by: error.message) {
            // Refused as the full-size decode refuses it (vips_thumbnail would not: in libvips
            // 8.14 it ignores fail_on and fills the missing rows with grey).
            throw error
        } catch {
            return nil
        }
        // Colours through the embedded profile (Display P3 phone photos) at the decoded size,
        // before the filter, as the full-size path does.
        if decoded.hasICCProfile { decoded = try decoded.displayReady(keepGray: true, background: 255).materialized() }
        // A partial last block decodes to a whole pixel: the picture spans stored / s pixels.
        let span = (width: Double(storedWidth) / Double(s), height: Double(storedHeight) / Double(s))
        guard (decoded.width, decoded.height) == (Int(span.width.rounded(.up)), Int(span.height.rounded(.up))) else {
            return nil
        }
        let small = try StageProfile.measure("t2b resample") {
            try decoded.resampled(toWidth: target.width, height: target.height, span: s == 1 ? nil : span)
        }
        return try StageProfile.measure("t2c orientation") { try small.applyingEXIFOrientation(orientation) }
    }
}

extension VIPSImage {
    /// Turns and mirrors an image stored in EXIF `orientation` upright (the table libvips's
    /// autorot uses: 2 mirror; 3 half turn; 4 half turn + mirror; 5 quarter turn clockwise +
    /// mirror; 6 quarter turn clockwise; 7 three quarters + mirror; 8 three quarters).
    func applyingEXIFOrientation(_ orientation: Int) throws -> VIPSImage {
        let turns = [3: 2, 4: 2, 5: 1, 6: 1, 7: 3, 8: 3][orientation] ?? 0
        let mirrored = [2, 4, 5, 7].contains(orientation)
        var image = turns == 0 ? self : try rotated(quarterTurns: turns)
        if mirrored { image = try image.flipped(horizontal: true) }
        return image
    }
}
