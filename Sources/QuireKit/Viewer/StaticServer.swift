import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.0 file server for `quire view --serve`: GET and HEAD of files under one
/// folder, on 127.0.0.1 only, one connection at a time (a viewer on the same machine).
/// Paths are resolved under the folder; `..` segments are refused.
public final class StaticServer {
    public let folder: URL
    public private(set) var port: UInt16
    private var socketFD: Int32 = -1

    /// Binds 127.0.0.1:`port` (0 picks a free port; `port` then holds it).
    public init(folder: URL, port: UInt16) throws {
        self.folder = folder.standardizedFileURL
        self.port = port
        socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw StaticServerError("socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketFD, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socketFD)
            throw StaticServerError("cannot listen on 127.0.0.1:\(port): \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(socketFD, $0, &length) }
        }
        self.port = UInt16(bigEndian: address.sin_port)
    }

    deinit { if socketFD >= 0 { close(socketFD) } }

    public var address: String { "http://127.0.0.1:\(port)/" }

    /// Serves until the process ends.
    public func run() -> Never {
        signal(SIGPIPE, SIG_IGN)
        while true {
            let client = accept(socketFD, nil, nil)
            if client < 0 { continue }
            handle(client)
            close(client)
        }
    }

    static let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
                        "css": "text/css; charset=utf-8", "json": "application/json", "jpg": "image/jpeg",
                        "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "pdf": "application/pdf"]

    private func handle(_ client: Int32) {
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while request.count < 65536 {
            let n = recv(client, &buffer, buffer.count, 0)
            if n <= 0 { break }
            request.append(contentsOf: buffer[0..<n])
            if request.count >= 4, request.suffix(4) == [13, 10, 13, 10] || String(decoding: request, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        let line = String(decoding: request, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0] == "GET" || parts[0] == "HEAD" else { return reply(client, 405, "text/plain", Data("method not allowed\n".utf8), body: true) }
        var path = String(parts[1].split(separator: "?").first ?? "/")
        path = path.removingPercentEncoding ?? path
        if path.hasSuffix("/") { path += "index.html" }
        let segments = path.split(separator: "/")
        guard !segments.contains("..") else { return reply(client, 403, "text/plain", Data("forbidden\n".utf8), body: true) }
        let url = segments.reduce(folder) { $0.appendingPathComponent(String($1)) }
        guard let data = try? Data(contentsOf: url) else { return reply(client, 404, "text/plain", Data("not found\n".utf8), body: true) }
        reply(client, 200, Self.types[url.pathExtension.lowercased()] ?? "application/octet-stream", data, body: parts[0] == "GET")
    }

    /// Every reply allows any origin (`Access-Control-Allow-Origin: *`), as IIIF asks of its
    /// files, so a viewer on another site (Mirador, Universal Viewer) can read a served
    /// `OUT/iiif`; the server only listens on 127.0.0.1.
    private func reply(_ client: Int32, _ status: Int, _ type: String, _ data: Data, body: Bool) {
        let reason = [200: "OK", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed"][status] ?? ""
        var out = Data("HTTP/1.0 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(data.count)\r\nCache-Control: no-cache\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n".utf8)
        if body { out.append(data) }
        out.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let n = send(client, raw.baseAddress! + sent, raw.count - sent, 0)
                if n <= 0 { break }
                sent += n
            }
        }
    }
}

public struct StaticServerError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
