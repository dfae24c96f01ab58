import QuireKit
import Testing

/// The request-head parser, the target decoder and the Range reader of `quire view --serve`.
@Suite struct HTTPRequestHeadTests {
    private func parse(_ text: String) throws(HTTPRequestError) -> HTTPRequestHead {
        try HTTPRequestHead.parse(Array(text.utf8))
    }

    @Test func aBrowserRequestParses() throws {
        let head = try parse("GET /pages/0001.jpg?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nRange:  bytes=0-9 \r\n\r\n")
        #expect(head.method == "GET" && head.target == "/pages/0001.jpg?x=1" && head.version == "HTTP/1.1")
        #expect(head.field("host") == "127.0.0.1:8000" && head.field("range") == "bytes=0-9")
    }

    @Test func bareLineFeedsAndLeadingBlankLinesAreTolerated() throws {
        let head = try parse("\r\nHEAD / HTTP/1.0\nHost: localhost\n\n")
        #expect(head.method == "HEAD" && head.field("host") == "localhost")
    }

    @Test(arguments: [
        ("GET /\r\n\r\n", 400),  // no version
        ("GET / HTTP/2.0\r\n\r\n", 505),
        ("GET  / HTTP/1.1\r\n\r\n", 400),  // two blanks
        ("G(T / HTTP/1.1\r\n\r\n", 400),  // method not a token
        ("GET /a\u{7f} HTTP/1.1\r\n\r\n", 400),  // control byte in target
        ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400),  // obsolete line folding
        ("GET / HTTP/1.1\r\nNo colon\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),  // two Hosts
        ("GET / HTTP/1.1\r\nX: a\u{1}b\r\n\r\n", 400)
    ])
    func malformedHeadsAreRefusedWithTheirStatus(text: String, status: Int) {
        #expect(throws: HTTPRequestError.self) { try parse(text) }
        do { _ = try parse(text) } catch { #expect(error.status == status, "\(text.debugDescription)") }
    }

    @Test func lengthsAreBounded() {
        let longTarget = "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n\r\n"
        #expect(throws: HTTPRequestError.targetTooLong) { try parse(longTarget) }
        let manyFields = "GET / HTTP/1.1\r\n" + String(repeating: "X: y\r\n", count: 65) + "\r\n"
        #expect(throws: HTTPRequestError.headTooLarge) { try parse(manyFields) }
        let huge = "GET / HTTP/1.1\r\nX: " + String(repeating: "y", count: 17000) + "\r\n\r\n"
        #expect(throws: HTTPRequestError.headTooLarge) { try parse(huge) }
    }

    @Test func theEndOfTheHeadIsFoundWhereverTheBlankLineIs() {
        #expect(HTTPRequestHead.endOfHead(in: Array("GET / HTTP/1.1\r\nA: b\r\n\r\nbody".utf8)) == 24)
        #expect(HTTPRequestHead.endOfHead(in: Array("GET / HTTP/1.1\n\nx".utf8)) == 16)
        #expect(HTTPRequestHead.endOfHead(in: Array("GET / HTTP/1.1\r\nA: b\r\n".utf8)) == nil)
    }

    @Test func targetsMapToPathsInsideTheFolderOnly() {
        #expect(ServedTarget.relativePath(of: "/") == ["index.html"])
        #expect(ServedTarget.relativePath(of: "/pages/0001.jpg?v=2#x") == ["pages", "0001.jpg"])
        #expect(ServedTarget.relativePath(of: "/iiif/") == ["iiif", "index.html"])
        #expect(ServedTarget.relativePath(of: "/a%20b.jpg") == ["a b.jpg"])
        for refused in [
            "/../etc/passwd", "/pages/%2e%2e/%2e%2e/etc/passwd", "/.quire/manifest.json",
            "/pages/.0001.jpg.partial-1-2", "http://evil/x", "/a%00b", "/a%zz", "/a%c3", "/a\\..\\b", "*"
        ] {
            #expect(ServedTarget.relativePath(of: refused) == nil, "\(refused)")
        }
    }

    @Test func onlyThisMachineIsAHost() {
        for host in ["127.0.0.1", "127.0.0.1:8000", "LOCALHOST:8000", "[::1]:8000", nil] as [String?] {
            #expect(ServedTarget.isLocalHost(host, port: 8000), "\(host ?? "nil")")
        }
        for host in [
            "evil.example", "evil.example:8000", "127.0.0.1:9000", "127.0.0.1.evil.example", "localhost.evil", ""
        ] {
            #expect(!ServedTarget.isLocalHost(host, port: 8000), "\(host)")
        }
    }

    @Test func onlyIIIFRepliesAllowOtherOrigins() {
        #expect(ServedTarget.allowsAnyOrigin(["iiif", "manifest.json"]))
        #expect(!ServedTarget.allowsAnyOrigin(["layout.json"]))
        #expect(!ServedTarget.allowsAnyOrigin(["pages", "iiif"]))
    }

    @Test func rangesAreReadAsRFC9110Says() {
        #expect(ByteRange.parse(nil, size: 100) == .whole)
        #expect(ByteRange.parse("bytes=0-9", size: 100) == .part(ByteRange(first: 0, last: 9)))
        #expect(ByteRange.parse("bytes=90-", size: 100) == .part(ByteRange(first: 90, last: 99)))
        #expect(ByteRange.parse("bytes=90-500", size: 100) == .part(ByteRange(first: 90, last: 99)))
        #expect(ByteRange.parse("bytes=-10", size: 100) == .part(ByteRange(first: 90, last: 99)))
        #expect(ByteRange.parse("bytes=-500", size: 100) == .part(ByteRange(first: 0, last: 99)))
        #expect(ByteRange.parse("bytes=100-", size: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-0", size: 100) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=0-1,5-6", size: 100) == .whole)
        #expect(ByteRange.parse("bytes=9-1", size: 100) == .whole)
        #expect(ByteRange.parse("items=0-1", size: 100) == .whole)
        #expect(ByteRange.parse("bytes=99999999999999999999999-", size: 100) == .whole)
        #expect(ByteRange.parse("bytes=0-99999999999999999999999", size: 100) == .whole)
        // A suffix that is no number it reads (too long, a sign, not digits) is bad syntax like
        // the others: the whole file, not 416.
        #expect(ByteRange.parse("bytes=-99999999999999999999999", size: 100) == .whole)
        #expect(ByteRange.parse("bytes=--5", size: 100) == .whole)
        #expect(ByteRange.parse("bytes=-1x", size: 100) == .whole)
        #expect(ByteRange.parse("bytes=-5", size: 0) == .unsatisfiable)
    }
}
