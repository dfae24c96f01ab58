import Foundation
import VipsBridge

/// The resolution a page file declares in its header: JPEG's JFIF density or EXIF
/// XResolution/YResolution, PNG's pHYs chunk. Read from the first bytes of the file, without
/// decoding; nil when the file declares none (or only an aspect ratio).
///
/// libvips reports a resolution for every image (72 dpi or 1 pixel/mm when the file has none),
/// so it cannot tell "150 dpi" from "nothing said"; this reader can.
public enum PageResolution {
    /// Dots per inch, horizontally and vertically.
    public typealias DPI = (x: Double, y: Double)

    /// The resolution declared by the file at `path` (its first 128 KiB are read).
    public static func read(path: String) -> DPI? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 128 * 1024) else { return nil }
        return parse([UInt8](data))
    }

    /// The resolution declared by a file that starts with `bytes`.
    public static func parse(_ bytes: [UInt8]) -> DPI? {
        if bytes.starts(with: [0xFF, 0xD8]) { return jpeg(bytes) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png(bytes) }
        return nil
    }

    /// Resolutions outside this range are treated as unknown: a JFIF density of 1 means "aspect
    /// only", libvips writes 25.4 dpi (1 pixel/mm) for images it made itself, and nothing scans a
    /// document below 50 or above 10,000 dpi.
    public static let plausibleDPI: ClosedRange<Double> = 50...10_000
    /// Densities programs write when they know nothing (72 on macOS and in cameras' EXIF, 96 on
    /// Windows): a 4000-pixel phone photo "at 72 dpi" would make a 55-inch page. Treated as
    /// unknown; `--dpi 72` still gives them.
    public static let placeholderDPI: [Double] = [72, 96]

    /// Whether `dpi` says something about the page: plausible and not a placeholder.
    public static func isMeaningful(_ dpi: DPI) -> Bool {
        func ok(_ v: Double) -> Bool { plausibleDPI.contains(v) && !placeholderDPI.contains { abs($0 - v) < 0.01 } }
        return ok(dpi.x) && ok(dpi.y)
    }

    private static func plausible(_ dpi: DPI) -> DPI? {
        isMeaningful(dpi) ? dpi : nil
    }

    /// The resolution of one page of a source file, as the file states it: the render
    /// resolution of a PDF page, the JFIF/EXIF density of a JPEG or the pHYs of a PNG (read
    /// here, because libvips cannot tell a stated density from none), and for other formats
    /// (TIFF, WebP, HEIF) what libvips read from the header (`header`, the page's loaded
    /// image), when meaningful. Nil when the file says nothing usable.
    static func ofSource(_ source: PageSource, format: SourceFormat, header: () -> VIPSImage?) -> Resolution? {
        switch format {
        case .pdf:
            return Resolution(source.dpi)
        case .jpeg, .png:
            return read(path: source.path).map { Resolution(x: $0.x, y: $0.y) }
        default:
            guard let stated = header()?.headerResolution, isMeaningful((stated.x, stated.y)) else { return nil }
            return stated
        }
    }

    /// JFIF's APP0 density when it has a unit, else EXIF's; markers are walked up to the first scan.
    static func jpeg(_ b: [UInt8]) -> DPI? {
        var i = 2
        var exif: DPI?
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2 else { break }
            let body = i + 4, end = min(b.count, i + 2 + length)
            if marker == 0xE0, end - body >= 12, Array(b[body..<body + 5]) == Array("JFIF\0".utf8) {
                let unit = b[body + 7]
                let x = Double(Int(b[body + 8]) << 8 | Int(b[body + 9]))
                let y = Double(Int(b[body + 10]) << 8 | Int(b[body + 11]))
                if unit == 1, let dpi = plausible((x, y)) { return dpi }
                if unit == 2, let dpi = plausible((x * 2.54, y * 2.54)) { return dpi }
            } else if marker == 0xE1, exif == nil, end - body > 14, Array(b[body..<body + 6]) == Array("Exif\0\0".utf8)
            {
                exif = exifResolution(Array(b[(body + 6)..<end]))
            }
            i += 2 + length
        }
        return exif
    }

    /// IFD0's XResolution (0x011A), YResolution (0x011B) and ResolutionUnit (0x0128: 2 inch, 3 cm)
    /// of a TIFF-structured EXIF block.
    static func exifResolution(_ t: [UInt8]) -> DPI? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        func rational(_ o: Int) -> Double? {
            guard let n = u32(o), let d = u32(o + 4), d > 0 else { return nil }
            return Double(n) / Double(d)
        }
        guard let ifd = u32(4), let count = u16(ifd), count < 1000 else { return nil }
        var x: Double?, y: Double?, unit = 2
        for k in 0..<count {
            let entry = ifd + 2 + k * 12
            guard let tag = u16(entry) else { return nil }
            switch tag {
            case 0x011A: x = u32(entry + 8).flatMap(rational)
            case 0x011B: y = u32(entry + 8).flatMap(rational)
            case 0x0128: unit = u16(entry + 8) ?? 2
            default: break
            }
        }
        guard let x, let y else { return nil }
        switch unit {
        case 2: return plausible((x, y))
        case 3: return plausible((x * 2.54, y * 2.54))
        default: return nil
        }
    }

    /// PNG's pHYs chunk in pixels per metre (unit 1); chunks are walked up to the first IDAT.
    static func png(_ b: [UInt8]) -> DPI? {
        var i = 8
        func u32(_ o: Int) -> Int { Int(b[o]) << 24 | Int(b[o + 1]) << 16 | Int(b[o + 2]) << 8 | Int(b[o + 3]) }
        while i + 8 <= b.count {
            let length = u32(i)
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            if type == "IDAT" || type == "IEND" { break }
            if type == "pHYs", length == 9, i + 17 <= b.count {
                guard b[i + 16] == 1 else { return nil }
                return plausible((Double(u32(i + 8)) * 0.0254, Double(u32(i + 12)) * 0.0254))
            }
            i += 12 + length
        }
        return nil
    }
}
