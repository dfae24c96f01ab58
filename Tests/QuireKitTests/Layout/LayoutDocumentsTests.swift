import Foundation
import Testing
import QuireLayout
@testable import QuireKit

/// The typed request and response documents (QuireLayout, no libvips) say exactly what
/// `quire layout` reads and writes: every reply decodes and re-encodes to the same JSON (so no
/// field is missing from the model), and a typed request gets the same reply as the hand-written
/// one. layout.json decodes into `LayoutReport` with QuireLayout alone as well.
@Suite struct LayoutDocumentsTests {
    static let requests = [
        #"{"id":"p","layout":"pager","viewport":{"width":390,"height":844},"aspectRatios":[0.5,2,null],"offset":{"x":195,"y":0},"snap":{"proposedOffset":{"x":300,"y":0},"velocity":{"x":1,"y":0}}}"#,
        #"{"layout":"strip","viewport":{"width":390,"height":66},"count":10,"offset":{"x":-176.5,"y":0},"snap":{"proposedOffset":{"x":-150,"y":0}}}"#,
        #"{"layout":"strip","viewport":{"width":390,"height":66},"count":6,"offset":{"x":-176.5,"y":0},"animation":{"kind":"delete","index":2,"phase":"collapse","progress":0.5},"parameters":{"updates":[{"index":1,"kind":"delete","value":0.5,"direction":"left"}]}}"#,
        #"{"layout":"halves","viewport":{"width":187,"height":812},"count":5,"offset":{"x":0,"y":-256},"parameters":{"orientation":"right"},"snap":{"proposedOffset":{"x":0,"y":-200}}}"#,
        #"{"layout":"carousel","viewport":{"width":375,"height":180},"count":5,"offset":{"x":686,"y":0},"snap":{"proposedOffset":{"x":700,"y":0}}}"#,
        #"{"layout":"featured","viewport":{"width":375,"height":667},"count":5,"offset":{"x":0,"y":90},"rect":{"x":0,"y":0,"width":375,"height":2000}}"#,
        #"{"id":[1],"layout":"pager","viewport":{"width":0,"height":844},"count":3}"#,
        #"{not json"#
    ]

    /// JSON without its null members, for comparing (the typed model writes absent for null).
    static func withoutNulls(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            return object.filter { !($0.value is NSNull) }.mapValues(withoutNulls)
        }
        if let array = value as? [Any] { return array.map(withoutNulls) }
        return value
    }

    static func json(_ data: Data) throws -> NSDictionary {
        try #require(withoutNulls(try JSONSerialization.jsonObject(with: data)) as? [String: Any]) as NSDictionary
    }

    @Test(arguments: requests)
    func everyReplyDecodesAndReencodesUnchanged(_ request: String) throws {
        let reply = Data(LayoutService.respond(toJSON: Data(request.utf8)).response.text.utf8)
        let typed = try JSONDecoder().decode(LayoutResponseDocument.self, from: reply)
        #expect((typed.error == nil) == (typed.items != nil))
        let again = try JSONEncoder().encode(typed)
        #expect(try Self.json(again) == Self.json(reply), "\(String(decoding: reply, as: UTF8.self))")
    }

    @Test func aTypedRequestGetsTheSameReplyAsTheJSONOne() throws {
        let typed = LayoutRequestDocument(
            id: .string("p"), layout: .pager, viewport: Size(width: 390, height: 844), aspectRatios: [0.5, 2, nil],
            offset: Point(x: 195, y: 0),
            snap: .init(proposedOffset: Point(x: 300, y: 0), velocity: Point(x: 1, y: 0)))
        let encoded = try JSONEncoder().encode(typed)
        #expect(
            LayoutService.respond(toJSON: encoded).response
                == LayoutService.respond(toJSON: Data(Self.requests[0].utf8)).response)
        // And every request above decodes into the typed model and back to the same request.
        for text in Self.requests.dropLast(2) {
            let request = try JSONDecoder().decode(LayoutRequestDocument.self, from: Data(text.utf8))
            #expect(try Self.json(JSONEncoder().encode(request)) == Self.json(Data(text.utf8)), "\(text)")
        }
    }

    @Test func layoutJSONDecodesWithTheModelAlone() throws {
        let input = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [input, out] { try? FileManager.default.removeItem(atPath: p) } }
        try TestSupport.writeImage("\(input)/a.jpg", width: 300, height: 200)
        try TestSupport.writeImage("\(input)/b.jpg", width: 200, height: 300)
        let summary = try Processor.run(ProcessJob(inputs: [input], outputDirectory: out, jobs: 1))
        let data = try Data(contentsOf: URL(fileURLWithPath: summary.layoutPath))
        let report = try JSONDecoder().decode(LayoutReport.self, from: data)
        #expect(report.pages.map(\.source) == ["a.jpg", "b.jpg"])
        #expect(report.pages[0].previewSize == LayoutReport.PixelSizeValue(width: 300, height: 200))
        // An app lays the pages out again for its own viewport, with QuireLayout only.
        let wide = LayoutReport.relaidOut(
            viewport: .init(width: 800, height: 600, stripHeight: 80), pages: report.pages, errors: [])
        #expect(wide.pages[1].pager.frame.x == 800)
        #expect(wide.pages[1].pager.mask.height == 600)
    }
}
