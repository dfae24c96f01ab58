/// The head of one HTTP/1.x request (request line and header fields), parsed from the bytes a
/// client sent, with every length bounded before anything is kept.
///
/// `quire view --serve` only answers GET and HEAD of static files on 127.0.0.1, so this parser is
/// strict where being lenient would only help an attacker: one request line, `HTTP/1.0` or
/// `HTTP/1.1`, field names that are HTTP tokens, no obsolete line folding, one `Host`. It is pure
/// (no sockets, no Foundation) so the fuzz tests can drive it with any bytes.
public struct HTTPRequestHead: Sendable, Hashable {
    /// The method as sent (`GET`, `HEAD`, ...), case-sensitive as HTTP defines it.
    public var method: String
    /// The request target as sent (`/pages/0001.jpg?x=1`), not yet decoded.
    public var target: String
    /// `HTTP/1.0` or `HTTP/1.1`.
    public var version: String
    /// Header fields in order, names lowercased, values with surrounding blanks removed.
    public var fields: [(name: String, value: String)]

    public static func == (a: Self, b: Self) -> Bool {
        a.method == b.method && a.target == b.target && a.version == b.version
            && a.fields.map(\.name) == b.fields.map(\.name) && a.fields.map(\.value) == b.fields.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(target)
        hasher.combine(version)
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }

    /// The value of the one field called `name` (lowercase), or nil when absent.
    public func field(_ name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// Limits on what a request head may hold.
    public struct Limits: Sendable {
        /// Longest head (request line and fields, with the blank line) read before refusing:
        /// browsers send under 2 KiB to a local server; 16 KiB leaves room for long cookies.
        public var maxHeadBytes = 16 * 1024
        /// Longest request line: the viewer's longest path is under 100 bytes.
        public var maxRequestLineBytes = 8 * 1024
        /// Most header fields: browsers send about 15.
        public var maxFields = 64
        public init() {}
    }

    /// Where the head ends in `bytes`: the index just past the blank line (`CRLF CRLF`, or
    /// `LF LF` from lenient clients), or nil when it has not arrived yet.
    /// - Complexity: O(n) in the bytes.
    public static func endOfHead(in bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            if bytes[i] == 10 {
                if i + 1 < bytes.count, bytes[i + 1] == 10 { return i + 2 }
                if i + 2 < bytes.count, bytes[i + 1] == 13, bytes[i + 2] == 10 { return i + 3 }
            }
            i += 1
        }
        return nil
    }

    /// Parses a complete head (the bytes up to and including the blank line).
    /// - Throws: `HTTPRequestError` with the status the server answers.
    public static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(HTTPRequestError) -> HTTPRequestHead {
        guard bytes.count <= limits.maxHeadBytes else { throw .headTooLarge }
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for i in 0..<bytes.count where bytes[i] == 10 {
            var end = i
            if end > start, bytes[end - 1] == 13 { end -= 1 }
            lines.append(bytes[start..<end])
            start = i + 1
        }
        // Clients may send blank lines before the request line (RFC 9112 section 2.2).
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        guard let requestLine = lines.first else { throw .malformed("no request line") }
        guard requestLine.count <= limits.maxRequestLineBytes else { throw .targetTooLong }
        let head = try parseRequestLine(requestLine)
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            if line.isEmpty { break }
            guard fields.count < limits.maxFields else { throw .headTooLarge }
            fields.append(try parseField(line))
        }
        guard fields.filter({ $0.name == "host" }).count <= 1 else { throw .malformed("more than one Host field") }
        return HTTPRequestHead(method: head.method, target: head.target, version: head.version, fields: fields)
    }

    private static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> (
        method: String, target: String, version: String
    ) {
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw .malformed("request line is not METHOD TARGET VERSION")
        }
        guard parts[0].allSatisfy(isTokenByte) else { throw .malformed("method is not a token") }
        guard parts[1].allSatisfy({ $0 > 32 && $0 < 127 }) else {
            throw .malformed("target has a control, blank or non-ASCII byte")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            if version.hasPrefix("HTTP/") { throw .versionNotSupported }
            throw .malformed("no HTTP version")
        }
        return (String(decoding: parts[0], as: UTF8.self), String(decoding: parts[1], as: UTF8.self), version)
    }

    private static func parseField(_ line: ArraySlice<UInt8>) throws(HTTPRequestError) -> (name: String, value: String)
    {
        guard let first = line.first, first != 32, first != 9 else { throw .malformed("folded header line") }
        guard let colon = line.firstIndex(of: 58) else { throw .malformed("header line without ':'") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else { throw .malformed("header name is not a token") }
        var value = line[(colon + 1)...]
        while let b = value.first, b == 32 || b == 9 { value.removeFirst() }
        while let b = value.last, b == 32 || b == 9 { value.removeLast() }
        guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
            throw .malformed("control byte in a header value")
        }
        return (String(decoding: name, as: UTF8.self).lowercased(), String(decoding: value, as: UTF8.self))
    }

    /// HTTP's `tchar` (RFC 9110 section 5.6.2).
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 48...57, 65...90, 97...122: return true
        case 33, 35, 36, 37, 38, 39, 42, 43, 45, 46, 94, 95, 96, 124, 126: return true
        default: return false
        }
    }
}

/// Why a request was refused before any file was looked at, with the status to answer.
public enum HTTPRequestError: Error, Sendable, Hashable {
    /// Syntax the server does not accept (400).
    case malformed(String)
    /// The head is over `Limits.maxHeadBytes` or has too many fields (431).
    case headTooLarge
    /// The request line is over `Limits.maxRequestLineBytes` (414).
    case targetTooLong
    /// An HTTP version other than 1.0 and 1.1 (505).
    case versionNotSupported

    /// The response status for this error.
    public var status: Int {
        switch self {
        case .malformed: 400
        case .headTooLarge: 431
        case .targetTooLong: 414
        case .versionNotSupported: 505
        }
    }
}
