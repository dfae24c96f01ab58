import Foundation
import Testing
@testable import VipsBridge

/// At 1/8 scale `jpegScaled` decodes plain JPEGs through the shim's skipper (it walks past the
/// AC coefficients a one-pixel block does not need). Its pixels must be exactly those of
/// libjpeg's own decoder, and whatever it does not take (other scales, corrupt or truncated
/// data, restart markers out of sequence) must come out as libjpeg alone makes it.
@Suite struct JPEGSkipTests {
    /// A picture busy enough to need long AC runs and big values in every block: edges,
    /// gradients and a seeded noise, in `bands` bands.
    static func busy(width: Int, height: Int, bands: Int) throws -> VIPSImage {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes = [UInt8](repeating: 0, count: width * height * bands)
        for y in 0..<height {
            for x in 0..<width {
                for b in 0..<bands {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let noise = Int(state >> 59)
                    let v = (x * (3 + b) + y * (5 - b)) ^ (x / 7 * 31) ^ (y / 5 * 17)
                    bytes[(y * width + x) * bands + b] = UInt8(truncatingIfNeeded: v + noise)
                }
            }
        }
        return try VIPSImage.fromPixels(bytes, width: width, height: height, bands: bands)
    }

    static func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "quire-jpegskip-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The file decoded both ways: (skipper's pixels, whether it decoded them, libjpeg's),
    /// or the errors each threw.
    static func both(_ path: String, shrink: Int = 8) -> (
        skipping: Result<([UInt8], Bool)?, any Error>, libjpeg: Result<[UInt8]?, any Error>
    ) {
        let skipping = Result {
            try VIPSImage.jpegScaled(file: path, shrink: shrink, skipping: true).map {
                (try $0.image.pixelBytes(), $0.skipped)
            }
        }
        let libjpeg = Result {
            try VIPSImage.jpegScaled(file: path, shrink: shrink, skipping: false)?.image.pixelBytes()
        }
        return (skipping, libjpeg)
    }

