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

    /// Corners far outside their image are that page's error (the batch goes on); corners
    /// inside the allowed margin that ask for a page over --max-pixels are refused before the
    /// page is made (they used to make a 1200 MP page, or trap converting to Int).
    @Test func cornersFarOutsideTheImageOrOverMaxPixelsFailOnlyTheirPage() throws {
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        for name in ["a.png", "b.png", "c.png"] {
            try TestSupport.writeImage("\(dir)/\(name)", width: 400, height: 300, format: .png)
        }
        let far = Quad(rect: Rect(x: 0, y: 0, width: 9_000_000, height: 9_000_000))
        // Within half the image's size outside it, but 590 x 440 = 259,600 px > 150,000.
        let wide = Quad(rect: Rect(x: 0, y: 0, width: 590, height: 440))
        let corners = CornersFile(entries: ["a.png": far, "b.png": wide])
        let summary = try Processor.run(
            ProcessJob(inputs: [dir], outputDirectory: out, maxPixels: 150_000, corners: corners))
        #expect(summary.report.pages.map(\.source) == ["c.png"])
        #expect(summary.report.errors.map(\.source) == ["a.png", "b.png"])
        #expect(summary.report.errors.map(\.code) == ["bad-corners", "too-large"])
        #expect(summary.report.errors.first?.message.contains("far outside the 400x300 image") == true)
        #expect(summary.report.errors.last?.message.contains("over --max-pixels") == true)
    }

    @Test func cornersFileErrorsNameTheFile() {
        #expect(throws: CornersFileError.self) {
            try CornersFile(json: Array("{\"a.jpg\": [[0,0],[1,0]]}".utf8), file: "c.json")
        }
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
        let job = ProcessJob(
            inputs: [dir], outputDirectory: out, corners: CornersFile(entries: ["a.png": quad]), masks: true)
        let pages = try Processor.run(job).report.pages
        #expect(pages[0].files.mask == "masks/0001.png")
        #expect(pages[1].files.mask == nil)  // no quad: no mask
        let mask = try VIPSImage.load(file: "\(out)/masks/0001.png")
        #expect(mask.width == 400 && mask.height == 300 && mask.bands == 1)
        let bytes = try mask.pixelBytes()
        #expect(bytes[100 * 400 + 150] == 255)  // inside the quad
        #expect(bytes[10 * 400 + 10] == 0)  // outside
        #expect(bytes[200 * 400 + 350] == 0)
        // Without --masks the next run removes the stale mask.
        _ = try Processor.run(
            ProcessJob(inputs: [dir], outputDirectory: out, corners: CornersFile(entries: ["a.png": quad])))
        #expect(!FileManager.default.fileExists(atPath: "\(out)/masks/0001.png"))
    }
}
