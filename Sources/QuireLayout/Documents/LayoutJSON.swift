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

    /// A string literal as `text` writes it.
    public static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
