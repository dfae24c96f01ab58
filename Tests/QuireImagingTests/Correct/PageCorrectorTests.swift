import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// The repository's ../shared/data/synthetic, when it is there.
enum SharedData {
    static let synthetic: String = TestSupport.sharedData.appendingPathComponent("synthetic").path
    static var available: Bool { FileManager.default.fileExists(atPath: synthetic + "/captures/truth.json") }

    static func truth(_ set: String) throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(synthetic)/\(set)/truth.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] ?? [:]
    }
}

@Suite struct PageCorrectorTests {
    func photoImage() throws -> (VIPSImage, Quad) {
        let quad = SyntheticPhoto.quad(width: 800, height: 600, pageAspect: 0.707, degrees: 15, keystone: 0.1)
        let photo = SyntheticPhoto(width: 800, height: 600, quad: quad, pageAspect: 0.707, background: .texture)
        return (try VIPSImage.fromPixels(photo.pixels, width: 800, height: 600, bands: 3), quad)
    }

    @Test func modeNonePassesThrough() throws {
        let (image, _) = try photoImage()
        let (out, record) = try PageCorrector(options: .init(mode: .none)).correct(image, userQuad: nil)
        #expect(try out.maxAbsoluteDifference(to: image) == 0)
        #expect(record == CorrectionRecord(kind: .none))
    }

    @Test func detectsAndStraightensAPhoto() throws {
        let (image, truth) = try photoImage()
        let (out, record) = try PageCorrector(options: .init()).correct(image, userQuad: nil)
        #expect(record.kind == .perspective)
        let quad = try #require(record.quad)
        #expect(quad.intersectionOverUnion(with: truth) > 0.95)
        // Output follows the page's shape (keystone makes the estimate inexact).
        #expect(abs(Double(out.width) / Double(out.height) - 0.707) < 0.08)
        // The straightened page is paper: its border rows are bright, nothing of the desk left.
        let bytes = try out.pixelBytes()
        let w = out.width
        var dark = 0
        for x in stride(from: 5, to: w - 5, by: 7) where bytes[(3 * w + x) * 3] < 200 { dark += 1 }
        #expect(dark == 0)
    }

    @Test func userCornersWinAndPaperSetsTheShape() throws {
        let (image, truth) = try photoImage()
        let corrector = PageCorrector(options: .init(paper: .letter))
        let (out, record) = try corrector.correct(image, userQuad: truth)
        #expect(record.kind == .perspective && record.quad == truth && record.quadConfidence == 1)
        #expect(abs(Double(out.width) / Double(out.height) - 8.5 / 11) < 0.003)
    }

    @Test func plainFrameIsKept() throws {
        var random = SyntheticPhoto.Random(state: 5)
        let pixels = (0..<(400 * 300 * 3)).map { _ in UInt8(truncatingIfNeeded: 60 + random.next() % 120) }
        let image = try VIPSImage.fromPixels(pixels, width: 400, height: 300, bands: 3)
        let (out, record) = try PageCorrector(options: .init()).correct(image, userQuad: nil)
        #expect(record.kind == .none && record.quad == nil)
        #expect(try out.maxAbsoluteDifference(to: image) == 0)
    }

    /// A scanned page with a picture box: the box is an exact rectangle, but the page around it
    /// is flat paper, so this is a scan to deskew, not a photo to crop to the box.
    @Test func boxOnAScannedPageIsNotAPhoto() throws {
        let (w, h) = (620, 877)
        var pixels = [UInt8](repeating: 250, count: w * h * 3)
        for y in 400..<520 {
            for x in 60..<560 { for c in 0..<3 { pixels[(y * w + x) * 3 + c] = UInt8((x * 7 + y * 3 + c * 50) % 200) } }
        }
        for row in 0..<10 {
            for y in (80 + row * 24)..<(90 + row * 24) {
                for x in 60..<540 where (x / 40) % 4 != 3 {
                    for c in 0..<3 { pixels[(y * w + x) * 3 + c] = 30 }
                }
            }
        }
        let image = try VIPSImage.fromPixels(pixels, width: w, height: h, bands: 3)
        let (_, record) = try PageCorrector(options: .init()).correct(image, userQuad: nil)
        #expect(record.kind == .deskew)
        #expect(record.quad == nil)
    }

