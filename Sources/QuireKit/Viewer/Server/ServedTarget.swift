/// What a request asks the static server for, decided from the request head alone: which file
/// under the served folder, which bytes of it, and whether the `Host` is this machine.
///
/// Pure, so each refusal is tested without a socket. The file system check (the resolved path
/// must stay inside the folder) happens afterwards in `StaticServer`, since only the file
/// system knows where a symbolic link leads.
public enum ServedTarget {
    /// The relative path segments a request target names (`/` is `index.html`).
    /// - Returns: nil for anything that is not a plain path under the folder: an absolute URI,
    ///   a `..` segment, a segment starting with `.` (the `.quire` state folder and the partial
    ///   files of a running batch are not for the browser), a NUL or control byte, or percent
    ///   escapes that do not decode to UTF-8.
    public static func relativePath(of target: String) -> [String]? {
        guard target.hasPrefix("/") else { return nil }
        var path = Substring(target)
        if let mark = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<mark] }
        guard let decoded = percentDecoded(path) else { return nil }
        var segments: [String] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            guard !segment.hasPrefix("."), !segment.contains("\\") else { return nil }
            segments.append(String(segment))
        }
        if segments.isEmpty || decoded.hasSuffix("/") { segments.append("index.html") }
        return segments
    }

    /// `%XX` escapes decoded; nil when an escape is broken, decodes to a control byte, or the
    /// result is not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let b = utf8.popFirst() {
            if b == 37 {  // %
                guard utf8.count >= 2, let hi = hexValue(utf8.popFirst()!), let lo = hexValue(utf8.popFirst()!) else {
                    return nil
                }
                bytes.append(hi << 4 | lo)
            } else {
                bytes.append(b)
            }
        }
        guard !bytes.contains(where: { $0 < 32 || $0 == 127 }) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 48...57: b - 48
        case 65...70: b - 55
        case 97...102: b - 87
        default: nil
        }
    }

    /// Whether a `Host` field names this machine on `port`: `127.0.0.1`, `localhost` or
    /// `[::1]`, with the port or without. Anything else is a page on another site that reached
    /// 127.0.0.1 by DNS rebinding, and is refused. A request without `Host` (HTTP/1.0 from a
    /// command-line tool) carries no site name and is allowed.
    public static func isLocalHost(_ host: String?, port: UInt16) -> Bool {
        guard let host else { return true }
        let lowered = host.lowercased()
        for name in ["127.0.0.1", "localhost", "[::1]"] {
            if lowered == name || lowered == "\(name):\(port)" { return true }
        }
        return false
    }

    /// Whether replies for this path may be read by pages of any origin: only the IIIF export,
    /// whose viewers (Mirador, Universal Viewer) live on other sites by design.
    public static func allowsAnyOrigin(_ segments: [String]) -> Bool {
        segments.first == "iiif"
    }
}

/// One byte range of a file, from a `Range: bytes=...` field (RFC 9110 section 14).
public struct ByteRange: Sendable, Hashable {
    /// The first byte sent.
    public var first: Int
    /// The last byte sent (inclusive).
    public var last: Int
    /// How many bytes that is.
    public var count: Int { last - first + 1 }

    public init(first: Int, last: Int) {
        self.first = first
        self.last = last
    }

    /// What a `Range` field asks of a file of `size` bytes.
    public enum Request: Sendable, Hashable {
        /// No usable range (absent, another unit, several ranges, bad syntax): send it all, 200.
        case whole
        /// One satisfiable range: 206.
        case part(ByteRange)
        /// A range wholly past the end: 416.
        case unsatisfiable
    }

    /// Reads a `Range` value against a file of `size` bytes. Several ranges are answered with
    /// the whole file, which RFC 9110 allows and which no viewer or PDF reader here needs.
    /// A number of more than 18 digits is not read (so none can overflow): like any other bad
    /// syntax, such a range is no usable range and the whole file is sent.
    public static func parse(_ value: String?, size: Int) -> Request {
        guard let value, value.hasPrefix("bytes="), !value.contains(",") else { return .whole }
        let spec = value.dropFirst("bytes=".count).filter { $0 != " " }
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        let startText = spec[..<dash], endText = spec[spec.index(after: dash)...]
        let start = number(startText), end = number(endText)
        if startText.isEmpty {
            // bytes=-N: the last N bytes.
            guard let suffix = end else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(ByteRange(first: max(0, size - suffix), last: size - 1))
        }
        guard let start, endText.isEmpty || end != nil else { return .whole }
        if let end, end < start { return .whole }
        guard start < size else { return .unsatisfiable }
        return .part(ByteRange(first: start, last: min(end ?? (size - 1), size - 1)))
    }

    /// A decimal number of at most 18 digits (so it fits in `Int`), or nil.
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}
