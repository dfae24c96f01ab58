import Foundation
import Testing
import QuireKit

@Suite struct LayoutServiceTests {
    static var repoRoot: URL {
        TestSupport.repoRoot
    }

    func respond(_ text: String) -> (LayoutJSON, Bool) {
        LayoutService.respond(toJSON: Data(text.utf8))
    }

    func object(_ value: LayoutJSON?) -> [String: LayoutJSON] {
        if case .object(let o)? = value { return o }
        return [:]
    }

    func array(_ value: LayoutJSON?) -> [LayoutJSON] {
        if case .array(let a)? = value { return a }
        return []
    }

    func number(_ value: LayoutJSON?) -> Double? {
        if case .number(let d)? = value { return d }
        return nil
    }

    @Test(arguments: [
        #"{"layout":"pager","viewport":{"width":390,"height":844},"aspectRatios":[0.5,2],"offset":{"x":195,"y":0}}"#,
        #"{"layout":"strip","viewport":{"width":390,"height":66},"count":10,"offset":{"x":-176.5,"y":0},"snap":{"proposedOffset":{"x":-150,"y":0}}}"#,
        #"{"layout":"halves","viewport":{"width":187,"height":812},"count":5,"offset":{"x":0,"y":-256},"parameters":{"orientation":"right"}}"#,
        #"{"layout":"carousel","viewport":{"width":375,"height":180},"count":5,"offset":{"x":686,"y":0}}"#,
        #"{"layout":"featured","viewport":{"width":375,"height":667},"count":5,"offset":{"x":0,"y":90}}"#
    ])
    func everyLayoutAnswersWithTheCommonFields(request: String) throws {
        let (response, isError) = respond(request)
        #expect(!isError, "\(response.text)")
        let o = object(response)
        for key in ["layout", "count", "contentSize", "contentInset", "offset", "nearestIndex", "items"] {
            #expect(o[key] != nil, "missing \(key) in \(response.text)")
        }
        let items = array(o["items"])
        #expect(!items.isEmpty)
        for item in items {
            let fields = object(item)
            for key in ["index", "center", "size", "transform", "alpha", "zIndex", "frame"] {
                #expect(fields[key] != nil, "item lacks \(key)")
            }
        }
        #expect(!response.text.contains("nan") && !response.text.contains("inf"))
    }

