import Foundation
import Testing
import QuireImaging
@testable import QuireKit

/// `POST /api/corrections`'s body handling: the file is checked before anything is written, one
/// rerun at a time (409 for a second), and the saved file is the canonical one.
@Suite struct CorrectionsEndpointTests {
    /// A summary of no pages, for a rerun that does nothing.
    static let empty = ProcessSummary(
        report: LayoutReport(viewport: .init(), pages: [LayoutReport.PageInput](), errors: []),
        layoutPath: "layout.json")

    /// The first save runs on a thread of its own (not a task: blocking the test's cooperative
    /// threads could starve it on two cores).
    @Test func aSecondSaveWhileOneRunsIsRefusedWith409() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0),
            finished = DispatchSemaphore(value: 0)
        let endpoint = CorrectionsEndpoint(output: out, token: "t") { _, _ in
            started.signal()
            _ = release.wait(timeout: .now() + 60)  // a hang guard only
            return (Self.empty, [])
        }
        let first = Reply()
        Thread.detachNewThread {
            first.value = endpoint.handle(body: Array(#"{"a.jpg": {"rotate": 90}}"#.utf8))
            finished.signal()
        }
        try #require(started.wait(timeout: .now() + 60) == .success)
        let second = endpoint.handle(body: Array(#"{"a.jpg": {"rotate": 180}}"#.utf8))
        #expect(second.status == 409 && second.json.contains("\"error\""))
        release.signal()
        try #require(finished.wait(timeout: .now() + 60) == .success)
        #expect(first.value?.status == 200)
        #expect(first.value?.json == #"{"errors":[],"excluded":0,"layout":"layout.json","redone":[]}"#)
        #expect(
            try String(contentsOfFile: out + "/corrections.json", encoding: .utf8)
                == "{\n  \"a.jpg\": {\"rotate\": 90}\n}\n")
        // Free again once the first is done (this rerun is let through at once).
        release.signal()
        #expect(endpoint.handle(body: Array("{}".utf8)).status == 200)
    }

    /// A reply handed from the first save's thread (read after `finished` is signalled).
    final class Reply: @unchecked Sendable {
        var value: (status: Int, json: String)?
    }

    @Test func anInvalidFileIs400AndWritesNothing() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let endpoint = CorrectionsEndpoint(output: out, token: "t") { _, _ in
            Issue.record("reran on an invalid file")
            return (Self.empty, [])
        }
        let reply = endpoint.handle(body: Array(#"{"a.jpg": {"split": 0.9}}"#.utf8))
        #expect(reply.status == 400)
        #expect(reply.json.contains("a.jpg.split") && !reply.json.contains("\n"))
        #expect(!FileManager.default.fileExists(atPath: out + "/corrections.json"))
    }

    @Test func theTokenIsCheckedWhole() {
        let endpoint = CorrectionsEndpoint(output: "/nonexistent")
        #expect(endpoint.token.count == 32 && endpoint.token.allSatisfy(\.isHexDigit))
        #expect(endpoint.token != CorrectionsEndpoint(output: "/nonexistent").token)
        #expect(endpoint.accepts(endpoint.token))
        #expect(!endpoint.accepts(nil) && !endpoint.accepts("") && !endpoint.accepts(String(endpoint.token.dropLast())))
        #expect(!endpoint.accepts(String(endpoint.token.dropLast()) + (endpoint.token.last == "0" ? "1" : "0")))
    }
}
