/// What a failure message from libvips (and the libraries under it: libjpeg, libpng, libtiff,
/// libc) says, where it gives nothing but text. Recognised here and only here, by the wordings
/// below; each wording is a case in LoaderMessageTests.
public enum LoaderMessage: String, Sendable, Hashable, CaseIterable {
    /// The disk, or the user's quota, is full (ENOSPC, EDQUOT).
    case diskFull
    /// The file ends before its image data does, or the data is corrupt.
    case truncated
    /// Quire's own JPEG reader (CVipsShim's `cvips_jpeg`) ran out of bytes.
    case jpegEndsEarly

    /// The wordings that say it, in lower case, matched anywhere in the message.
    public var phrases: [String] {
        switch self {
        // libc's strerror for ENOSPC and EDQUOT, libjpeg/libvips's savers, libpng.
        case .diskFull:
            ["no space left on device", "out of disk space", "disk quota exceeded", "disk full", "enospc", "edquot"]
        // libjpeg, libpng/libspng, libtiff, libwebp, libheif, giflib and libvips's loaders.
        case .truncated:
            [
                "premature end", "truncat", "unexpected end", "end of file", "eof",
                "not enough data", "read error", "short read", "out of data",
                "incomplete", "corrupt", "crc error", "invalid", "bad huffman",
                "unable to read", "failed to read", "out of order read",
                "error reading", "read failed", "libspng", "libpng", "decode"
            ]
        // Sources/CVipsShim/jpeg/cvips_jpeg.c and kernels/cvips_jpeg_planes.c.
        case .jpegEndsEarly: ["the file is truncated"]
        }
    }

    /// Whether `message` says this (case-insensitive).
    public func isSaid(by message: String) -> Bool {
        let lower = message.lowercased()
        return phrases.contains(where: lower.contains)
    }

    /// Everything `message` says: one message can say more than one thing (`jpegsave: ...
    /// out of disk space` while decoding reads as both a full disk and a decoder failure).
    public static func recognise(_ message: String) -> Set<LoaderMessage> {
        Set(allCases.filter { $0.isSaid(by: message) })
    }
}
