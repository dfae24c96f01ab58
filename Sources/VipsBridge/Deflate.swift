internal import CVipsShim

/// zlib streams (RFC 1950), as PDF's `FlateDecode` filter reads them.
public enum Deflate {
    /// `bytes` compressed at `level` (0-9; 6 is zlib's balance of size and speed).
    /// - Throws: `VIPSError` (operation `deflate`) when memory runs out.
    public static func compress(_ bytes: [UInt8], level: Int = 6) throws -> [UInt8] {
        var length = 0
        let out = bytes.withUnsafeBufferPointer { cvips_deflate($0.baseAddress, $0.count, Int32(level), &length) }
        guard let out else {
            throw VIPSError(operation: "deflate", message: "out of memory compressing \(bytes.count) bytes")
        }
        defer { cvips_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: length))
    }
}

extension VIPSRuntime {
    /// The bytes of an ICC profile libvips ships, by name: `srgb` (an ICC v2 sRGB display
    /// profile, "no copyright, use freely"), `p3` or `cmyk`.
    /// - Throws: `VIPSError` (operation `profile`) for a name libvips does not know.
    public static func iccProfile(named name: String) throws -> [UInt8] {
        try start()
        var length = 0
        guard let bytes = cvips_profile_bytes(name, &length) else {
            throw VIPSError(operation: "profile", message: takeErrorMessage())
        }
        defer { cvips_free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }
}
