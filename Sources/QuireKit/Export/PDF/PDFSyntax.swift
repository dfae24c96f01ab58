/// How values are spelled in a PDF file (ISO 32000-1, section 7.3): numbers, strings, names.
enum PDFSyntax {
    /// A real number with at most `decimals` decimals and no exponent (PDF has none); NaN and
    /// infinity, which have no spelling, are written as 0 (callers never pass them: every
    /// coordinate is checked before it gets here).
    static func number(_ value: Double, decimals: Int = 4) -> String {
        guard value.isFinite else { return "0" }
        let scale = pow10(decimals)
        var rounded = (value * scale).rounded() / scale
        if rounded == 0 { rounded = 0 }  // no "-0"
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        let negative = rounded < 0
        let magnitude = abs(rounded)
        let whole = magnitude.rounded(.down)
        var fraction = String(Int64(((magnitude - whole) * scale).rounded()))
        fraction = String(repeating: "0", count: max(0, decimals - fraction.count)) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (negative ? "-" : "") + String(Int64(whole)) + (fraction.isEmpty ? "" : "." + fraction)
    }

    private static func pow10(_ n: Int) -> Double {
        var v = 1.0
        for _ in 0..<n { v *= 10 }
        return v
    }

    /// A text string (section 7.9.2.2): printable ASCII as a literal `( )` string with `\`, `(`
    /// and `)` escaped; anything else as UTF-16BE with a byte-order mark, in hex.
    static func textString(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy({ $0.value >= 32 && $0.value < 127 }) {
            var out = "("
            for c in text {
                if c == "\\" || c == "(" || c == ")" { out += "\\" }
                out.append(c)
            }
            return out + ")"
        }
        return "<FEFF" + utf16Hex(text) + ">"
    }

    /// The UTF-16BE code units of `text` in upper-case hex (surrogate pairs for characters
    /// outside the Basic Multilingual Plane).
    static func utf16Hex(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf16.count * 4)
        for unit in text.utf16 { out += hex16(unit) }
        return out
    }

    static func hex16(_ unit: UInt16) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([
            digits[Int(unit >> 12)], digits[Int(unit >> 8 & 0xF)], digits[Int(unit >> 4 & 0xF)], digits[Int(unit & 0xF)]
        ])
    }

    /// Upper-case hex of bytes (file identifiers).
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        var out = ""
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0xF)]) }
        return out
    }

    /// A PDF date (section 7.9.4) from an ISO 8601 UTC date `2026-01-02T03:04:05Z`: `D:20260102030405Z`;
    /// nil when the text is not of that form.
    static func date(fromISO text: String) -> String? {
        let digits = text.filter(\.isNumber)
        guard text.hasSuffix("Z"), digits.count == 14, text.count == 20 else { return nil }
        return "D:" + digits + "Z"
    }
}
