/// A colour for backgrounds and labels, parsed from the CLI's `--background` values.
///
/// Accepts `#rgb`, `#rrggbb`, `#rrggbbaa` (with or without `#`), and the names `transparent`,
/// `white`, `black`, `grey`/`gray`; channels are 0-255 sRGB, alpha 255 = opaque.
public struct RenderColor: Hashable, Sendable, Codable, CustomStringConvertible {
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8

    /// The colour with these 8-bit channels; opaque unless `alpha` is given.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    public static let transparent = RenderColor(red: 0, green: 0, blue: 0, alpha: 0)
    public static let white = RenderColor(red: 255, green: 255, blue: 255)
    public static let black = RenderColor(red: 0, green: 0, blue: 0)

    /// Parses a colour; nil when `text` is not one of the accepted forms.
    public init?(parsing text: String) {
        let t = text.lowercased()
        switch t {
        case "transparent", "none": self = .transparent; return
        case "white": self = .white; return
        case "black": self = .black; return
        case "grey", "gray": self = RenderColor(red: 128, green: 128, blue: 128); return
        default: break
        }
        var hex = Substring(t)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        var digits = Array(hex)
        if digits.count == 3 { digits = digits.flatMap { [$0, $0] } }
        guard digits.count == 6 || digits.count == 8 else { return nil }
        var values: [UInt8] = []
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let v = UInt8(String(digits[i...i + 1]), radix: 16) else { return nil }
            values.append(v)
        }
        self.init(red: values[0], green: values[1], blue: values[2], alpha: values.count == 4 ? values[3] : 255)
    }

    public var isOpaque: Bool { alpha == 255 }
    /// `[r, g, b, a]` as libvips ink values.
    public var rgba: [Double] { [Double(red), Double(green), Double(blue), Double(alpha)] }
    /// `[r, g, b]` as libvips ink values.
    public var rgb: [Double] { [Double(red), Double(green), Double(blue)] }

    public var description: String {
        let hex = [red, green, blue] + (isOpaque ? [] : [alpha])
        return "#" + hex.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
