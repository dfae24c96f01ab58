import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The HTTP file server of `quire view --serve`: GET and HEAD of the files under one folder, on
/// 127.0.0.1 only, for a viewer on the same machine.
///
/// What it promises (docs/security.md says the same for users):
/// - Connections are served concurrently, one thread each, up to `Limits.maxConnections`; past
///   that a client gets 503 at once. A client has `Limits.headTimeout` to send its request head
///   and `Limits.sendTimeout` per stalled write, so an idle or slow connection holds one thread for
///   a bounded time and never the server.
/// - Files are streamed in `chunkBytes` pieces (memory stays flat whatever their size), with
///   single-range `Range` requests answered 206; HEAD reads no file.
/// - Only regular files whose real path (symbolic links resolved) lies inside the folder are
///   served; hidden names (`.quire/`, partial files) never are.
/// - A `Host` that is not 127.0.0.1, localhost or [::1] is refused (421), which defeats DNS
///   rebinding; only `iiif/` replies carry `Access-Control-Allow-Origin: *`, as IIIF viewers on
///   other sites need; every reply carries `X-Content-Type-Options: nosniff`.
///
/// The server is hand-written on POSIX sockets rather than SwiftNIO: it serves one user's
/// browser on loopback, its whole surface fits in these files, and it keeps `quire` free of a
/// dependency that would double the package's build time.
public final class StaticServer: Sendable {
    /// Bounds on what one client can hold.
    public struct Limits: Sendable {
        /// Connections served at once; a browser opens about 6 per host.
        public var maxConnections = 32
        /// Seconds a client has to send its whole request head.
        public var headTimeout = 10.0
        /// Seconds one write may stall (a client that stops reading) before the connection is dropped.
        public var sendTimeout = 30.0
        /// Limits on the request head.
        public var head = HTTPRequestHead.Limits()
        public init() {}
    }

    /// The folder served, as given.
    public let folder: URL
    /// The port listened on (the one picked when 0 was asked for).
    public let port: UInt16
    /// The limits in force.
    public let limits: Limits
    /// The folder's real path (symbolic links resolved): every served file's real path starts with it.
    private let root: String
    private let listener: Int32
    private let connections = ConnectionCount()

    /// Bytes read from a file and sent per step.
    static let chunkBytes = 256 * 1024

    /// Binds 127.0.0.1:`port` (0 picks a free port). Nothing is served until `run` or `start`.
    /// - Throws: `StaticServerError` when the folder does not exist or the port cannot be bound.
    public init(folder: URL, port: UInt16, limits: Limits = Limits()) throws {
        self.folder = folder.standardizedFileURL
        self.limits = limits
        guard let real = realpath(folder.path, nil) else {
            throw StaticServerError("\(folder.path): cannot serve (\(String(cString: strerror(errno))))")
        }
        root = String(cString: real)
        free(real)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StaticServerError("socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw StaticServerError("cannot listen on 127.0.0.1:\(port): \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        listener = fd
        self.port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(listener) }

    /// The address to open in a browser.
    public var address: String { "http://127.0.0.1:\(port)/" }

    /// Serves until the process ends.
    public func run() -> Never {
        acceptLoop()
        while true { pause() }
    }

    /// Serves on a thread of its own until `stop` (for tests and embedding).
    public func start() {
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops accepting connections; those being served finish.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// How many connections are being served now.
    public var activeConnections: Int { connections.value }

    private func acceptLoop() {
        signal(SIGPIPE, SIG_IGN)
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE { usleep(errno == EMFILE ? 10_000 : 0); continue }
                return  // the listener was shut down
            }
            setTimeout(client, SO_SNDTIMEO, seconds: limits.sendTimeout)
            guard connections.enter(limit: limits.maxConnections) else {
                setTimeout(client, SO_SNDTIMEO, seconds: 1)
                respond(client, status: 503, extra: ["Retry-After: 1"])
                close(client)
                continue
            }
            Thread.detachNewThread { [self] in
                serve(client)
                shutdown(client, Int32(SHUT_WR))
                close(client)
                connections.leave()
            }
        }
    }

