import Foundation
import Synchronization
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
/// - With a `CorrectionsEndpoint` (the review), `index.html` is served with the endpoint's token
///   in a `<meta name="quire-token">` (the file on disk is unchanged), and `POST /api/corrections`
///   is taken only with that token in `X-Quire-Token`, a `Content-Length` of at most
///   `CorrectionsEndpoint.maxBodyBytes` and a JSON type, its body read within `headTimeout`.
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
    /// `POST /api/corrections` and the token in index.html; nil: GET and HEAD only.
    public let corrections: CorrectionsEndpoint?
    /// The largest index.html the token is put into (the viewer's is about 100 KB); a larger
    /// one is served as it is.
    static let maxIndexBytes = 8 << 20

    /// Bytes read from a file and sent per step.
    static let chunkBytes = 256 * 1024

    /// Binds 127.0.0.1:`port` (0 picks a free port). Nothing is served until `run` or `start`.
    /// - Throws: `StaticServerError` when the folder does not exist or the port cannot be bound.
    public init(folder: URL, port: UInt16, limits: Limits = Limits(), corrections: CorrectionsEndpoint? = nil) throws {
        self.folder = folder.standardizedFileURL
        self.limits = limits
        self.corrections = corrections
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
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
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
                if errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE {
                    usleep(errno == EMFILE ? 10_000 : 0); continue
                }
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
        let head: HTTPRequestHead, rest: [UInt8]
        switch readHead(client) {
        case .head(let parsed, let after): (head, rest) = (parsed, after)
        case .refused(let error): return respond(client, status: error.status)
        case .timedOut: return respond(client, status: 408)
        case .closed: return
        }
        guard ServedTarget.isLocalHost(head.field("host"), port: port) else { return respond(client, status: 421) }
        if head.method == "POST" { return post(client, head: head, rest: rest) }
        guard head.method == "GET" || head.method == "HEAD" else {
            return respond(
                client, status: 405, extra: [corrections == nil ? "Allow: GET, HEAD" : "Allow: GET, HEAD, POST"])
        }
        guard let segments = ServedTarget.relativePath(of: head.target), segments.first != "api",
            let file = openInside(segments)
        else {
            return respond(client, status: 404)
        }
        defer { close(file.descriptor) }
        if let corrections, segments == ["index.html"], file.size <= Self.maxIndexBytes,
            let page = Self.withToken(corrections.token, in: file.descriptor, size: file.size)
        {
            guard
                sendHead(
                    client, status: 200, type: "text/html; charset=utf-8", length: page.count,
                    extra: ["Cache-Control: no-store"])
            else { return }
            if head.method == "GET" { _ = sendAll(client, page, count: page.count) }
            return
        }
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

    /// `POST /api/corrections`: 405 without an endpoint, 404 for any other target, 403 without
    /// the token, 415 unless JSON, 411 without a length (or chunked), 413 over the limit; then
    /// the body is read within `headTimeout` and the endpoint answers.
    private func post(_ client: Int32, head: HTTPRequestHead, rest: [UInt8]) {
        guard let corrections else { return respond(client, status: 405, extra: ["Allow: GET, HEAD"]) }
        guard head.target == CorrectionsEndpoint.target else { return respond(client, status: 404) }
        guard corrections.accepts(head.field("x-quire-token")) else { return respond(client, status: 403) }
        let type = head.field("content-type")?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
            .lowercased()
        guard type == "application/json" else { return respond(client, status: 415) }
        guard head.field("transfer-encoding") == nil, let lengthText = head.field("content-length") else {
            return respond(client, status: 411)
        }
        // Digits only, at most 9 of them, before it becomes an Int.
        guard !lengthText.isEmpty, lengthText.count <= 9, lengthText.utf8.allSatisfy({ (48...57).contains($0) }),
            let length = Int(lengthText)
        else {
            return respond(
                client,
                status: lengthText.utf8.allSatisfy({ (48...57).contains($0) }) && !lengthText.isEmpty ? 413 : 400)
        }
        guard length <= CorrectionsEndpoint.maxBodyBytes else { return respond(client, status: 413) }
        guard let body = readBody(client, length: length, already: rest) else { return respond(client, status: 408) }
        let (status, json) = corrections.handle(body: body)
        let bytes = Array((json + "\n").utf8)
        guard
            sendHead(
                client, status: status, type: "application/json", length: bytes.count,
                extra: ["Cache-Control: no-store"])
        else {
            return
        }
        _ = sendAll(client, bytes, count: bytes.count)
    }

    /// The `length` bytes of a request body (`already` holds those read with the head), within
    /// `headTimeout`; nil when the client is slower or closes first.
    private func readBody(_ client: Int32, length: Int, already: [UInt8]) -> [UInt8]? {
        var body = Array(already.prefix(length))
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(limits.headTimeout * 1e9)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while body.count < length {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return nil }
            setTimeout(client, SO_RCVTIMEO, seconds: max(0.001, Double(deadline - now) / 1e9))
            let n = recv(client, &buffer, min(buffer.count, length - body.count), 0)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            body.append(contentsOf: buffer[0..<n])
        }
        return body
    }

    /// index.html with `<meta name="quire-token" content="TOKEN">` put in just after `<head>`
    /// (or at the start when it has none); nil when the file cannot be read.
    static func withToken(_ token: String, in descriptor: Int32, size: Int) -> [UInt8]? {
        var page = [UInt8](repeating: 0, count: size)
        var read = 0
        while read < size {
            let n = page.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + read, size - read, off_t(read)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            read += n
        }
        let meta = Array("<meta name=\"quire-token\" content=\"\(token)\">".utf8)
        let marker = Array("<head>".utf8)
        var at = 0
        if page.count >= marker.count {
            for i in 0...(page.count - marker.count) where page[i..<(i + marker.count)].elementsEqual(marker) {
                at = i + marker.count
                break
            }
        }
        page.insert(contentsOf: meta, at: at)
        return page
    }

    private enum HeadRead { case head(HTTPRequestHead, rest: [UInt8]), refused(HTTPRequestError), timedOut, closed }

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
                    return .head(
                        try HTTPRequestHead.parse(Array(bytes[..<(scanFrom + end)]), limits: limits.head),
                        rest: Array(bytes[(scanFrom + end)...]))
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
        var lines = [
            "HTTP/1.1 \(status) \(Self.reasons[status] ?? "")", "Content-Type: \(type)", "Content-Length: \(length)",
            "X-Content-Type-Options: nosniff", "Referrer-Policy: no-referrer", "Connection: close"
        ]
        lines += extra
        let bytes = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        return sendAll(client, bytes, count: bytes.count)
    }

    /// A short plain-text reply for a refusal.
    private func respond(_ client: Int32, status: Int, extra: [String] = []) {
        let body = Array("\(status) \(Self.reasons[status] ?? "")\n".utf8)
        guard sendHead(client, status: status, type: "text/plain; charset=utf-8", length: body.count, extra: extra)
        else { return }
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

    static let types = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8", "json": "application/json", "jpg": "image/jpeg",
        "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "pdf": "application/pdf",
        "txt": "text/plain; charset=utf-8", "xml": "application/xml", "svg": "image/svg+xml"
    ]

    static let reasons = [
        200: "OK", 206: "Partial Content", 400: "Bad Request", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 408: "Request Timeout", 409: "Conflict", 411: "Length Required",
        413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type", 500: "Internal Server Error",
        416: "Range Not Satisfiable", 421: "Misdirected Request",
        431: "Request Header Fields Too Large", 503: "Service Unavailable",
        505: "HTTP Version Not Supported"
    ]
}

/// The number of connections being served, behind one lock.
private final class ConnectionCount: Sendable {
    private let count = Mutex(0)

    var value: Int { count.withLock { $0 } }

    /// Counts one more connection unless `limit` are being served already.
    func enter(limit: Int) -> Bool {
        count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func leave() { count.withLock { $0 -= 1 } }
}

/// The server could not start.
public struct StaticServerError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
