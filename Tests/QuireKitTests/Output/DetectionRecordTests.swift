import Foundation
import QuireKit
import Testing

@Suite struct DetectionRecordTests {
    /// The record as compact sorted JSON text, so the tests can look for exact fragments.
    private func text(_ record: DetectionRecord) throws -> String {
        String(decoding: try JSONOutput.encode(record, .line), as: UTF8.self)
    }

    @Test func explicitNullsAndRoundedCorners() throws {
        let photo = DetectionResult(
            source: "p.jpg", width: 400, height: 300,
            quad: Quad(
                topLeft: Point(x: 1.234, y: 2), topRight: Point(x: 300, y: 2),
                bottomRight: Point(x: 300, y: 200), bottomLeft: Point(x: 1, y: 200)),
            confidence: 0.987654)
        let written = try text(DetectionRecord(photo, timing: false))
        #expect(written.contains(#""quad":[[1.23,2],[300,2],[300,200],[1,200]]"#))
        #expect(written.contains(#""skewDegrees":null"#))
        #expect(written.contains(#""confidence":0.99"#))
        #expect(written.contains(#""rotationConfidence":null"#))
        let failed = try text(
            DetectionRecord(DetectionResult(source: "bad.jpg", error: "load: not an image"), timing: false))
        #expect(failed.contains(#""quad":null"#) && failed.contains(#""error":"load: not an image""#))
        #expect(!failed.contains("rotation"), "a page that was not read has no orientation")
    }

    @Test func kindPageCodeAndTimingOnlyWhenSet() throws {
        for kind in [DetectionResult.Kind.photo, .scan, DetectionResult.Kind.none] {
            let r = DetectionResult(
                source: "s.png", page: 2, width: 10, height: 10, skewDegrees: kind == .scan ? 1.2345 : nil,
                kind: kind, detectionMilliseconds: 12.345)
            let written = try text(DetectionRecord(r, timing: true))
            #expect(written.contains(#""kind":"\#(kind.rawValue)""#))
            #expect(written.contains(#""page":2"#) && written.contains(#""detectionMs":12.35"#))
            if kind == .scan { #expect(written.contains(#""skewDegrees":1.235"#)) }
            #expect(!(try text(DetectionRecord(r, timing: false))).contains("detectionMs"))
        }
        let bad = try text(
            DetectionRecord(DetectionResult(source: "bad.jpg", error: "x", errorCode: "decode"), timing: true))
        #expect(!bad.contains(#""kind""#) && !bad.contains(#""page""#) && bad.contains(#""code":"decode""#))
    }

    @Test func documentIsPrettySortedAndEndsWithANewline() throws {
        let doc = DetectionDocument(results: [DetectionRecord(DetectionResult(source: "a/b.jpg"), timing: false)])
        let data = try doc.json()
        #expect(data.last == 0x0A)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let results = object?["results"] as? [[String: Any]]
        #expect(results?.first?["source"] as? String == "a/b.jpg", "slashes unescaped and the path kept")
        #expect(String(decoding: data, as: UTF8.self).contains("a/b.jpg"))
    }
}
