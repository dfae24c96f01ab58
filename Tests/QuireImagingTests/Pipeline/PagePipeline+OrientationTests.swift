import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// Every image of the EXIF orientation set (Tests/Fixtures/exif, the letter F stored in each of
/// the 8 orientations) comes out upright: same size and, pixel for pixel within a tolerance,
/// the same picture as the orientation-1 image. Checked for the page (full decode + autorotate)
/// and the thumbnail (libvips shrink-on-load, a separate code path).
@Suite struct OrientationTests {
    static let folder = TestSupport.repoRoot.appendingPathComponent("Tests/Fixtures/exif").path

    struct Rendered {
        var result: PageResult
        var paths: PageOutputPaths
    }

    func render(_ name: String, into out: String) throws -> Rendered {
        let stem = (name as NSString).deletingPathExtension
        let paths = PageOutputPaths(
            page: "\(out)/\(stem)-page.png", preview: "\(out)/\(stem)-preview.png",
            thumbnail: "\(out)/\(stem)-thumb.png")
        // PNG output so the comparison sees only the decoder and resampler, not re-encoding.
        let pipeline = PagePipeline(
            renditions: RenditionOptions(format: .png, previewSize: 200, thumbnailSize: 96),
            correction: CorrectionOptions(mode: .none))
        let result = try pipeline.process(PageSource(path: "\(Self.folder)/\(name)"), to: paths)[0]
        return Rendered(result: result, paths: paths)
    }

    @Test(arguments: ["Landscape", "Portrait"], 0...8)
    func comesOutUpright(kind: String, orientation: Int) throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let reference = try render("\(kind)_1.jpg", into: out)
        let rendered = try render("\(kind)_\(orientation).jpg", into: out)

        #expect(rendered.result.orientation == (orientation == 0 ? 1 : orientation))
        // The _0 files are the full-size originals (re-saving would rewrite their invalid tag),
        // four times the size of the others: compare them scaled down.
        let scale = orientation == 0 ? 4 : 1
        #expect(rendered.result.width == reference.result.width * scale)
        #expect(rendered.result.height == reference.result.height * scale)
        for (a, b) in [
            (rendered.paths.page, reference.paths.page), (rendered.paths.thumbnail, reference.paths.thumbnail),
            (rendered.paths.preview, reference.paths.preview)
        ] {
            var x = try VIPSImage.load(file: a)
            let y = try VIPSImage.load(file: b)
            // Same shape (portrait stays portrait), then the same size for the pixel comparison.
            try #require(
                (x.width > x.height) == (y.width > y.height),
                "\(a) is \(x.width)x\(x.height), \(b) is \(y.width)x\(y.height)")
            if x.width != y.width || x.height != y.height { x = try x.resized(toWidth: y.width, height: y.height) }
            // The _0 files are full size, the others downscaled copies: allow resampling noise.
            let difference = try x.meanAbsoluteDifference(to: y)
            #expect(difference < 12, "\(a) differs from \(b) by \(difference) on average")
        }
    }

    /// The check above can fail: a mirrored image is far from the upright one.
    @Test func mirroredPixelsAreFarFromUpright() throws {
        let upright = try VIPSImage.load(file: "\(Self.folder)/Landscape_1.jpg")
        let mirrored = try upright.flipped(horizontal: true)
        #expect(try mirrored.meanAbsoluteDifference(to: upright) > 30)
        let stored = try VIPSImage.load(file: "\(Self.folder)/Landscape_2.jpg")  // stored mirrored, tag 2
        #expect(stored.orientation == 2)
        #expect(try stored.meanAbsoluteDifference(to: upright) > 30)
    }
}
