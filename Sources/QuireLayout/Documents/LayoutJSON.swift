import QuireGeometry

/// A JSON value with a deterministic encoding (sorted keys, fixed number precision), used by
/// `quire layout` so responses are byte-stable and requests can be validated field by field,
/// and by the request and response documents for the free-form `id`.
public indirect enum LayoutJSON: Hashable, Sendable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([LayoutJSON])
    case object([String: LayoutJSON])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null; return }
        if let b = try? c.decode(Bool.self) { self = .bool(b); return }
        if let d = try? c.decode(Double.self) { self = .number(d); return }
        if let s = try? c.decode(String.self) { self = .string(s); return }
        if let a = try? c.decode([LayoutJSON].self) { self = .array(a); return }
        self = .object(try c.decode([String: LayoutJSON].self))
    }

    /// Encodes the value as it is (any encoder; `text` is the deterministic form).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// Whether every number in the value is finite (a reply with NaN or infinity is a bug
    /// that `text` would hide by writing 0).
    public var isFinite: Bool {
        switch self {
        case .null, .bool, .string: return true
        case .number(let d): return d.isFinite
        case .array(let a): return a.allSatisfy(\.isFinite)
        case .object(let o): return o.values.allSatisfy(\.isFinite)
        }
    }

    /// Compact text with sorted keys; numbers rounded to 4 decimals (as layout.json),
    /// integers written without a fraction, -0 as 0, and non-finite numbers as 0.
    public var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d): out += LayoutJSON.format(d)
        case .string(let s): LayoutJSON.writeString(s, into: &out)
        case .array(let a):
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                v.write(into: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (i, key) in o.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                LayoutJSON.writeString(key, into: &out)
                out += ":"
                o[key]!.write(into: &out)
            }
            out += "}"
        }
    }

    /// A number as `text` writes it.
    public static func format(_ value: Double) -> String {
        let r = LayoutReport.round(value)
        if r == r.rounded(), abs(r) < 1e15 { return String(Int64(r)) }
        return "\(r)"
    }

    /// `s` as a JSON string literal (`quoted`), appended to `out`.
    public static func writeString(_ s: String, into out: inout String, htmlSafe: Bool = false) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{0}"..."\u{1F}": out += unicodeEscape(scalar)
            case "<", ">", "&", "\u{7F}", "\u{2028}", "\u{2029}":
                // (a `where` after a list of patterns would guard only the last one)
                if htmlSafe { out += unicodeEscape(scalar) } else { out.unicodeScalars.append(scalar) }
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// Quire's one JSON string escaper: `s` as a JSON string literal, quotes, backslashes and
    /// control characters escaped. With `htmlSafe`, also `<`, `>`, `&`, DEL, U+2028 and U+2029
    /// as `\uXXXX`, so the literal is safe inside an HTML `<script>` element too (a word such
    /// as `</script>` can never end the script it sits in).
    public static func quoted(_ s: String, htmlSafe: Bool = false) -> String {
        var out = ""
        writeString(s, into: &out, htmlSafe: htmlSafe)
        return out
    }

    /// `\uXXXX` (four lowercase hex digits) for a scalar below U+10000.
    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
