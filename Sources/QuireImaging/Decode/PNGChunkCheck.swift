import Foundation

/// A cheap structural check of a PNG file's chunk headers, before libvips decodes it.
///
/// libpng allocates the length a text or other ancillary chunk declares before reading it, so a
/// 57-byte file whose `tEXt` chunk claims 2 GB makes it allocate about 1 GB (libpng's crasher
/// suite has several); two such files in flight exceed any sane memory budget. A chunk that
/// claims more bytes than the file holds is corrupt whatever it is, so the file is refused from
/// its headers. Image data (`IDAT`) is left to the decoder, which reports a cut download itself.
enum PNGChunkCheck {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// - Returns: nil when the chunk headers are consistent with the file size, else a reason.
    /// - Complexity: O(chunks) reads of 8 bytes; stops at IEND.
    static func problem(inFileAt path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 8 else { return nil }
        var offset: UInt64 = 8
        var chunks = 0
        while offset + 8 <= size, chunks < 1_000_000 {
            guard (try? handle.seek(toOffset: offset)) != nil,
                let header = try? handle.read(upToCount: 8), header.count == 8
            else { return nil }
            let bytes = [UInt8](header)
            let length = UInt64(bytes[0]) << 24 | UInt64(bytes[1]) << 16 | UInt64(bytes[2]) << 8 | UInt64(bytes[3])
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            let remaining = size - offset - 8
            if type == "IEND" { return nil }
            if type != "IDAT" && (length > 0x7FFF_FFFF || length + 4 > remaining) {
                let name = type.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) ? type : "a"
                return "corrupt PNG (\(name) chunk claims \(length) bytes, the file has \(remaining) left)"
            }
            offset += 12 + length
            chunks += 1
        }
        return nil
    }
}
