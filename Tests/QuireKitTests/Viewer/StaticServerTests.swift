import Foundation
import QuireKit
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// `quire view --serve` under abuse: idle and slow clients, symbolic links out of the folder,
/// foreign hosts, ranges, FIFOs, floods. Each server runs in this process on a free port.
@Suite(.serialized) struct StaticServerTests {
    /// A folder with a viewer-like layout: index.html, layout.json, a page, an IIIF file.
    private func servedFolder() throws -> String {
        let folder = try TestSupport.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/pages", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/iiif", withIntermediateDirectories: true)
        try Data("<!doctype html><title>q</title>".utf8).write(to: URL(fileURLWithPath: folder + "/index.html"))
        try Data(#"{"pages":[]}"#.utf8).write(to: URL(fileURLWithPath: folder + "/layout.json"))
        try Data((0..<1000).map { UInt8($0 % 251) }).write(to: URL(fileURLWithPath: folder + "/pages/0001.jpg"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/iiif/manifest.json"))
        return folder
    }

    private func server(_ folder: String, _ configure: (inout StaticServer.Limits) -> Void = { _ in }) throws
        -> StaticServer
    {
        var limits = StaticServer.Limits()
        configure(&limits)
        let server = try StaticServer(folder: URL(fileURLWithPath: folder), port: 0, limits: limits)
        server.start()
        return server
    }

    @Test func anIdleConnectionDoesNotHoldUpOthers() throws {
        let s = try server(try servedFolder())
        defer { s.stop() }
        let idle = try RawClient(port: s.port)  // connects and says nothing
        defer { idle.close() }
        let reply = try RawClient.get(port: s.port, "/layout.json")
        #expect(reply.status == 200 && reply.body == Array(#"{"pages":[]}"#.utf8))
    }

    @Test func aClientTooSlowToSendItsHeadIsDropped() throws {
        let s = try server(try servedFolder()) { $0.headTimeout = 0.5 }
        defer { s.stop() }
        let slow = try RawClient(port: s.port)
        defer { slow.close() }
        try slow.send("GET / HTTP/1.1\r\n")  // and never the blank line
        let reply = try slow.readAll(timeout: 5)
        #expect(reply.status == 408)
    }

    @Test func aFloodPastTheCapIsAnswered503AndTheServerRecovers() throws {
        let s = try server(try servedFolder()) {
            $0.maxConnections = 2; $0.headTimeout = 1
        }
        defer { s.stop() }
        let held = try (0..<2).map { _ in try RawClient(port: s.port) }
        Thread.sleep(forTimeInterval: 0.2)
        let refused = try RawClient.get(port: s.port, "/layout.json")
        #expect(refused.status == 503)
        held.forEach { $0.close() }
        var status = 0
        for _ in 0..<50 where status != 200 {  // the held threads notice the close and leave
            Thread.sleep(forTimeInterval: 0.1)
            status = try RawClient.get(port: s.port, "/layout.json").status
        }
        #expect(status == 200)
    }

    @Test func symbolicLinksOutOfTheFolderAreNotFollowed() throws {
        let folder = try servedFolder()
        let outside = try TestSupport.temporaryFolder() + "/secret.txt"
        try Data("secret".utf8).write(to: URL(fileURLWithPath: outside))
        try FileManager.default.createSymbolicLink(atPath: folder + "/x.txt", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: folder + "/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: folder + "/inside.json", withDestinationPath: "layout.json")
        let s = try server(folder)
        defer { s.stop() }
        #expect(try RawClient.get(port: s.port, "/x.txt").status == 404)
        #expect(try RawClient.get(port: s.port, "/up/secret.txt").status == 404)
        #expect(try RawClient.get(port: s.port, "/inside.json").status == 200)
        #expect(try RawClient.get(port: s.port, "/../etc/passwd").status == 404)
        #expect(try RawClient.get(port: s.port, "/%2e%2e/%2e%2e/etc/passwd").status == 404)
    }

    @Test func aForeignHostIsRefusedAndCORSIsOnlyForIIIF() throws {
        let s = try server(try servedFolder())
        defer { s.stop() }
        #expect(try RawClient.get(port: s.port, "/layout.json", host: "rebound.example").status == 421)
        let layout = try RawClient.get(port: s.port, "/layout.json", host: "localhost:\(s.port)")
        #expect(layout.status == 200 && layout.header("access-control-allow-origin") == nil)
        #expect(layout.header("x-content-type-options") == "nosniff")
        let iiif = try RawClient.get(port: s.port, "/iiif/manifest.json")
        #expect(iiif.status == 200 && iiif.header("access-control-allow-origin") == "*")
    }

    @Test func rangesAndHEADAreServedWithoutReadingMoreThanAsked() throws {
        let s = try server(try servedFolder())
        defer { s.stop() }
        let part = try RawClient.get(port: s.port, "/pages/0001.jpg", extra: "Range: bytes=10-19\r\n")
        #expect(part.status == 206 && part.header("content-range") == "bytes 10-19/1000")
        #expect(part.body == (10..<20).map { UInt8($0 % 251) })
        let tail = try RawClient.get(port: s.port, "/pages/0001.jpg", extra: "Range: bytes=-5\r\n")
        #expect(tail.body == (995..<1000).map { UInt8($0 % 251) })
        let past = try RawClient.get(port: s.port, "/pages/0001.jpg", extra: "Range: bytes=5000-\r\n")
        #expect(past.status == 416 && past.header("content-range") == "bytes */1000")
        let head = try RawClient.get(port: s.port, "/pages/0001.jpg", method: "HEAD")
        #expect(head.status == 200 && head.header("content-length") == "1000" && head.body.isEmpty)
    }

    @Test func onlyRegularFilesAreServedAndAFIFODoesNotHang() throws {
        let folder = try servedFolder()
        #expect(mkfifo(folder + "/pages/0002.jpg", 0o644) == 0)
        let s = try server(folder)
        defer { s.stop() }
        #expect(try RawClient.get(port: s.port, "/pages/0002.jpg").status == 404)
        #expect(try RawClient.get(port: s.port, "/pages").status == 404)
        #expect(try RawClient.get(port: s.port, "/layout.json", method: "POST").status == 405)
    }

    @Test func garbageGetsAStatusNotASilence() throws {
        let s = try server(try servedFolder())
        defer { s.stop() }
        let client = try RawClient(port: s.port)
        defer { client.close() }
        try client.send("\u{16}\u{3}\u{1}\0\0garbage\r\n\r\n")  // a TLS hello, say
        #expect(try client.readAll(timeout: 5).status == 400)
        let big = try RawClient(port: s.port)
        defer { big.close() }
        try big.send("GET / HTTP/1.1\r\nX: " + String(repeating: "y", count: 40_000))
        #expect(try big.readAll(timeout: 5).status == 431)
    }
}

/// A blocking TCP client for raw HTTP exchanges with a server on 127.0.0.1.
struct RawClient {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        func header(_ name: String) -> String? { headers[name] }
    }

    let fd: Int32

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw RawClientError.connect }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, bytes.count, Int32(MSG_NOSIGNAL)) }
        guard n == bytes.count else { throw RawClientError.send }
    }

    /// Reads until the server closes, at most `timeout` seconds (a hang guard, not a measurement).
    func readAll(timeout: Double) throws -> Reply {
        var value = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        guard let end = HTTPRequestHead.endOfHead(in: bytes) else { throw RawClientError.noReply }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: Array(bytes[end...]))
    }

    func close() { _ = Glibc.close(fd) }

    /// One request on a fresh connection.
    static func get(port: UInt16, _ target: String, method: String = "GET", host: String? = nil, extra: String = "")
        throws -> Reply
    {
        let client = try RawClient(port: port)
        defer { client.close() }
        try client.send("\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n\(extra)\r\n")
        return try client.readAll(timeout: 10)
    }
}

enum RawClientError: Error { case connect, send, noReply }