    /// A deskewed scan comes back with its pixels in memory: a lazy view would re-run the
    /// rotation for the orientation copy, the clean-up, the preview and the page encode each.
    @Test func aDeskewedScanIsComputedOnce() throws {
        let (w, h) = (620, 877)
        var pixels = [UInt8](repeating: 250, count: w * h)
        for row in 0..<24 {
            for y in (80 + row * 28)..<(88 + row * 28) {
                for x in 60..<540 where (x / 40) % 4 != 3 {
                    pixels[y * w + x] = 30
                }
            }
        }
        let straight = try VIPSImage.fromPixels(pixels, width: w, height: h, bands: 1)
        let skewed = try straight.rotated(degrees: 3, background: [250]).materialized()
        for detector in [nil, TextOrientationTests.Fixed(OrientationGuess(rotate: 90, confidence: 20))]
            as [(any OrientationDetector)?]
        {
            let (page, record) = try PageCorrector(options: .init(), orientation: .some(detector)).correct(
                skewed, userQuad: nil)
            #expect(record.kind == .deskew && abs(record.skewDegrees ?? 0) > 1, "\(record)")
            #expect(page.isInMemory, "turned \(record.rotation): the page is still a lazy view")
        }
    }

    @Test(.enabled(if: SharedData.available))
    func sharedCapturesMeetTheAccuracyTarget() throws {
        let truth = try SharedData.truth("captures")
        var ious: [Double] = []
        for (name, entry) in truth.sorted(by: { $0.key < $1.key }) {
            let corners = try #require(entry["corners"] as? [[Double]])
            let t = Quad(corners: corners.map { Point(x: $0[0], y: $0[1]) })!
            let r = try Detector.detect(file: "\(SharedData.synthetic)/captures/\(name)")
            #expect(r.skewDegrees == nil, "\(name) taken for a scan")
            let used = r.quad ?? Quad(rect: Rect(x: 0, y: 0, width: Double(r.width), height: Double(r.height)))
            ious.append(t.intersectionOverUnion(with: used))
        }
        let mean = ious.reduce(0, +) / Double(ious.count)
        let share = Double(ious.filter { $0 >= 0.9 }.count) / Double(ious.count)
        #expect(mean >= 0.98)
        #expect(share >= 0.97)
    }

    @Test(.enabled(if: SharedData.available))
    func sharedScansTakeTheDeskewBranch() throws {
        let truth = try SharedData.truth("scans")
        for name in truth.keys.sorted() {
            let source = PageSource(path: "\(SharedData.synthetic)/scans/\(name)")
            let frame = try PageDecoder(maxPixels: .max).decodeFrame(source)
            let (_, record) = try PageCorrector(options: .init()).correct(frame, userQuad: nil)
            #expect(record.kind == .deskew, "\(name)")
        }
    }

    @Test(.enabled(if: SharedData.available))
    func sharedCaptureIsStraightenedAtFullSize() throws {
        let path = "\(SharedData.synthetic)/captures/cap_003.jpg"  // stored with EXIF orientation 8
        let truth = try SharedData.truth("captures")["cap_003.jpg"]!
        let corners = (truth["corners"] as! [[Double]]).map { Point(x: $0[0], y: $0[1]) }
        let frame = try PageDecoder(maxPixels: .max).decodeFrame(PageSource(path: path))
        let (out, record) = try PageCorrector(options: .init()).correct(frame, userQuad: nil)
        #expect(record.kind == .perspective)
        #expect(try #require(record.quad).intersectionOverUnion(with: Quad(corners: corners)!) > 0.98)
        #expect(out.height > out.width)
    }
}
