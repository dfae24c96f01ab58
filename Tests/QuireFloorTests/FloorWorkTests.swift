import Foundation
import Testing
import VipsBridge
@testable import quire_floor
import QuireImageTestSupport
import QuireTestSupport

/// The floor must write the same pixels whichever way it derives them: its streaming strategy
/// crops in stored orientation and turns the crop upright, which has to equal turning the whole
/// frame upright and cropping it.
@Suite struct FloorWorkTests {
    /// A deterministic, asymmetric test image, so that any wrong turn or offset shows.
    static func pattern(width: Int, height: Int) throws -> VIPSImage {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                bytes[i] = UInt8((x * 7 + y) % 256)
                bytes[i + 1] = UInt8((y * 5) % 256)
                bytes[i + 2] = UInt8((x * y) % 251)
            }
        }
        return try VIPSImage.fromPixels(bytes, width: width, height: height, bands: 3)
    }

    @Test(arguments: [(1, 0), (3, 2), (6, 1), (8, 3)])
    func storedRectCropsTheSamePixelsAsCroppingTheUprightFrame(orientation: Int, clockwiseTurns: Int) throws {
        let stored = try Self.pattern(width: 40, height: 24)
        let upright = try stored.rotated(quarterTurns: clockwiseTurns)
        let region = (x: 3, y: 5, width: 11, height: 9)
        let s = try #require(
            FloorWork.storedRect(
                region, orientation: orientation,
                storedWidth: stored.width, storedHeight: stored.height))
        let viaStored = try stored.cropped(x: s.x, y: s.y, width: s.width, height: s.height)
            .rotated(quarterTurns: clockwiseTurns)
        let viaUpright = try upright.cropped(x: region.x, y: region.y, width: region.width, height: region.height)
        #expect(viaStored.width == region.width && viaStored.height == region.height)
        #expect(try viaStored.pixelBytes() == viaUpright.pixelBytes())
    }

    @Test func mirroredOrientationsTakeTheFullDecode() {
        for o in [2, 4, 5, 7] {
            #expect(FloorWork.storedRect((0, 0, 1, 1), orientation: o, storedWidth: 4, storedHeight: 4) == nil)
        }
    }

    @Test func pageRegionIsCentredAndClampedToTheFrame() {
        let work = FloorWork(
            output: "/nonexistent", previewSize: 1600, thumbSize: 256, save: .init(),
            strategy: .stream,
            pageSizes: ["a.jpg": [100, 50, 10, 10], "b.jpg": [500, 500], "c.jpg": [40, 20]])
        let a = work.pageRegion(for: "/x/a.jpg", width: 300, height: 200)
        #expect(a?.x == 0 && a?.y == 0 && a?.width == 100 && a?.height == 50)
        let b = work.pageRegion(for: "b.jpg", width: 300, height: 200)
        #expect(b?.x == 0 && b?.y == 0 && b?.width == 300 && b?.height == 200)
        let c = work.pageRegion(for: "c.jpg", width: 300, height: 200)
        #expect(c?.x == 130 && c?.y == 90)
        #expect(work.pageRegion(for: "unknown.jpg", width: 300, height: 200) == nil)
    }

    @Test func fitKeepsTheAspectAndNeverEnlarges() {
        #expect(FloorWork.fit(4000, 3000, inside: 1600) == (1600, 1200))
        #expect(FloorWork.fit(3000, 4000, inside: 256) == (192, 256))
        #expect(FloorWork.fit(100, 50, inside: 1600) == (100, 50))
    }

    /// End to end on the EXIF orientation examples: the streaming and the decode-then-crop
    /// strategies write the same page, preview and thumbnail pixels (skipped without the data).
    @Test func strategiesAgreeOnEXIFOrientedFiles() throws {
        let examples = TestSupport.realData.appendingPathComponent("exif-orientation-examples")
        guard FileManager.default.fileExists(atPath: examples.path) else { return }
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("floor-test-\(getpid())")
        defer { try? FileManager.default.removeItem(at: tmp) }
        for name in ["Landscape_1.jpg", "Landscape_3.jpg", "Landscape_6.jpg", "Landscape_8.jpg"] {
            let file = examples.appendingPathComponent(name).path
            let sizes = [name: [Double(300), 200, 350, 260]]
            var written: [QuireFloor.Strategy: [VIPSImage]] = [:]
            for strategy in [QuireFloor.Strategy.stream, .cascade] {
                let out = tmp.appendingPathComponent(strategy.rawValue).path
                for sub in ["pages", "previews", "thumbs"] {
                    try FileManager.default.createDirectory(atPath: "\(out)/\(sub)", withIntermediateDirectories: true)
                }
                let work = FloorWork(
                    output: out, previewSize: 160, thumbSize: 64,
                    save: .init(format: .png), strategy: strategy, pageSizes: sizes)
                try work.process(file, number: 1)
                written[strategy] = try ["pages", "previews", "thumbs"].map {
                    try VIPSImage.load(file: "\(out)/\($0)/0001.jpg")
                }
            }
            let a = try #require(written[.stream]), b = try #require(written[.cascade])
            #expect(a[0].width == 300 && a[0].height == 200, "\(name)")
            for (x, y) in zip(a, b) {
                #expect(x.width == y.width && x.height == y.height, "\(name)")
                #expect(try x.maxAbsoluteDifference(to: y) == 0, "\(name) \(x.width)x\(x.height)")
            }
        }
    }
}
