import Foundation

/// The resolution a JPEG's JFIF header (APP0) states, as leptonica reads it for Tesseract: dots
/// per inch, or per centimetre converted; nil when the file has no JFIF header or states only an
/// aspect ratio (units 0).
enum JFIFDensity {
    /// Largest density taken: more is not a real scan (and would overflow nothing, but mislead).
    static let maxDPI = 10_000.0

    static func read(path: String) -> Double? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 20) else { return nil }
        return parse([UInt8](data))
    }

    /// The density in the first 20 bytes of a JPEG file.
    static func parse(_ b: [UInt8]) -> Double? {
        guard b.count >= 18, b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF, b[3] == 0xE0,
            b[6] == 0x4A, b[7] == 0x46, b[8] == 0x49, b[9] == 0x46, b[10] == 0
        else { return nil }
        let units = b[13]
        let y = Double(Int(b[16]) << 8 | Int(b[17]))
        guard y > 0 else { return nil }
        let dpi: Double
        switch units {
        case 1: dpi = y
        case 2: dpi = y * 2.54
        default: return nil
        }
        return dpi <= maxDPI ? dpi : nil
    }
}
