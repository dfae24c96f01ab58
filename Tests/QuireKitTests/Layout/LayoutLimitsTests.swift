import Foundation
import Testing
import QuireKit

/// `quire layout` against hostile requests (issue 34): numbers near 1e308, item counts of 10^7,
/// rects over a million items, over-long requests. Each is refused with an error naming the
/// field, and no reply ever holds text that is not JSON.
@Suite struct LayoutLimitsTests {
    func respond(_ text: String) -> (reply: LayoutJSON, isError: Bool) {
        let (response, isError) = LayoutService.respond(toJSON: Data(text.utf8))
        return (response, isError)
    }

    func errorField(_ reply: LayoutJSON) -> String? {
        guard case .object(let o) = reply, case .object(let e)? = o["error"], case .string(let f)? = e["field"] else {
            return nil
        }
        return f
    }

    func items(_ reply: LayoutJSON) -> [LayoutJSON]? {
        guard case .object(let o) = reply, case .array(let a)? = o["items"] else { return nil }
        return a
    }

    /// The text parses as a JSON object (Foundation refuses `inf` and `nan`).
    func isJSONObject(_ text: String) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [String: Any]
    }

    static let base = #""layout":"pager","viewport":{"width":390,"height":844},"count":3"#

    @Test(arguments: [
        (#"{"layout":"pager","viewport":{"width":390,"height":844},"count":3,"offset":{"x":1e308,"y":0}}"#, "offset.x"),
        (
            #"{"layout":"pager","viewport":{"width":390,"height":844},"count":3,"offset":{"x":0,"y":-1.5e308}}"#,
            "offset.y"
        ),
        (#"{"layout":"pager","viewport":{"width":1e308,"height":844},"count":3}"#, "viewport.width"),
        (#"{"layout":"strip","viewport":{"width":390,"height":100001},"count":3}"#, "viewport.height"),
        (
            #"{"layout":"strip","viewport":{"width":390,"height":66},"count":3,"rect":{"x":-1e308,"y":0,"width":10,"height":10}}"#,
            "rect.x"
        ),
        (
            #"{"layout":"strip","viewport":{"width":390,"height":66},"count":3,"rect":{"x":0,"y":0,"width":1e300,"height":10}}"#,
            "rect.width"
        ),
        (
            #"{"layout":"strip","viewport":{"width":390,"height":66},"count":3,"snap":{"proposedOffset":{"x":1e308,"y":0}}}"#,
            "snap.proposedOffset.x"
        ),
        (
            #"{"layout":"strip","viewport":{"width":390,"height":66},"count":3,"snap":{"proposedOffset":{"x":0,"y":0},"velocity":{"x":-1e200,"y":0}}}"#,
            "snap.velocity.x"
        ),
        (
            #"{"layout":"strip","viewport":{"width":390,"height":66},"count":3,"parameters":{"spacing":1e308}}"#,
            "parameters.spacing"
        ),
        (
            #"{"layout":"halves","viewport":{"width":187,"height":812},"count":3,"parameters":{"cellZIndex":1e300}}"#,
            "parameters.cellZIndex"
        ),
        (
            #"{"layout":"carousel","viewport":{"width":375,"height":180},"count":3,"parameters":{"centerIndex":-1e18}}"#,
            "parameters.centerIndex"
        ),
        (#"{"layout":"strip","viewport":{"width":390,"height":66},"aspectRatios":[1,1e308]}"#, "aspectRatios[1]"),
        (#"{"layout":"pager","viewport":{"width":390,"height":844},"aspectRatios":[1e-310]}"#, "aspectRatios[0]"),
        (
            #"{"layout":"strip","viewport":{"width":390,"height":66},"count":3,"parameters":{"updates":[{"index":1e300,"kind":"expand","value":1}]}}"#,
            "parameters.updates[0].index"
        )
    ])
    func numbersOutOfRangeAreRefusedNamingTheField(request: String, field: String) {
        let (reply, isError) = respond(request)
        #expect(isError, "\(reply.text)")
        #expect(errorField(reply) == field, "\(reply.text)")
        #expect(isJSONObject(reply.text), "\(reply.text)")
    }

    @Test func numbersAtTheBoundsAreAccepted() {
        let request =
            #"{"layout":"strip","viewport":{"width":100000,"height":100000},"aspectRatios":[1e-4,1e4,null],"offset":{"x":-1e9,"y":1e9},"snap":{"proposedOffset":{"x":1e9,"y":-1e9},"velocity":{"x":1e9,"y":1e9}},"parameters":{"spacing":1e9,"focusedSpacing":-1e9}}"#
        let (reply, isError) = respond(request)
        #expect(!isError, "\(reply.text)")
        #expect(isJSONObject(reply.text), "\(reply.text)")
        #expect(reply.isFinite)
    }

    /// The writer rounds by scaling by 10^4, which overflowed to `inf` near 1e308.
    @Test(arguments: [1e308, -1e308, .greatestFiniteMagnitude, 1e20, 4.6e15, 5e-324, .infinity, -.infinity, .nan])
    func theWriterOnlyWritesJSONNumbers(value: Double) throws {
        let text = LayoutJSON.object(["v": .number(value)]).text
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
        let back = try #require(parsed["v"] as? Double)
        if value.isFinite, abs(value) > 1 { #expect(back == value, "\(text)") }
    }

    @Test func anIDNear1e308IsEchoedAsJSON() {
        let (reply, isError) = respond("{\"id\":1e308,\(Self.base)}")
        #expect(!isError)
        #expect(isJSONObject(reply.text), "\(reply.text.prefix(200))")
        #expect(reply.text.contains(#""id":1e+308"#))
    }

    @Test(arguments: [(1_000_000, false), (1_000_001, true), (10_000_000, true)])
    func theItemCountIsBounded(count: Int, refused: Bool) {
        let (reply, isError) = respond(#"{"layout":"strip","viewport":{"width":390,"height":66},"count":\#(count)}"#)
        #expect(isError == refused, "\(reply.text.prefix(200))")
        if refused { #expect(errorField(reply) == "count") }
    }

    /// A rect over a million items used to build every one of them (2.5 GB for 10^6).
    @Test(arguments: ["pager", "strip", "halves", "featured"])
    func aRectMeetingMoreItemsThanAReplyHoldsIsRefused(layout: String) {
        let request =
            #"{"layout":"\#(layout)","viewport":{"width":390,"height":400},"count":1000000,"rect":{"x":-5e8,"y":-5e8,"width":1e9,"height":1e9}}"#
        let (reply, isError) = respond(request)
        #expect(isError, "\(reply.text.prefix(200))")
        #expect(errorField(reply) == "rect")
    }

    /// Pager pages 1 pt wide: a rect over [0.5, 0.5 + w] meets pages 0 ... ⌊0.5 + w⌋.
    @Test func theReplyItemLimitIsExact() {
        let limit = LayoutLimits.maximumReplyItems
        func request(width: Int) -> String {
            #"{"layout":"pager","viewport":{"width":1,"height":1},"count":1000000,"rect":{"x":0.5,"y":0,"width":\#(width),"height":1}}"#
        }
        let (fits, fitsError) = respond(request(width: limit - 1))
        #expect(!fitsError)
        #expect(items(fits)?.count == limit)
        let (over, overError) = respond(request(width: limit))
        #expect(overError)
        #expect(errorField(over) == "rect")
    }

    @Test func aViewportMeetingTooManyItemsNamesTheViewport() {
        // Featured rows of 1 pt over a 100,000 pt viewport: the default rect meets ~10^5 rows.
        let request =
            #"{"layout":"featured","viewport":{"width":390,"height":100000},"count":1000000,"parameters":{"standardHeight":1}}"#
        let (reply, isError) = respond(request)
        #expect(isError)
        #expect(errorField(reply) == "viewport")
    }

    @Test func stripUpdatesAreBounded() {
        func request(_ n: Int) -> String {
            let updates = (0..<n).map { #"{"index":\#($0),"kind":"expand","value":0.5}"# }.joined(separator: ",")
            return
                #"{"layout":"strip","viewport":{"width":390,"height":66},"count":3,"parameters":{"updates":[\#(updates)]}}"#
        }
        #expect(!respond(request(LayoutLimits.maximumUpdates)).isError)
        let (reply, isError) = respond(request(LayoutLimits.maximumUpdates + 1))
        #expect(isError)
        #expect(errorField(reply) == "parameters.updates")
    }

    @Test func aRequestLongerThanTheCapIsRefused() {
        let padding = String(repeating: " ", count: LayoutLimits.maximumRequestBytes)
        let (reply, isError) = respond("{\(Self.base)}\(padding)")
        #expect(isError)
        #expect(errorField(reply) == "")
        #expect(!respond("{\(Self.base)}").isError)
    }

    /// The messages' texts name the same bounds as the constants.
    @Test func limitTextsMatchTheConstants() {
        let (big, _) = respond(
            #"{"layout":"pager","viewport":{"width":390,"height":844},"count":3,"offset":{"x":1000000000.5,"y":0}}"#)
        #expect(big.text.contains("-1e9...1e9") && LayoutLimits.maximumMagnitude == 1e9)
        #expect(
            !respond(#"{"layout":"pager","viewport":{"width":390,"height":844},"count":3,"offset":{"x":1e9,"y":0}}"#)
                .isError)
        #expect(LayoutLimits.aspectRatioRange == 1e-4...1e4)
    }
}