    /// Reads one request head within `headTimeout`, then answers it.
    private func serve(_ client: Int32) {
        let head: HTTPRequestHead
        switch readHead(client) {
        case .head(let parsed): head = parsed
        case .refused(let error): return respond(client, status: error.status)
        case .timedOut: return respond(client, status: 408)
        case .closed: return
        }
        guard ServedTarget.isLocalHost(head.field("host"), port: port) else { return respond(client, status: 421) }
        guard head.method == "GET" || head.method == "HEAD" else {
            return respond(client, status: 405, extra: ["Allow: GET, HEAD"])
        }
        guard let segments = ServedTarget.relativePath(of: head.target), let file = openInside(segments) else {
            return respond(client, status: 404)
        }
        defer { close(file.descriptor) }
        let type = Self.types[(segments.last! as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
        var extra = ["Accept-Ranges: bytes", "Cache-Control: no-cache"]
        if ServedTarget.allowsAnyOrigin(segments) { extra.append("Access-Control-Allow-Origin: *") }
        let range: ByteRange
        var status = 200
        switch ByteRange.parse(head.field("range"), size: file.size) {
        case .whole:
            range = ByteRange(first: 0, last: file.size - 1)
        case .part(let part):
            range = part
            status = 206
            extra.append("Content-Range: bytes \(part.first)-\(part.last)/\(file.size)")
        case .unsatisfiable:
            return respond(client, status: 416, extra: ["Content-Range: bytes */\(file.size)"])
        }
        guard sendHead(client, status: status, type: type, length: max(0, range.count), extra: extra) else { return }
        if head.method == "GET", file.size > 0 { stream(file.descriptor, range, to: client) }
    }

    private enum HeadRead { case head(HTTPRequestHead), refused(HTTPRequestError), timedOut, closed }

    private func readHead(_ client: Int32) -> HeadRead {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(limits.headTimeout * 1e9)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return .timedOut }
            setTimeout(client, SO_RCVTIMEO, seconds: max(0.001, Double(deadline - now) / 1e9))
            let n = recv(client, &buffer, buffer.count, 0)
            if n == 0 { return .closed }
            if n < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .closed
            }
            let scanFrom = max(0, bytes.count - 3)
            bytes.append(contentsOf: buffer[0..<n])
            if let end = HTTPRequestHead.endOfHead(in: Array(bytes[scanFrom...])) {
                do {
                    return .head(try HTTPRequestHead.parse(Array(bytes[..<(scanFrom + end)]), limits: limits.head))
                } catch {
                    return .refused(error)
                }
            }
            if bytes.count > limits.head.maxHeadBytes { return .refused(.headTooLarge) }
        }
    }

    /// Opens the regular file the segments name when its real path lies inside the folder.
    private func openInside(_ segments: [String]) -> (descriptor: Int32, size: Int)? {
        let path = root + "/" + segments.joined(separator: "/")
        guard let real = realpath(path, nil) else { return nil }
        let resolved = String(cString: real)
        free(real)
        guard resolved.hasPrefix(root + "/") else { return nil }
        // O_NONBLOCK: opening a FIFO someone left in the folder must not wait for a writer.
        let fd = open(resolved, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return nil
        }
        return (fd, Int(info.st_size))
    }

    private func stream(_ file: Int32, _ range: ByteRange, to client: Int32) {
        var buffer = [UInt8](repeating: 0, count: Self.chunkBytes)
        var offset = range.first
        while offset <= range.last {
            let want = min(buffer.count, range.last - offset + 1)
            let n = buffer.withUnsafeMutableBytes { pread(file, $0.baseAddress!, want, off_t(offset)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            guard sendAll(client, buffer, count: n) else { return }
            offset += n
        }
    }

    private func sendHead(_ client: Int32, status: Int, type: String, length: Int, extra: [String]) -> Bool {
        var lines = ["HTTP/1.1 \(status) \(Self.reasons[status] ?? "")", "Content-Type: \(type)", "Content-Length: \(length)",
                     "X-Content-Type-Options: nosniff", "Referrer-Policy: no-referrer", "Connection: close"]
        lines += extra
        let bytes = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        return sendAll(client, bytes, count: bytes.count)
    }

    /// A short plain-text reply for a refusal.
    private func respond(_ client: Int32, status: Int, extra: [String] = []) {
        let body = Array("\(status) \(Self.reasons[status] ?? "")\n".utf8)
        guard sendHead(client, status: status, type: "text/plain; charset=utf-8", length: body.count, extra: extra) else { return }
        _ = sendAll(client, body, count: body.count)
    }

    private func sendAll(_ client: Int32, _ bytes: [UInt8], count: Int) -> Bool {
        var sent = 0
        while sent < count {
            let n = bytes.withUnsafeBytes { send(client, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    private func setTimeout(_ socket: Int32, _ option: Int32, seconds: Double) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
        setsockopt(socket, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    static let types = ["html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
                        "css": "text/css; charset=utf-8", "json": "application/json", "jpg": "image/jpeg",
                        "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "pdf": "application/pdf",
                        "txt": "text/plain; charset=utf-8", "xml": "application/xml", "svg": "image/svg+xml"]

    static let reasons = [200: "OK", 206: "Partial Content", 400: "Bad Request", 404: "Not Found",
                          405: "Method Not Allowed", 408: "Request Timeout", 414: "URI Too Long",
                          416: "Range Not Satisfiable", 421: "Misdirected Request",
                          431: "Request Header Fields Too Large", 503: "Service Unavailable",
                          505: "HTTP Version Not Supported"]
}

/// The number of connections being served, behind one lock.
private final class ConnectionCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    /// Counts one more connection unless `limit` are being served already.
    func enter(limit: Int) -> Bool {
        lock.withLock {
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func leave() { lock.withLock { count -= 1 } }
}

/// The server could not start.
public struct StaticServerError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
