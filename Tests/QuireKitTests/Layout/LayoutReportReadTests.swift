import Foundation
import QuireGeometry
import QuireKit
import QuireLayout
import Testing

/// `LayoutReport.read` on a layout.json from outside: every number range-checked, and a file
/// that does not decode refused in one line naming the file, the JSON path and what was expected.
@Suite struct LayoutReportReadTests {
    /// A two-page report with every optional number present, as `quire process` writes one.
    static func report() -> LayoutReport {
        let rect = LayoutReport.RectValue(Rect(x: 0, y: 0, width: 390, height: 520))
        let pages = [0.75, 1.5].enumerated().map { i, ratio in
            var page = LayoutReport.Page(
                index: i, source: "p\(i).jpg", sourcePage: 0, orientation: 1, width: Int(ratio * 1000), height: 1000,
                aspectRatio: ratio,
                files: .init(page: "pages/x.jpg", preview: "previews/x.jpg", thumbnail: "thumbs/x.jpg"),
                correction: .perspective, quad: [[1, 2], [900, 3], [901, 990], [2, 999]], quadConfidence: 0.9,
                skewDegrees: -1.25, crop: rect, edgeFill: 0.01, rotation: 90, rotationConfidence: 3.5,
                dpi: .init(x: 204, y: 196), previewSize: .init(width: 750, height: 1000),
                thumbnailSize: .init(width: 150, height: 200),
                split: .init(part: 1, count: 2, side: .left, rect: rect, gutter: .fold),
                text: .init(
                    hocr: "text/0001.hocr", txt: "text/0001.txt", language: "eng", meanConfidence: 91.5, words: 12),
                pager: .init(frame: rect, mask: rect, snapOffset: 390 * Double(i)),
                strip: .init(frame: rect, focusedFrame: rect, snapOffset: 0))
            page.capture = .init(
                file: "captures/0001.jpg", width: 300, height: 400, sourceWidth: 3000, sourceHeight: 4000)
            page.corrected = .init(corners: [[1, 2], [3, 4], [5, 6], [7, 8]], rotate: 180, split: .at(0.5))
            return page
        }
        let options = LayoutReport.BatchOptions(
            format: "jpeg", quality: 85, previewSize: 1600, thumbnailSize: 200, correct: "auto", paper: "auto",
            pdfDPI: 200, thumbnailsOnly: false)
        var report = LayoutReport(viewport: .init(), options: options, pages: pages, errors: [])
        report.errors = [.init(source: "bad.pdf", sourcePage: 3, code: "decode", message: "unreadable")]
        return report
    }

