import Foundation

/// The frame header (SOF) of a JPEG file and the EXIF orientation: what decides whether the
/// file's bytes can go into a PDF as they are (a DCTDecode stream shows them upright only when
/// they are 8-bit grey or YCbCr with no rotation to apply).
public struct JPEGFrameHeader: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var components: Int
    public var precision: Int
    /// SOF2 (progressive); PDF 1.3+ readers decode it.
    public var progressive: Bool
    /// Arithmetic coding (SOF9-SOF15), which few PDF readers decode.
    public var arithmetic: Bool
    /// The EXIF orientation, 1 when absent.
    public var orientation: Int

    /// Whether a PDF can show the file's bytes as they are.
    public var embeddable: Bool {
        precision == 8 && (components == 1 || components == 3) && !arithmetic && orientation == 1
            && width > 0 && height > 0
    }

    /// The header of the JPEG file at `path` (its first 256 KiB), nil when it is no JPEG.
    public static func read(path: String) -> JPEGFrameHeader? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 256 * 1024) else { return nil }
        return parse([UInt8](data))
    }

    public static func parse(_ b: [UInt8]) -> JPEGFrameHeader? {
        guard b.starts(with: [0xFF, 0xD8]) else { return nil }
        var i = 2
        var orientation = 1
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2 else { return nil }
            let body = i + 4
            let isSOF = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isSOF {
                guard body + 6 <= b.count else { return nil }
                return JPEGFrameHeader(
                    width: Int(b[body + 3]) << 8 | Int(b[body + 4]), height: Int(b[body + 1]) << 8 | Int(b[body + 2]),
                    components: Int(b[body + 5]), precision: Int(b[body]),
                    progressive: marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE,
                    arithmetic: marker >= 0xC9, orientation: orientation)
            }
            if marker == 0xE1, body + 14 <= b.count, Array(b[body..<body + 6]) == Array("Exif\0\0".utf8) {
                orientation = exifOrientation(Array(b[(body + 6)..<min(b.count, i + 2 + length)])) ?? 1
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            i += 2 + length
        }
        return nil
    }

    /// Tag 0x0112 of IFD0.
    private static func exifOrientation(_ t: [UInt8]) -> Int? {
        guard t.count >= 8 else { return nil }
        let little = t[0] == 0x49
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        guard let a = u16(4), let b = u16(6) else { return nil }
        let ifd = little ? a | b << 16 : a << 16 | b
        guard let count = u16(ifd), count < 1000 else { return nil }
        for k in 0..<count where u16(ifd + 2 + k * 12) == 0x0112 {
            return u16(ifd + 2 + k * 12 + 8).flatMap { (1...8).contains($0) ? $0 : nil }
        }
        return nil
    }
}
