import VipsBridge

/// Why one input file (or one page of it) produced no page: a reason a user can act on,
/// with the file it concerns.
///
/// The batch reports each failure as one stderr line and one `errors[]` entry and goes on,
/// so the reasons are few and plain rather than raw libvips messages.
public struct ImagingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure Quire tells apart.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The path does not exist.
        case missing
        /// The path exists but cannot be read (permissions, a directory given as a file).
        case unreadable
        /// A FIFO, socket or device: refused before it is opened (opening a FIFO waits for a
        /// writer, reading a device may never end).
        case notAFile
        /// A symbolic link whose target does not exist (or a loop of links).
        case danglingLink
        /// The file has no bytes.
        case empty
        /// The bytes are not an image format libvips knows.
        case notAnImage
        /// An image format Quire does not take (BMP, SVG, PPM, FITS ...).
        case unsupportedFormat
        /// The file ends before its image data does, or the data is corrupt.
        case truncated
        /// The page is larger than `--max-pixels`.
        case tooLarge
        /// The page number does not exist in the file.
        case noSuchPage
        /// A page whose size (a PDF's MediaBox at `--dpi`) is beyond what can be decoded.
        case badPageSize
        /// Page corners (from `--corners`) that lie far outside the image.
        case badCorners
        /// Decoding failed for another reason.
        case decodeFailed
        /// An output file could not be written.
        case writeFailed
        /// The page took longer than `--page-timeout`.
        case timedOut

        /// The stable code programs match on (layout.json `errors[].code`, `--progress json`,
        /// `quire detect`): lower-case words joined by hyphens, never renamed. The table is in
        /// docs/processing.md.
        public var code: String {
            switch self {
            case .missing: "not-found"
            case .unreadable: "unreadable"
            case .notAFile: "not-a-file"
            case .danglingLink: "dangling-link"
            case .empty: "empty"
            case .notAnImage: "not-an-image"
            case .unsupportedFormat: "unsupported-format"
            case .truncated: "truncated"
            case .tooLarge: "too-large"
            case .noSuchPage: "no-such-page"
            case .badPageSize: "bad-page-size"
            case .badCorners: "bad-corners"
            case .decodeFailed: "decode-failed"
            case .writeFailed: "write-failed"
            case .timedOut: "timeout"
            }
        }
    }

    public var kind: Kind
    /// The file the failure concerns.
    public var path: String
    /// The human-readable reason, without the path (e.g. `not an image (unknown format)`).
    public var reason: String

    /// A failure of `kind` for the file at `path`, with the reason a user reads.
    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }

    /// A decoder failure whose libvips message was gone by the time it was read (another
    /// thread's failure took the shared error buffer): worth one more try.
    var lostItsReason: Bool { kind == .decodeFailed && reason.contains(VIPSError.unknownMessage) }

    /// Runs `work`, and once more when it failed without its reason. libvips keeps one error
    /// buffer for the whole process: when two pages fail at once, one can take the other's
    /// message and leave this one with none (and the code `decode-failed` instead of, say,
    /// `truncated`). A failing decode fails again the same way, so the second try has both.
    /// Each try starts the thread's libvips messages afresh (`VIPSRuntime.beginFileErrors`), so
    /// that a warning an earlier file left in the buffer is not reported as this file's reason.
    static func retryingLostReason<T>(_ work: () throws -> T) throws -> T {
        do {
            VIPSRuntime.beginFileErrors()
            return try work()
        } catch let error as ImagingError where error.lostItsReason {
            VIPSRuntime.beginFileErrors()
            return try work()
        }
    }
}

extension ImagingError {
    /// Classifies a libvips failure while decoding `path`: truncation and corruption are
    /// told apart from other decoder errors by libvips's (libjpeg's, libpng's ...) wording
    /// (`LoaderMessage`).
    public static func decoding(_ error: any Error, path: String) -> ImagingError {
        if let error = error as? ImagingError { return error }
        let message = (error as? VIPSError)?.message ?? String(describing: error)
        if LoaderMessage.truncated.isSaid(by: message) {
            return ImagingError(.truncated, path: path, reason: "truncated or corrupt image data (\(message))")
        }
        return ImagingError(.decodeFailed, path: path, reason: "cannot decode (\(message))")
    }
}
