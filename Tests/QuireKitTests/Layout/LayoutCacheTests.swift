import Foundation
import Testing
import QuireKit
import QuireLayout

/// `LayoutCache` must change only the cost of a request, never its answer.
@Suite struct LayoutCacheTests {
    func writeReport(_ ratios: [Double], to url: URL) throws {
        let rect = LayoutReport.RectValue(Rect(x: 0, y: 0, width: 1, height: 1))
        let pages = ratios.enumerated().map { i, ratio in
            LayoutReport.Page(
                index: i, source: "p\(i).jpg", sourcePage: 0, orientation: 1, width: Int(ratio * 1000), height: 1000,
                aspectRatio: ratio,
                files: .init(page: "pages/x.jpg", preview: "previews/x.jpg", thumbnail: "thumbs/x.jpg"),
                pager: .init(frame: rect, mask: rect, snapOffset: 0),
                strip: .init(frame: rect, focusedFrame: rect, snapOffset: 0))
        }
        try LayoutReport(viewport: .init(), pages: pages, errors: []).encoded().write(to: url)
    }

    @Test func cachedAnswersEqualFreshOnes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("layout.json")
        try writeReport([0.75, 2.0, 0.5, 1.4], to: url)
        var requests = [
            #"{"layout":"pager","viewport":{"width":390,"height":844},"count":1000000,"offset":{"x":195,"y":0}}"#,
            #"{"layout":"pager","viewport":{"width":390,"height":844},"count":1000000,"offset":{"x":389805,"y":0}}"#,
            #"{"layout":"pager","viewport":{"width":300,"height":844},"count":1000000,"offset":{"x":150,"y":0}}"#,
            #"{"layout":"strip","viewport":{"width":390,"height":66},"count":1000000,"offset":{"x":3823.5,"y":0}}"#,
            #"{"layout":"strip","viewport":{"width":390,"height":66},"count":1000000,"offset":{"x":10,"y":0},"parameters":{"expandingRate":0.4}}"#,
            #"{"layout":"strip","viewport":{"width":390,"height":66},"count":999999,"offset":{"x":10,"y":0}}"#
        ]
        for layout in ["pager", "strip", "halves", "carousel", "featured"] {
            requests.append(#"{"layout":"\#(layout)","pagesFrom":"\#(url.path)","offset":{"x":40,"y":30}}"#)
        }
        let cache = LayoutCache()
        for request in requests {
            let cached = LayoutService.respond(toJSON: Data(request.utf8), cache: cache)
            let fresh = LayoutService.respond(toJSON: Data(request.utf8))
            #expect(!cached.isError, "\(cached.response.text)")
            #expect(cached.response == fresh.response, "\(request)")
        }
        #expect(cache.hits >= 6)  // the repeated page lists were reused
        // A rewritten layout.json is read again, not answered from the cache.
        try writeReport([3.0, 3.0, 3.0], to: url)
        let request = #"{"layout":"strip","pagesFrom":"\#(url.path)","offset":{"x":40,"y":30}}"#
        let cached = LayoutService.respond(toJSON: Data(request.utf8), cache: cache)
        #expect(cached.response == LayoutService.respond(toJSON: Data(request.utf8)).response)
        if case .object(let o) = cached.response {
            #expect(o["count"] == .number(3))
        } else {
            Issue.record("no object")
        }
    }
}
