import Testing
import VipsBridge
@testable import QuireImaging

/// A page kept whole, turned upright and only then found (`PageCorrector.orient`) reports its
/// quad in the source frame, as layout.json promises: the review draws it on the source's
/// capture and `--corrections` replays it there (corners alone, warped from the source).
@Suite struct PageCorrectorOrientQuadTests {
    /// Always says "turn `rotate` degrees", surely.
    struct Sure: OrientationDetector {
        var rotate: Int
        func guess(_ page: VIPSImage) throws -> OrientationGuess? {
            OrientationGuess(rotate: rotate, confidence: 20, scriptConfidence: 5)
        }
    }

    /// A photographed page on a textured desk (its header rows make top and bottom differ).
    static func photo() throws -> VIPSImage {
        let quad = SyntheticPhoto.quad(width: 800, height: 600, pageAspect: 0.707, degrees: 12, keystone: 0.08)
        let photo = SyntheticPhoto(width: 800, height: 600, quad: quad, pageAspect: 0.707, background: .texture)
        return try VIPSImage.fromPixels(photo.pixels, width: 800, height: 600, bands: 3)
    }

    /// Mean absolute difference of two pages shrunk to the same small size (0-255).
    static func meanDifference(_ a: VIPSImage, _ b: VIPSImage) throws -> Double {
        let (w, h) = (48, 64)
        let x = try a.resized(toWidth: w, height: h).pixelBytes()
        let y = try b.resized(toWidth: w, height: h).pixelBytes()
        #expect(x.count == y.count)
        return Double(zip(x, y).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(x.count, 1))
    }

    @Test(arguments: [90, 180, 270])
    func theQuadWarpedFromTheSourceGivesThePage(turn: Int) throws {
        let source = try Self.photo()
        let corrector = PageCorrector(options: CorrectionOptions(), orientation: .some(Sure(rotate: turn)))
        let (turned, _) = try corrector.orient(source)
        let (page, record) = try #require(turned)
        #expect(record.kind == .perspective && record.rotation == turn)
        let quad = try #require(record.quad)
        // Inside the source frame (the turned frame of a quarter turn is 600 x 800).
        for c in quad.corners {
            #expect((-1...801).contains(c.x) && (-1...601).contains(c.y), "\(c) outside 800 x 600")
        }
        // Replayed as `--corrections` does (corners alone, no turn of its own): the same page.
        let replay = PageCorrector(options: CorrectionOptions(rotate: .none), orientation: .some(nil))
        let (again, _) = try replay.correct(source, userQuad: quad)
        #expect(abs(again.width - page.width) <= 2 && abs(again.height - page.height) <= 2)
        let difference = try Self.meanDifference(again, page)
        #expect(difference < 6, "mean difference \(difference)")
    }
}
