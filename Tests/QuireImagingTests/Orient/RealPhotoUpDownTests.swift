import Foundation
import Testing
import TesseractBridge
import VipsBridge
@testable import QuireImaging

/// Leptonica's up/down reading at its fitted bar (`TesseractOSD.minimumUpDown`, 4): a
/// handwritten notebook page (`hwocr_page04.jpg`, upright as photographed) turned 270 was
/// turned 270 more by Tesseract's whole-page fallback (at 2.08 in orientation.py's run, 2.55 as
/// written here: the one wrong turn of the real photos turned four ways); the look is sure of
/// its axis, its edge margin 0.05 and leptonica's reading 7.6 agree on the right way, and at
/// the bar of 8 that reading was not enough.
@Suite struct RealPhotoUpDownTests {
    @Test(arguments: [0, 3]) func aHandwrittenPageTurnedComesOutUpright(_ turns: Int) throws {
        guard TesseractOSD.installed != nil else { return }
        let photo = TestSupport.repoRoot.appendingPathComponent("Tools/accuracy/real-photos/hwocr_page04.jpg").path
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Written as JPEG, as `Tools/accuracy/orientation.py` writes its turned copies (`vips rot`):
        // Tesseract's readings of the page depend on those pixels.
        let path = dir + "/turned.jpg"
        try VIPSImage.load(file: photo).autorotated().rotated(quarterTurns: turns).save(
            to: path, options: .init(format: .jpeg))
        let pipeline = PagePipeline(renditions: RenditionOptions(format: .png, previewSize: 1000, thumbnailSize: 64))
        let paths = PageOutputPaths(page: dir + "/p.png", preview: dir + "/p-p.png", thumbnail: dir + "/p-t.png")
        let result = try #require(try pipeline.process(PageSource(path: path), to: paths).first)
        #expect(
            result.correction.rotation == (4 - turns) % 4 * 90,
            "turned \(result.correction.rotation), confidence \(result.correction.rotationConfidence ?? -1)")
    }
}