    @Test(arguments: [
        (width: 1203, height: 797, bands: 3, quality: 85, optimize: false),  // 4:2:0, partial MCUs
        (width: 800, height: 640, bands: 3, quality: 95, optimize: false),  // 4:4:4 from quality 90
        (width: 640, height: 480, bands: 3, quality: 100, optimize: false),  // the biggest values
        (width: 700, height: 500, bands: 3, quality: 85, optimize: true),  // the file's own tables
        (width: 999, height: 601, bands: 1, quality: 75, optimize: false)  // grey
    ])
    func plainFilesGiveLibjpegsPixels(
        _ c: (width: Int, height: Int, bands: Int, quality: Int, optimize: Bool)
    ) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = "\(dir)/busy.jpg"
        try Self.busy(width: c.width, height: c.height, bands: c.bands).save(
            to: path, options: .init(format: .jpeg, quality: c.quality, optimizeCoding: c.optimize))
        let (skipping, libjpeg) = Self.both(path)
        let (pixels, skipped) = try #require(try skipping.get())
        #expect(skipped, "\(c): a plain file at 1/8 goes through the skipper")
        let same = try pixels == libjpeg.get()  // a Bool: a failure need not print the pixels
        #expect(same, "\(c): the skipper's pixels are libjpeg's")
        #expect(pixels.count == (c.width + 7) / 8 * ((c.height + 7) / 8) * c.bands)
    }

    /// The comparison above can fail: another picture's pixels differ.
    @Test func anotherPictureDiffers() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.busy(width: 640, height: 480, bands: 3).save(to: "\(dir)/a.jpg", options: .init(format: .jpeg))
        try Self.busy(width: 640, height: 480, bands: 3).flipped(horizontal: true).save(
            to: "\(dir)/b.jpg", options: .init(format: .jpeg))
        let a = try #require(try VIPSImage.jpegScaled(file: "\(dir)/a.jpg", shrink: 8, skipping: true))
        let b = try #require(try VIPSImage.jpegScaled(file: "\(dir)/b.jpg", shrink: 8, skipping: false))
        let same = try a.image.pixelBytes() == b.image.pixelBytes()
        #expect(!same)
    }

    /// Only 1/8 is skipped: at 1/4 every block is transformed from its coefficients.
    @Test func otherScalesAreLibjpegsAlone() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.busy(width: 640, height: 480, bands: 3).save(to: "\(dir)/a.jpg", options: .init(format: .jpeg))
        let quarter = try #require(try VIPSImage.jpegScaled(file: "\(dir)/a.jpg", shrink: 4, skipping: true))
        #expect(!quarter.skipped)
    }

    /// Restart markers (cameras and some phones write them): followed, the DC predictions
    /// starting again after each; a marker out of sequence is left to libjpeg's resync.
    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/vips"), "the vips CLI writes the file"),
        arguments: [1, 3, 64]
    )
    func restartIntervalsAreFollowed(interval: Int) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.busy(width: 1203, height: 797, bands: 3).save(to: "\(dir)/a.jpg", options: .init(format: .jpeg))
        let vips = Process()
        vips.executableURL = URL(fileURLWithPath: "/usr/bin/vips")
        vips.arguments = ["jpegsave", "\(dir)/a.jpg", "\(dir)/rst.jpg", "--restart-interval", "\(interval)"]
        try vips.run()
        vips.waitUntilExit()
        var data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(dir)/rst.jpg")))
        #expect(data.indices.dropLast().contains { data[$0] == 0xFF && data[$0 + 1] == 0xDD }, "a DRI segment")
        let (skipping, libjpeg) = Self.both("\(dir)/rst.jpg")
        let (pixels, skipped) = try #require(try skipping.get())
        #expect(skipped)
        let same = try pixels == libjpeg.get()
        #expect(same, "interval \(interval): the skipper's pixels are libjpeg's")
        // RST1 (the second marker) renamed RST5: out of sequence.
        let second = try #require(data.indices.dropLast().first { data[$0] == 0xFF && data[$0 + 1] == 0xD1 })
        data[second + 1] = 0xD5
        try Data(data).write(to: URL(fileURLWithPath: "\(dir)/wrong.jpg"))
        let (wrongSkipping, wrongLibjpeg) = Self.both("\(dir)/wrong.jpg")
        let wrong = try #require(try wrongSkipping.get())
        #expect(!wrong.1, "interval \(interval): gave up at the wrong marker")
        let wrongSame = try wrong.0 == wrongLibjpeg.get()
        #expect(wrongSame)
    }

    /// Corrupt entropy data (bytes overwritten) and truncated files: the same pixels as libjpeg
    /// alone, or the same refusal; the skipper gives up on some of them and libjpeg decodes
    /// those again from the start.
    @Test func brokenFilesComeOutAsLibjpegAloneMakesThem() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.busy(width: 800, height: 600, bands: 3).save(to: "\(dir)/a.jpg", options: .init(format: .jpeg))
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(dir)/a.jpg")))
        var state: UInt64 = 7
        var gaveUp = 0
        for trial in 0..<24 {
            var data = good
            if trial < 20 {
                for _ in 0..<3 {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let at = 1000 + Int(state >> 33) % (good.count - 1000)
                    data[at] = UInt8(truncatingIfNeeded: state >> 13)
                }
            } else {
                data = Array(good.prefix(good.count * (trial - 19) / 5))
            }
            let path = "\(dir)/broken\(trial).jpg"
            try Data(data).write(to: URL(fileURLWithPath: path))
            let (skipping, libjpeg) = Self.both(path)
            switch (skipping, libjpeg) {
            case (.success(let s), .success(let l)):
                let same = s?.0 == l
                #expect(same, "trial \(trial): the pixels differ from libjpeg's")
                if s?.1 == false { gaveUp += 1 }
            case (.failure, .failure):
                gaveUp += 1
            default:
                Issue.record("trial \(trial): one decoder refused what the other decoded")
            }
        }
        #expect(gaveUp > 0, "no trial reached the fallback")
    }

    /// A file cut short in its last bytes may still hold every block. The skipper tops its bits
    /// up at other moments than libjpeg, so one of them can run out of data where the other
    /// finished (found by `make fuzz-jpeg`): every such cut must come out as libjpeg alone
    /// makes it, the same pixels or the same refusal.
    @Test func cutsJustBeforeTheEndComeOutAsLibjpegAloneMakesThem() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var mismatches: [Int] = []
        let sizes: [(width: Int, height: Int, bands: Int)] = [
            (57, 33, 1), (40, 24, 1), (96, 64, 3), (61, 47, 3), (130, 90, 3)
        ]
        for (n, size) in sizes.enumerated() {
            let whole = "\(dir)/whole\(n).jpg"
            try Self.busy(width: size.width, height: size.height, bands: size.bands)
                .save(to: whole, options: .init(format: .jpeg))
            let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: whole)))
            for cut in 2...24 {
                let path = "\(dir)/cut\(n)-\(cut).jpg"
                try Data(good.dropLast(cut)).write(to: URL(fileURLWithPath: path))
                switch Self.both(path) {
                case (.success(let s), .success(let l)) where s?.0 == l: break
                case (.failure, .failure): break
                default: mismatches.append(n * 100 + cut)
                }
            }
        }
        #expect(mismatches.isEmpty, "picture * 100 + bytes cut: \(mismatches)")
    }

    /// The skipper replaces an object of libjpeg's private jpegint.h, so it runs only with the
    /// libjpeg-turbo family it was compiled against (2.x); this machine's build and runtime
    /// library are Debian's 2.1.5, so it must be available here (the tests above rely on it).
    @Test func skipperStepsAsideForAnotherLibjpeg() {
        #expect(VIPSImage.jpegSkipperAvailable)
        #expect(VIPSImage.jpegSkipperFits(builtVersion: 2_001_005, runtimeHas3xAPI: false))
        #expect(VIPSImage.jpegSkipperFits(builtVersion: 2_000_001, runtimeHas3xAPI: false))
        // Built against 2.1.5, run with libjpeg-turbo 3 (lossless decoders behind the same slot).
        #expect(!VIPSImage.jpegSkipperFits(builtVersion: 2_001_005, runtimeHas3xAPI: true))
        // Built against 3.x, 1.5 or a libjpeg that is not libjpeg-turbo (0).
        #expect(!VIPSImage.jpegSkipperFits(builtVersion: 3_000_004, runtimeHas3xAPI: false))
        #expect(!VIPSImage.jpegSkipperFits(builtVersion: 3_001_000, runtimeHas3xAPI: true))
        #expect(!VIPSImage.jpegSkipperFits(builtVersion: 1_005_003, runtimeHas3xAPI: false))
        #expect(!VIPSImage.jpegSkipperFits(builtVersion: 0, runtimeHas3xAPI: false))
    }
}