    /// Writes `report()` with the value at `path` replaced by `raw` (see `write`), reads it back
    /// and returns the error's text after the file's path.
    func readError(_ path: String, _ raw: String?) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.write(path, raw, in: dir)
        do {
            _ = try LayoutReport.read(from: url)
        } catch {
            let message = "\(error)"
            #expect(message.hasPrefix(url.path + ": "))
            #expect(!message.contains("\n"))
            return String(message.dropFirst(url.path.count + 2))
        }
        Issue.record("\(path) = \(raw ?? "absent") was read")
        return ""
    }

    /// `dir/layout.json`: `report()` with the value at `path` (`pages/0/width`) replaced by the
    /// JSON text `raw` (nil removes the key).
    static func write(_ path: String, _ raw: String?, in dir: URL) throws -> URL {
        let keys: [Any] = path.split(separator: "/").map { Int($0) ?? String($0) }
        var root = try #require(try JSONSerialization.jsonObject(with: report().encoded()) as? [String: Any])
        root = replacing(root, at: keys[...], with: raw == nil ? nil : "@@RAW@@") as! [String: Any]
        var text = String(decoding: try JSONSerialization.data(withJSONObject: root), as: UTF8.self)
        if let raw { text = text.replacingOccurrences(of: "\"@@RAW@@\"", with: raw) }
        let url = dir.appendingPathComponent("layout.json")
        try Data(text.utf8).write(to: url)
        return url
    }

    static func replacing(_ value: Any, at path: ArraySlice<Any>, with new: Any?) -> Any? {
        guard let head = path.first else { return new }
        if var array = value as? [Any], let i = head as? Int {
            array[i] = replacing(array[i], at: path.dropFirst(), with: new)!
            return array
        }
        var object = value as! [String: Any]
        object[head as! String] = replacing(object[head as! String]!, at: path.dropFirst(), with: new)
        return object
    }

    @Test func aValidReportReadsBackUnchanged() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-read-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.report().encoded().write(to: url)
        #expect(try LayoutReport.read(from: url) == Self.report().roundedForOutput())
    }

    @Test(
        arguments: [
            ("pages/1/width", "0", "pages[1].width: expected an integer in 1...10000000, found 0"),
            ("pages/0/width", "-7", "pages[0].width: expected an integer in 1...10000000, found -7"),
            ("pages/0/height", "10000001", "pages[0].height: expected an integer in 1...10000000, found 10000001"),
            ("pages/0/aspectRatio", "-0.5", "pages[0].aspectRatio: expected 0...10000000, found -0.5"),
            ("pages/0/orientation", "9", "pages[0].orientation: expected an integer in 1...8, found 9"),
            ("pages/0/rotation", "45", "pages[0].rotation: expected 0, 90, 180 or 270, found 45"),
            ("pages/0/quadConfidence", "1.5", "pages[0].quadConfidence: expected 0...1, found 1.5"),
            ("pages/0/quad/2/1", "1e9", "pages[0].quad[2][1]: expected -100000000...100000000, found 1000000000"),
            ("pages/0/dpi/x", "0", "pages[0].dpi.x: expected >0...100000000, found 0"),
            (
                "pages/0/thumbnailSize/height", "0",
                "pages[0].thumbnailSize.height: expected an integer in 1...10000000, found 0"
            ),
            ("pages/0/split/part", "3", "pages[0].split.part: expected an integer in 1...2, found 3"),
            ("pages/0/text/meanConfidence", "101", "pages[0].text.meanConfidence: expected 0...100, found 101"),
            (
                "pages/0/capture/sourceWidth", "0",
                "pages[0].capture.sourceWidth: expected an integer in 1...10000000, found 0"
            ),
            ("pages/0/corrected/rotate", "1", "pages[0].corrected.rotate: expected 0, 90, 180 or 270, found 1"),
            ("viewport/width", "0", "viewport.width: expected >0...1000000, found 0"),
            ("options/quality", "101", "options.quality: expected an integer in 1...100, found 101"),
            ("errors/0/sourcePage", "-1", "errors[0].sourcePage: expected an integer in 0...2147483647, found -1")
        ] as [(String, String, String)])
    func anOutOfRangeNumberIsRefusedByPath(path: String, raw: String, expected: String) throws {
        #expect(try readError(path, raw) == expected)
    }

    @Test(
        arguments: [
            ("pages/0/width", "1.5", "pages[0].width: expected an integer, found 1.5"),
            ("pages/1/width", "1e20", "pages[1].width: expected an integer, found 1e+20"),
            ("pages/0/sourcePage", "\"2\"", "pages[0].sourcePage: expected an integer, found a string"),
            ("pages/0/aspectRatio", "true", "pages[0].aspectRatio: expected a number, found true"),
            ("pages/0/height", "null", "pages[0].height: expected an integer, found null"),
            ("viewport", "[]", "viewport: expected an object, found an array")
        ] as [(String, String, String)])
    func aWrongTypeIsRefusedByPath(path: String, raw: String, expected: String) throws {
        let message = try readError(path, raw)
        #expect(message == "is not a Quire layout.json: " + expected)
    }

    @Test func aMissingFieldIsNamed() throws {
        #expect(try readError("pages/1/height", nil) == "is not a Quire layout.json: pages[1].height: is missing")
        #expect(
            try readError("viewport/stripHeight", nil) == "is not a Quire layout.json: viewport.stripHeight: is missing"
        )
    }

    @Test func aNumberBeyondADoubleIsRefused() throws {
        let message = try readError("pages/0/width", "1e400")
        #expect(message == "is not valid JSON, or holds a number beyond a Double's range")
    }

    @Test func anotherSchemaIsNamedBeforeItsFields() throws {
        let message = try readError("schema", "\"quire.layout/2\"")
        #expect(message == "has schema quire.layout/2, expected quire.layout/1")
    }

    @Test func pagesFromNamesTheFieldAndThePath() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = try Self.write("pages/0/width", "7.5", in: dir)
        let request = #"{"layout":"strip","pagesFrom":"\#(url.path)","offset":{"x":0,"y":0}}"#
        let reply = LayoutService.respond(toJSON: Data(request.utf8), cache: LayoutCache())
        #expect(reply.isError)
        #expect(reply.response.text.contains("pages[0].width: expected an integer, found 7.5"))
    }
}
