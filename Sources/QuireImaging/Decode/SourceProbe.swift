import Foundation
import VipsBridge

/// What a quick look at an input file tells: its format and how many pages it holds.
public struct SourceInfo: Sendable, Hashable, Codable {
    /// The file's path on disk.
    public var path: String
    public var format: SourceFormat
    /// Pages the file contributes to a batch: every page of a TIFF or PDF, 1 otherwise.
    public var pageCount: Int
    /// Pixels of the first page as its header says (a PDF's at the batch's dpi); 0 when the
    /// header could not say. Only an estimate of a page's work, for the batch's order of work.
    public var pixelCount: Int

    /// What the header of `path` said: its format, how many pages it holds and how large the
    /// first is.
    public init(path: String, format: SourceFormat, pageCount: Int, pixelCount: Int = 0) {
        self.path = path
        self.format = format
        self.pageCount = pageCount
        self.pixelCount = pixelCount
    }
}

/// Opens input files far enough to know whether Quire can take them and how many pages they
/// hold, reading headers only (no pixels are decoded).
public enum SourceProbe {
    /// Checks that `path` is a readable, non-empty image file of a supported format and counts
    /// its pages (the header's `n-pages`).
    /// - Throws: `ImagingError` with kind missing, unreadable, empty, notAnImage,
    ///   unsupportedFormat or truncated.
    public static func probe(_ path: String, dpi: Double = 200) throws -> SourceInfo {
        try ImagingError.retryingLostReason { try probeOnce(path, dpi: dpi) }
    }

    private static func probeOnce(_ path: String, dpi: Double) throws -> SourceInfo {
        let format = try format(of: path)
        guard format.isMultiPage else {
            // The header alone (libvips opens files lazily); a file it cannot open is refused
            // later, by the page's decode, with the decoder's reason.
            let pixels = (try? VIPSImage.load(file: path))?.pixelCount ?? 0
            return SourceInfo(path: path, format: format, pageCount: 1, pixelCount: pixels)
        }
        let header: VIPSImage
        do {
            // Pages are only counted here: at 1 dpi a PDF page too large to render at `dpi` is
            // still read (and refused as such when its page is decoded, `PDFPageSize`).
            header = try VIPSImage.load(file: path, options: .init(page: 0, dpi: format == .pdf ? 1 : nil))
        } catch {
            throw ImagingError.decoding(error, path: path)
        }
        // A PDF's header was read at 1 dpi: its sides are in inches.
        let scale = format == .pdf ? dpi * dpi : 1
        return SourceInfo(
            path: path, format: format, pageCount: header.pageCount,
            pixelCount: Int(min(Double(header.pixelCount) * scale, Double(Int.max / 2))))
    }

    /// The format of a file from its first bytes, after the checks a user hears about first
    /// (missing, a folder, unreadable, empty).
    static func format(of path: String) throws -> SourceFormat {
        try checkRegularFile(path)
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImagingError(.unreadable, path: path, reason: "cannot be read (permission denied)")
        }
        let head = (try? handle.read(upToCount: 512)) ?? nil
        try? handle.close()
        guard let head, !head.isEmpty else {
            throw ImagingError(.empty, path: path, reason: "empty file")
        }
        // SVG and gzip (SVGZ) are declined from their bytes, before libvips looks at them:
        // sniffing a truncated .svgz inside libvips never returns.
        if !ImagingRuntime.untrustedFormatsAllowed, let name = SourceFormat.sniffUnsupported([UInt8](head)),
            name == "SVG" || name.hasPrefix("gzip")
        {
            throw ImagingError(
                .unsupportedFormat, path: path,
                reason: "unsupported format (\(name); --allow-untrusted-formats to decode it)")
        }
        guard let loader = VIPSImage.loaderName(forFile: path) else {
            if let name = SourceFormat.sniffUnsupported([UInt8](head)) {
                throw ImagingError(.unsupportedFormat, path: path, reason: "unsupported format (\(name))")
            }
            throw ImagingError(.notAnImage, path: path, reason: "not an image (unknown format)")
        }
        guard let format = SourceFormat(loader: loader), !format.isUntrusted || ImagingRuntime.untrustedFormatsAllowed
        else {
            if let format = SourceFormat(loader: loader), format.isUntrusted {
                let name = SourceFormat.sniffUnsupported([UInt8](head)) ?? SourceFormat.displayName(ofLoader: loader)
                throw ImagingError(
                    .unsupportedFormat, path: path,
                    reason: "unsupported format (\(name); --allow-untrusted-formats to decode it)")
            }
            // libvips names a loader even when it is blocked (ImageMagick, SVG): name the
            // format from the bytes where possible.
            let name = SourceFormat.sniffUnsupported([UInt8](head)) ?? SourceFormat.displayName(ofLoader: loader)
            throw ImagingError(.unsupportedFormat, path: path, reason: "unsupported format (\(name))")
        }
        if format == .png, let problem = PNGChunkCheck.problem(inFileAt: path) {
            throw ImagingError(.truncated, path: path, reason: problem)
        }
        return format
    }

    /// Checks what `path` is before anything opens it: opening a FIFO blocks until a writer
    /// comes (the whole `--page-timeout`, or for ever in `quire detect`), and a device or
    /// socket is no image either, so only regular files (or links to them) pass.
    /// - Throws: `ImagingError` missing, danglingLink, unreadable (a folder, readable or not)
    ///   or notAFile, naming the path.
    static func checkRegularFile(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = errno
            var link = stat()
            if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
                throw ImagingError(
                    .danglingLink, path: path,
                    reason: reason == ELOOP
                        ? "symbolic link loop (it never reaches a file)" : "symbolic link to a file that does not exist"
                )
            }
            if reason == EACCES {
                throw ImagingError(.unreadable, path: path, reason: "cannot be read (permission denied)")
            }
            throw ImagingError(.missing, path: path, reason: "no such file")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return
        case S_IFDIR:
            if access(path, R_OK | X_OK) != 0 {
                throw ImagingError(.unreadable, path: path, reason: "folder cannot be read (permission denied)")
            }
            throw ImagingError(.unreadable, path: path, reason: "is a folder, not an image file")
        case S_IFIFO:
            throw ImagingError(.notAFile, path: path, reason: "is a FIFO (named pipe), not a regular file")
        case S_IFSOCK:
            throw ImagingError(.notAFile, path: path, reason: "is a socket, not a regular file")
        case S_IFCHR, S_IFBLK:
            throw ImagingError(.notAFile, path: path, reason: "is a device, not a regular file")
        default:
            throw ImagingError(.notAFile, path: path, reason: "is not a regular file")
        }
    }
}
