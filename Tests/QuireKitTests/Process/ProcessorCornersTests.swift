import Foundation
import QuireImaging
import VipsBridge
import Testing
@testable import QuireKit

/// `--corners`: user-corrected corners replace detection for the pages they name.
@Suite struct ProcessorCornersTests {
    @Test func userCornersStraightenTheNamedPageOnly() throws {
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        try TestSupport.writeImage("\(dir)/a.png", width: 400, height: 300, format: .png)
        try TestSupport.writeImage("\(dir)/b.png", width: 400, height: 300, format: .png)
        // A 200 x 100 upright rectangle in a.png.
        let quad = Quad(rect: Rect(x: 50, y: 40, width: 200, height: 100))
        let corners = CornersFile(entries: ["a.png": quad])
        let summary = try Processor.run(ProcessJob(inputs: [dir], outputDirectory: out, corners: corners))
        let pages = summary.report.pages
        #expect(pages.count == 2)
        #expect(pages[0].correction == .perspective)
        #expect(pages[0].quad == quad.corners.map { [$0.x, $0.y] })
        #expect(pages[0].width == 200 && pages[0].height == 100)
        // b.png is a flat grey frame: nothing is found, so it is written whole.
        #expect(pages[1].width == 400 && pages[1].height == 300)
        #expect(pages[1].quad == nil)
    }

    @Test func cornersFileErrorsNameTheFile() {
        #expect(throws: CornersFileError.self) { try CornersFile(json: Array("{\"a.jpg\": [[0,0],[1,0]]}".utf8), file: "c.json") }
        do {
            _ = try CornersFile(contentsOf: "/nonexistent/corners.json")
            Issue.record("a missing corners file was read")
        } catch {
            #expect("\(error)".contains("/nonexistent/corners.json"))
        }
    }
}

/// `--masks`: a mask of the page region in the source for each page corrected from a quad.
@Suite struct ProcessorMasksTests {
    @Test func masksMarkTheQuadInTheSourceFrameAndAreListedInLayoutJSON() throws {
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        try TestSupport.writeImage("\(dir)/a.png", width: 400, height: 300, format: .png)
        try TestSupport.writeImage("\(dir)/b.png", width: 400, height: 300, format: .png)
        let quad = Quad(rect: Rect(x: 50, y: 40, width: 200, height: 100))
        let job = ProcessJob(inputs: [dir], outputDirectory: out, corners: CornersFile(entries: ["a.png": quad]), masks: true)
        let pages = try Processor.run(job).report.pages
        #expect(pages[0].files.mask == "masks/0001.png")
        #expect(pages[1].files.mask == nil) // no quad: no mask
        let mask = try VIPSImage.load(file: "\(out)/masks/0001.png")
        #expect(mask.width == 400 && mask.height == 300 && mask.bands == 1)
        let bytes = try mask.pixelBytes()
        #expect(bytes[100 * 400 + 150] == 255) // inside the quad
        #expect(bytes[10 * 400 + 10] == 0)     // outside
        #expect(bytes[200 * 400 + 350] == 0)
        // Without --masks the next run removes the stale mask.
        _ = try Processor.run(ProcessJob(inputs: [dir], outputDirectory: out, corners: CornersFile(entries: ["a.png": quad])))
        #expect(!FileManager.default.fileExists(atPath: "\(out)/masks/0001.png"))
    }
}
