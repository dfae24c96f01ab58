import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// `--thumbnails-only` JPEGs go through `JPEGDraft` (libjpeg at 1/8, Resampler, then the EXIF
/// orientation). Measured against the ideal thumbnail (the full-size decode, upright, shrunk
/// with Lanczos3), it must be as close as libvips's shrink-on-load thumbnail is, for every
/// orientation, colour model and broken file, or decline and leave the file to libvips.
@Suite struct JPEGDraftTests {
    static let pipeline = PagePipeline(renditions: RenditionOptions(format: .png, thumbnailSize: 96))

    /// The thumbnail libvips makes of the same file (the path this one replaces for JPEGs).
    static func libvipsThumbnail(_ path: String, pipeline: PagePipeline = pipeline) throws -> VIPSImage {
        let header = try PageDecoder(maxPixels: .max).decode(PageSource(path: path))
        return try pipeline.thumbnail(of: header.image, source: PageSource(path: path), format: .jpeg, corrected: false)
    }

    /// How far apart two thumbnails are on average; libvips may round a side one pixel the
    /// other way (its size comes from the shrunk image, ours from the header), so `b` is
    /// brought to the size of `a` when they differ by that.
    static func difference(_ a: VIPSImage, _ b: VIPSImage, _ label: String) throws -> Double {
        try #require(
            a.bands == b.bands && abs(a.width - b.width) <= 1 && abs(a.height - b.height) <= 1,
            "\(label): \(a.width)x\(a.height)x\(a.bands) vs \(b.width)x\(b.height)x\(b.bands)")
        let c = (a.width, a.height) == (b.width, b.height) ? b : try b.resized(toWidth: a.width, height: a.height)
        return try a.meanAbsoluteDifference(to: c)
    }

    /// The ideal thumbnail of `size`: the full-size decode, upright, shrunk with Lanczos3.
    static func ideal(_ path: String, like size: VIPSImage) throws -> VIPSImage {
        let full = try PageDecoder(maxPixels: .max).decode(PageSource(path: path)).image.materialized()
        return try full.resampled(toWidth: size.width, height: size.height)
    }

    static func draftThumbnail(_ path: String, pipeline: PagePipeline = pipeline) throws -> VIPSImage? {
        let header = try PageDecoder(maxPixels: .max).decode(PageSource(path: path))
        return try pipeline.draftThumbnail(of: header, source: PageSource(path: path))
    }

    @Test func shrinkIsTheLargestThatStillCoversTheThumbnail() {
        #expect(JPEGDraft.shrink(storedWidth: 3900, storedHeight: 2600, covering: (256, 171)) == 8)  // 488 x 325
        // 384 x 257: 1.5 x exactly
        #expect(JPEGDraft.shrink(storedWidth: 3072, storedHeight: 2056, covering: (256, 171)) == 8)
        #expect(JPEGDraft.shrink(storedWidth: 3064, storedHeight: 2056, covering: (256, 171)) == 4)  // 383 is short
        #expect(JPEGDraft.shrink(storedWidth: 2048, storedHeight: 1366, covering: (256, 171)) == 4)
        #expect(JPEGDraft.shrink(storedWidth: 1200, storedHeight: 800, covering: (256, 171)) == 2)
        #expect(JPEGDraft.shrink(storedWidth: 600, storedHeight: 400, covering: (256, 171)) == 1)
        #expect(JPEGDraft.shrink(storedWidth: 90, storedHeight: 60, covering: (90, 60)) == 1)
        #expect(JPEGDraft.shrink(storedWidth: 60, storedHeight: 4000, covering: (4, 256)) == 8)
    }

    @Test(arguments: [(1600, 1200, 3), (1203, 797, 3), (700, 1500, 1), (1500, 2203, 1)])
    func matchesLibvipsShrinkOnLoad(_ c: (width: Int, height: Int, bands: Int)) throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/card.jpg"
        try TestSupport.card(width: c.width, height: c.height, bands: c.bands).save(to: path)
        let draft = try #require(try Self.draftThumbnail(path))
        let reference = try Self.libvipsThumbnail(path)
        #expect(draft.bands == c.bands, "grey stays grey, colour stays colour")
        #expect((draft.width, draft.height) == (reference.width, reference.height))
        let error = try draft.meanAbsoluteDifference(to: Self.ideal(path, like: draft))
        let libvipsError = try Self.difference(Self.ideal(path, like: draft), reference, "\(c)")
        #expect(error <= max(1, libvipsError), "\(c): \(error) from the ideal, libvips \(libvipsError)")
    }

    /// The comparison above can fail: a thumbnail of another picture is far from it.
    @Test func aDifferentPictureIsFarFromTheReference() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TestSupport.card(width: 1600, height: 1200).save(to: "\(dir)/a.jpg")
        try TestSupport.card(width: 1600, height: 1200).flipped(horizontal: true).save(to: "\(dir)/b.jpg")
        let a = try #require(try Self.draftThumbnail("\(dir)/a.jpg"))
        #expect(try a.meanAbsoluteDifference(to: Self.libvipsThumbnail("\(dir)/b.jpg")) > 20)
    }

    /// The EXIF set (the letter F stored in all 8 orientations): upright, like libvips's autorot.
    @Test(arguments: ["Landscape", "Portrait"], 1...8)
    func everyOrientationComesOutLikeLibvips(kind: String, orientation: Int) throws {
        let path = TestSupport.repoRoot.appendingPathComponent("Tests/Fixtures/exif/\(kind)_\(orientation).jpg").path
        // 450 x 300 pictures: a 64-pixel thumbnail decodes them at 1/4.
        let small = PagePipeline(renditions: RenditionOptions(format: .png, thumbnailSize: 64))
        let draft = try #require(try Self.draftThumbnail(path, pipeline: small))
        let reference = try Self.libvipsThumbnail(path, pipeline: small)
        try #require((draft.width, draft.height) == (reference.width, reference.height))
        let error = try draft.meanAbsoluteDifference(to: Self.ideal(path, like: draft))
        let libvipsError = try Self.difference(Self.ideal(path, like: draft), reference, "\(kind)_\(orientation)")
        #expect(
            error <= max(1, libvipsError), "\(kind)_\(orientation): \(error) from the ideal, libvips \(libvipsError)")
        if orientation != 1 {
            // The letter F is not symmetric: the unturned stored pixels are far from upright.
            let wrong = try (draft.applyingEXIFOrientation(orientation == 2 ? 2 : 3))
            if (wrong.width, wrong.height) == (reference.width, reference.height) {
                #expect(try wrong.meanAbsoluteDifference(to: reference) > 10)
            }
        }
    }

    @Test func aTruncatedFileIsRefusedNamingTheFile() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/cut.jpg"
        try TestSupport.writeTruncatedJPEG(path, width: 1600, height: 1200, fraction: 0.5)
        #expect(throws: (any Error).self) { try VIPSImage.jpegScaled(file: path, shrink: 8) }
        let thumb = "\(dir)/thumb.png"
        #expect { try Self.pipeline.processThumbnailOnly(PageSource(path: path), to: thumb) } throws: {
            ($0 as? ImagingError)?.kind == .truncated && "\($0)".contains(path)
        }
        #expect(!FileManager.default.fileExists(atPath: thumb))
    }

    /// Pictures that would decode at 1/2 decode at full size instead: the ideal thumbnail.
    @Test func smallPicturesDecodeAtFullSize() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try TestSupport.card(width: 500, height: 400).save(to: "\(dir)/small.jpg")
        let small = try #require(try Self.draftThumbnail("\(dir)/small.jpg"))
        #expect(try small.meanAbsoluteDifference(to: Self.ideal("\(dir)/small.jpg", like: small)) == 0)
        // 150 x 113 at 1/4 >= 1.5 x 96 x 72
        try TestSupport.card(width: 600, height: 450).save(to: "\(dir)/quarter.jpg")
        let quarter = try #require(try Self.draftThumbnail("\(dir)/quarter.jpg"))
        #expect(
            try quarter.meanAbsoluteDifference(to: Self.ideal("\(dir)/quarter.jpg", like: quarter)) > 0,
            "decoded at 1/4, not full size")
    }

    @Test func notAJPEGThrows() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("not a jpeg at all".utf8).write(to: URL(fileURLWithPath: "\(dir)/x.jpg"))
        #expect(throws: (any Error).self) { try VIPSImage.jpegScaled(file: "\(dir)/x.jpg", shrink: 8) }
        #expect(throws: (any Error).self) { try VIPSImage.jpegScaled(file: "\(dir)/missing.jpg", shrink: 8) }
    }

    // MARK: Shared data: every JPEG of other projects' test suites, odd and hostile ones included

    /// Same outcome as the libvips path for each file: both refuse it, or both give a thumbnail,
    /// ours as close to the ideal as libvips's (CMYK files are declined, so identical).
    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: TestSupport.realData.path), "../shared/data/real is absent")
    )
    func realJPEGsGiveTheLibvipsThumbnail() throws {
        let files = TestSupport.realJPEGs()
        try #require(files.count > 20)
        var compared = 0, differences: [Double] = []
        for path in files {
            let name = String(path.dropFirst(TestSupport.realData.path.count + 1))
            guard let header = try? PageDecoder(maxPixels: 100_000_000).decode(PageSource(path: path)),
                header.format == .jpeg
            else { continue }
            let reference = try? Self.pipeline.thumbnail(
                of: header.image, source: PageSource(path: path),
                format: .jpeg, corrected: false
            ).materialized()
            let draft = try? Self.pipeline.draftThumbnail(of: header, source: PageSource(path: path))
            guard let draft else { continue }  // declined: the libvips path handles it
            guard let reference else {
                Issue.record("\(name): the draft decoded a file libvips refuses")
                continue
            }
            let ideal = try Self.ideal(path, like: draft)
            let error = try draft.meanAbsoluteDifference(to: ideal)
            let libvipsError = try Self.difference(ideal, reference, name)
            #expect(error <= max(1.5, libvipsError + 0.5), "\(name): \(error) from the ideal, libvips \(libvipsError)")
            differences.append(error)
            compared += 1
        }
        #expect(compared > 20)
        let mean = differences.reduce(0, +) / Double(max(1, differences.count))
        #expect(mean < 2, "mean error \(mean) over \(compared) files")
        print(
            "JPEGDraft: \(compared) of \(files.count) real JPEGs compared, mean error from the ideal \(mean), max \(differences.max() ?? 0)"
        )
    }
}