    /// A client pipelining requests over `--lines` must be able to tell which one failed.
    @Test(arguments: [
        (#"{"id":"r7","layout":"nope","viewport":{"width":390,"height":844},"count":3}"#, LayoutJSON.string("r7")),
        (#"{"id":42,"layout":"strip","viewport":{"width":0,"height":66},"count":3}"#, LayoutJSON.number(42)),
        (#"{"id":{"n":1},"layout":"pager","count":3}"#, LayoutJSON.object(["n": .number(1)]))
    ])
    func errorRepliesEchoTheRequestID(request: String, id: LayoutJSON) {
        let (reply, isError) = respond(request)
        #expect(isError)
        #expect(object(reply)["error"] != nil)
        #expect(object(reply)["id"] == id)
    }

    @Test func anErrorForTextThatIsNotAnObjectHasNoID() {
        let (reply, isError) = respond("[1, 2")
        #expect(isError)
        #expect(object(reply)["id"] == nil)
        #expect(object(reply)["error"] != nil)
    }

    @Test func stripValuesMatchTheLibrary() {
        let (response, _) = respond(
            #"{"layout":"strip","viewport":{"width":390,"height":66},"aspectRatios":[0.75,0.75,2,0.5],"offset":{"x":-176.5,"y":0},"snap":{"proposedOffset":{"x":-158,"y":0}}}"#
        )
        let o = object(response)
        let first = object(array(o["items"]).first)
        #expect(number(object(first["size"])["width"]) == 50)
        #expect(number(first["expanding"]) == 1)
        let second = object(array(o["items"])[1])
        #expect(number(object(second["transform"])["tx"]) == 18.25)
        #expect(number(object(o["snap"])["index"]) == 1)  // q = 0.5: ties go right
        #expect(number(object(object(o["snap"])["targetOffset"])["x"]) == -139.5)
    }

    @Test func carouselReturnsItsRecentredOffsetAndCenterIndex() {
        let (response, _) = respond(
            #"{"layout":"carousel","viewport":{"width":375,"height":180},"count":5,"offset":{"x":686,"y":0},"parameters":{"centerIndex":4}}"#
        )
        let o = object(response)
        #expect(number(object(o["offset"])["x"]) == 335)
        #expect(number(o["centerIndex"]) == 0)  // 4 + 1 wraps to 0
    }

    @Test func halvesSnapReportsTheSameCellRule() {
        let (response, _) = respond(
            #"{"layout":"halves","viewport":{"width":187,"height":812},"count":5,"offset":{"x":0,"y":-256},"snap":{"proposedOffset":{"x":0,"y":-200}}}"#
        )
        let snap = object(object(response)["snap"])
        #expect(snap["sameCell"] == .bool(true))
        #expect(number(object(snap["immediateOffset"])["y"]) == -256)
        #expect(number(object(snap["targetOffset"])["y"]) == -256)
    }

    @Test func stripAnimationsAreSampled() {
        let move = object(
            respond(
                #"{"layout":"strip","viewport":{"width":390,"height":66},"count":6,"offset":{"x":-176.5,"y":0},"animation":{"kind":"move","index":2,"progress":0.5}}"#
            ).0)
        #expect(number(object(move["offset"])["x"]) == -176.5 + 37)
        #expect(number(move["expandingRate"]) == 0)
        let end = object(
            respond(
                #"{"layout":"strip","viewport":{"width":390,"height":66},"count":6,"animation":{"kind":"scrollEnd","progress":0.25},"parameters":{"expandingRate":0}}"#
            ).0)
        #expect(number(end["expandingRate"]) == 0.125)
        let delete = object(
            respond(
                #"{"layout":"strip","viewport":{"width":390,"height":66},"count":6,"offset":{"x":-176.5,"y":0},"animation":{"kind":"delete","phase":"collapse","progress":1}}"#
            ).0)
        let cell0 = object(array(delete["items"]).first)
        #expect(number(cell0["alpha"]) == 0 && number(cell0["collapsing"]) == 1)
    }

    // Bad requests name the field at fault.
    @Test(
        arguments: [
            ("not json", ""),
            (#"[1]"#, ""),
            (#"{"viewport":{"width":1,"height":1},"count":1}"#, "layout"),
            (#"{"layout":"grid","viewport":{"width":1,"height":1},"count":1}"#, "layout"),
            (#"{"layout":"pager","count":1}"#, "viewport"),
            (#"{"layout":"pager","viewport":{"width":0,"height":1},"count":1}"#, "viewport.width"),
            (#"{"layout":"pager","viewport":{"width":1,"height":"tall"},"count":1}"#, "viewport.height"),
            (#"{"layout":"pager","viewport":{"width":1,"height":1}}"#, "aspectRatios"),
            (#"{"layout":"pager","viewport":{"width":1,"height":1},"count":1,"aspectRatios":[1]}"#, "count"),
            (#"{"layout":"pager","viewport":{"width":1,"height":1},"aspectRatios":[1,-2]}"#, "aspectRatios[1]"),
            (#"{"layout":"pager","viewport":{"width":1,"height":1},"count":-1}"#, "count"),
            (#"{"layout":"pager","viewport":{"width":1,"height":1},"count":1.5}"#, "count"),
            (#"{"layout":"pager","viewport":{"width":1,"height":1},"count":1,"offset":{"x":1}}"#, "offset.y"),
            (#"{"layout":"pager","viewport":{"width":1,"height":1},"count":1,"viewPort":{}}"#, "viewPort"),
            (
                #"{"layout":"pager","viewport":{"width":1,"height":1},"count":1,"parameters":{"spacing":4}}"#,
                "parameters.spacing"
            ),
            (
                #"{"layout":"strip","viewport":{"width":1,"height":1},"count":1,"parameters":{"updates":[{"index":0,"kind":"grow","value":1}]}}"#,
                "parameters.updates[0].kind"
            ),
            (
                #"{"layout":"halves","viewport":{"width":1,"height":1},"count":1,"parameters":{"orientation":"up"}}"#,
                "parameters.orientation"
            ),
            (
                #"{"layout":"halves","viewport":{"width":1,"height":1},"count":1,"animation":{"kind":"move","index":0,"progress":0}}"#,
                "animation"
            ),
            (
                #"{"layout":"strip","viewport":{"width":1,"height":1},"count":1,"animation":{"kind":"move","progress":0}}"#,
                "animation.index"
            ),
            (
                #"{"layout":"strip","viewport":{"width":1,"height":1},"count":1,"animation":{"kind":"move","index":0,"progress":2}}"#,
                "animation.progress"
            ),
            (
                #"{"layout":"strip","viewport":{"width":1,"height":1},"count":3,"animation":{"kind":"delete","progress":0.5}}"#,
                "animation.phase"
            ),
            (
                #"{"layout":"strip","viewport":{"width":1,"height":1},"count":1,"snap":{"velocity":{"x":0,"y":0}}}"#,
                "snap.proposedOffset"
            ),
            (
                #"{"layout":"carousel","viewport":{"width":375,"height":1},"count":3,"parameters":{"insetLeft":300}}"#,
                "parameters.insetLeft"
            ),
            (#"{"layout":"carousel","viewport":{"width":20,"height":1},"count":3}"#, "parameters.sideOffset"),
            (
                #"{"layout":"featured","viewport":{"width":1,"height":1},"count":3,"parameters":{"dragOffset":0}}"#,
                "parameters.dragOffset"
            ),
            (
                #"{"layout":"strip","viewport":{"width":1,"height":1},"pagesFrom":"/nonexistent/layout.json"}"#,
                "pagesFrom"
            )
        ] as [(String, String)])
    func badRequestsNameTheField(request: String, field: String) {
        let (response, isError) = respond(request)
        #expect(isError)
        let error = object(object(response)["error"])
        #expect(error["field"] == .string(field), "\(response.text)")
        if case .string(let message)? = error["message"] {
            #expect(!message.isEmpty)
        } else {
            Issue.record("no message")
        }
    }

    @Test func pagesFromReadsALayoutReport() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-layout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let rect = LayoutReport.RectValue(Rect(x: 0, y: 0, width: 1, height: 1))
        let pages = [0.75, 2.0].enumerated().map { i, ratio in
            LayoutReport.Page(
                index: i, source: "p\(i).jpg", sourcePage: 0, orientation: 1, width: Int(ratio * 1000), height: 1000,
                aspectRatio: ratio,
                files: .init(page: "pages/x.jpg", preview: "previews/x.jpg", thumbnail: "thumbs/x.jpg"),
                pager: .init(frame: rect, mask: rect, snapOffset: 0),
                strip: .init(frame: rect, focusedFrame: rect, snapOffset: 0))
        }
        let url = dir.appendingPathComponent("layout.json")
        try LayoutReport(viewport: .init(), pages: pages, errors: []).encoded().write(to: url)
        let request = #"{"layout":"strip","pagesFrom":"\#(url.path)","offset":{"x":-176.5,"y":0}}"#
        let (response, isError) = respond(request)
        #expect(!isError, "\(response.text)")
        let o = object(response)
        #expect(number(o["count"]) == 2)
        #expect(number(object(o["contentSize"])["height"]) == 66)  // the report's strip height
        let first = object(array(o["items"]).first)
        #expect(number(object(first["size"])["width"]) == 50)  // ceil(66 · 0.75)
    }

    @Test func schemasShipAndDescribeEveryResponseField() throws {
        let schemas = Self.repoRoot.appendingPathComponent("Schemas")
        let request =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: schemas.appendingPathComponent("quire.layout-request-1.schema.json")))
            as? [String: Any]
        let response =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: schemas.appendingPathComponent("quire.layout-response-1.schema.json")))
            as? [String: Any]
        let requestProperties = try #require(request?["properties"] as? [String: Any])
        for key in [
            "layout", "viewport", "aspectRatios", "count", "pagesFrom", "offset", "parameters", "snap", "animation"
        ] {
            #expect(requestProperties[key] != nil, "request schema lacks \(key)")
        }
        let parameterNames = try #require(
            (requestProperties["parameters"] as? [String: Any])?["properties"] as? [String: Any])
        for names in LayoutRequest.parameterNames.values {
            for name in names { #expect(parameterNames[name] != nil, "request schema lacks parameter \(name)") }
        }
        let variants = try #require(response?["oneOf"] as? [[String: Any]])
        let top = try #require(variants.last?["properties"] as? [String: Any])
        let item = try #require(
            ((response?["$defs"] as? [String: Any])?["item"] as? [String: Any])?["properties"] as? [String: Any])
        let examples = [
            #"{"layout":"pager","viewport":{"width":390,"height":844},"count":3,"offset":{"x":100,"y":0},"snap":{"proposedOffset":{"x":300,"y":0}}}"#,
            #"{"layout":"strip","viewport":{"width":390,"height":66},"count":3,"animation":{"kind":"scrollBegin","progress":0.5}}"#,
            #"{"layout":"halves","viewport":{"width":187,"height":812},"count":3,"snap":{"proposedOffset":{"x":0,"y":100}},"id":7}"#,
            #"{"layout":"carousel","viewport":{"width":375,"height":180},"count":3,"snap":{"proposedOffset":{"x":500,"y":0}}}"#,
            #"{"layout":"featured","viewport":{"width":375,"height":667},"count":3}"#
        ]
        for example in examples {
            let o = object(respond(example).0)
            for key in o.keys { #expect(top[key] != nil, "response schema lacks \(key)") }
            for key in object(o["snap"]).keys {
                #expect(
                    ((top["snap"] as? [String: Any])?["properties"] as? [String: Any])?[key] != nil,
                    "schema snap lacks \(key)")
            }
            for entry in array(o["items"]) {
                for key in object(entry).keys { #expect(item[key] != nil, "response schema lacks item field \(key)") }
            }
        }
    }

    @Test func encodingIsDeterministicAndRounded() {
        let value = LayoutJSON.object([
            "b": .number(1.0 / 3), "a": .array([.number(2), .null, .bool(true), .string("q\"\n")]),
            "c": .number(-0.0), "d": .number(.nan)
        ])
        #expect(value.text == #"{"a":[2,null,true,"q\"\n"],"b":0.3333,"c":0,"d":0}"#)
    }
}
