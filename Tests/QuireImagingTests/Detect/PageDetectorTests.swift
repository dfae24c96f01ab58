import Foundation
import Testing
@testable import QuireImaging
@testable import QuirePageAnalysis

@Suite struct PageDetectorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var degrees: Double, keystone: Double, aspect: Double, background: SyntheticPhoto.Background, landscape: Bool
        var testDescription: String { "\(degrees)° keystone \(keystone) aspect \(aspect) \(background)" }
    }

    static let cases: [Case] = [
        Case(degrees: 0, keystone: 0, aspect: 0.707, background: .texture, landscape: true),
        Case(degrees: 12, keystone: 0.1, aspect: 0.707, background: .texture, landscape: false),
        Case(degrees: -28, keystone: 0.15, aspect: 0.77, background: .clutter, landscape: true),
        Case(degrees: 20, keystone: 0.05, aspect: 0.38, background: .texture, landscape: false),  // receipt
        // landscape page, light desk
        Case(degrees: -8, keystone: 0.12, aspect: 1.41, background: .light, landscape: true),
        Case(degrees: 25, keystone: 0.0, aspect: 0.707, background: .light, landscape: false)
    ]

    @Test(arguments: cases)
    func findsTheDrawnPage(_ c: Case) throws {
        let (w, h) = c.landscape ? (800, 600) : (600, 800)
        let truth = SyntheticPhoto.quad(
            width: w, height: h, pageAspect: c.aspect, degrees: c.degrees, keystone: c.keystone)
        let photo = SyntheticPhoto(width: w, height: h, quad: truth, pageAspect: c.aspect, background: c.background)
        let found = Detector.detect(pixels: photo.pixels, width: w, height: h, bands: 3)
        let quad = try #require(found.quad)
        #expect(quad.intersectionOverUnion(with: truth) >= 0.95)
        #expect(quad.worstCornerDistance(to: truth) < 4)
        #expect(found.confidence >= 0.5 && found.confidence <= 1)
    }

    @Test func blankImageHasNoQuad() {
        let pixels = [UInt8](repeating: 128, count: 640 * 480 * 3)
        let found = Detector.detect(pixels: pixels, width: 640, height: 480, bands: 3)
        #expect(found.quad == nil)
        #expect(found.confidence < 0.5)
    }

    @Test func noiseHasNoQuad() {
        var random = SyntheticPhoto.Random(state: 99)
        let pixels = (0..<(640 * 480)).map { _ in UInt8(truncatingIfNeeded: random.next() % 256) }
        let found = Detector.detect(pixels: pixels, width: 640, height: 480, bands: 1)
        #expect(found.quad == nil)
    }

    @Test func greyInputWorks() throws {
        let truth = SyntheticPhoto.quad(width: 640, height: 480, pageAspect: 0.707, degrees: 10, keystone: 0.08)
        let photo = SyntheticPhoto(width: 640, height: 480, quad: truth, pageAspect: 0.707, background: .texture)
        var grey = [UInt8](repeating: 0, count: 640 * 480)
        for i in grey.indices { grey[i] = photo.pixels[i * 3 + 1] }
        let quad = try #require(Detector.detect(pixels: grey, width: 640, height: 480, bands: 1).quad)
        #expect(quad.intersectionOverUnion(with: truth) >= 0.95)
    }

    @Test func cornersComeInReadingOrder() {
        let q = Quad(
            topLeft: Point(x: 10, y: 0), topRight: Point(x: 100, y: 20),
            bottomRight: Point(x: 90, y: 150), bottomLeft: Point(x: 0, y: 130))
        let shuffled = Quad(
            topLeft: q.bottomRight, topRight: q.topLeft, bottomRight: q.bottomLeft, bottomLeft: q.topRight)
        #expect(shuffled.readingOrdered() == q)
    }
}
