import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// Captures decoded to their YCbCr planes (`YCbCrFrame`): what the planes stand for is the
/// image libjpeg (and so libvips) decodes, the warp and the detection copy read them like the
/// RGB frame, and released rows go back to the kernel.
@Suite struct YCbCrFrameTests {
    static let fixtures = TestSupport.repoRoot.appendingPathComponent("Tests/Fixtures").path

    /// A 4:2:0 JPEG of `card` (libvips writes 4:2:0 below quality 90).
    static func card420(_ dir: String, width: Int, height: Int) throws -> String {
        let path = "\(dir)/card.jpg"
        try TestSupport.card(width: width, height: height).save(to: path, options: .init(quality: 85))
        return path
    }

    /// Bytes that differ between two buffers of the same length.
    static func differences(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Int {
        guard a.count == b.count else { return max(a.count, b.count) }
        var n = 0
        for i in 0..<b.count where a[i] != b[i] { n += 1 }
        return n
    }

    /// The planes converted to RGB are libvips's decode, byte for byte: 4:2:0 at odd and even
    /// sizes (partial chroma samples at the right and bottom), and 4:2:2.
    @Test(arguments: [(1603, 1201), (640, 480), (37, 23), (6, 6)])
    func planesConvertToLibvipsBytes420(_ size: (width: Int, height: Int)) throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Self.card420(dir, width: size.width, height: size.height)
        try expectLibvipsBytes(path, width: size.width, height: size.height, verticalFactor: 2)
    }

    @Test func planesConvertToLibvipsBytes422() throws {
        try expectLibvipsBytes("\(Self.fixtures)/colour-422.jpg", width: 203, height: 117, verticalFactor: 1)
    }

    func expectLibvipsBytes(_ path: String, width: Int, height: Int, verticalFactor: Int) throws {
        let reference = try VIPSImage.load(file: path).pixelBytes()
        var admitted = 0
        let frame = try #require(
            try YCbCrFrame.decodingJPEG(
                file: path, width: width, height: height,
                admit: { admitted = $0 }))
        #expect(frame.verticalFactor == verticalFactor && frame.horizontalFactor == 2)
        #expect(admitted == frame.byteCount && frame.byteCount < width * height * 3 || width < 16)
        let rgb = try frame.rgbFrame()
        #expect(Self.differences(UnsafeBufferPointer(rgb.pixels), reference) == 0)
    }

    /// Planes turned as they are converted give the RGB frame turned by libvips, byte for byte,
    /// for each quarter turn (4:2:0 at an odd size, 4:2:2), and hand the planes back as they go.
    @Test(arguments: [1, 2, 3])
    func planesTurnedAsConvertedAreTheTurnedRGBFrame(turns: Int) throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = [
            (try Self.card420(dir, width: 4096, height: 301), 4096, 301),
            ("\(Self.fixtures)/colour-422.jpg", 203, 117)
        ]
        for (path, width, height) in files {
            let planes = try #require(try YCbCrFrame.decodingJPEG(file: path, width: width, height: height))
            let reference = try planes.rgbFrame().image.rotated(quarterTurns: turns).pixelBytes()
            let turned = try planes.rgbFrame(quarterTurns: turns)
            #expect(turned.width == (turns == 2 ? width : height) && turned.height == (turns == 2 ? height : width))
            #expect(Self.differences(UnsafeBufferPointer(turned.pixels), reference) == 0, "\(path) turned \(turns)")
            // 4096-byte luma rows are whole memory pages: handed back, they read as zero.
            if width == 4096 {
                let luma = UnsafeBufferPointer(start: planes.luma, count: planes.lumaStride * height)
                #expect(luma.allSatisfy { $0 == 0 })
            }
        }
    }

    /// 4:4:4, grey and a file of another size are left to the RGB decoder; a truncated file
    /// throws.
    @Test func otherFilesAreDeclinedAndTruncatedOnesThrow() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try YCbCrFrame.decodingJPEG(file: "\(Self.fixtures)/colour-444.jpg", width: 203, height: 117) == nil)
        try TestSupport.card(width: 64, height: 48, bands: 1).save(to: "\(dir)/grey.jpg")
        #expect(try YCbCrFrame.decodingJPEG(file: "\(dir)/grey.jpg", width: 64, height: 48) == nil)
        let path = try Self.card420(dir, width: 300, height: 200)
        #expect(try YCbCrFrame.decodingJPEG(file: path, width: 200, height: 300) == nil)
        try TestSupport.writeTruncatedJPEG("\(dir)/cut.jpg", width: 1200, height: 900, fraction: 2.0 / 3)
        #expect(throws: VIPSError.self) {
            try YCbCrFrame.decodingJPEG(file: "\(dir)/cut.jpg", width: 1200, height: 900)
        }
        // The page decoder then refuses the page, naming the file.
        #expect {
            try PageDecoder(maxPixels: .max).decodeFrame(PageSource(path: "\(dir)/cut.jpg"), planar: true)
        } throws: {
            ($0 as? ImagingError)?.kind == .truncated && "\($0)".contains("cut.jpg")
        }
    }

    /// The warp from the planes gives the warp of the decoded RGB image: the same luma up to
    /// rounding; the colours too on a photo-like card, while a small image of saturated
    /// 3-pixel colour lines shows the chroma that output pixel pairs share (a page is written
    /// with 4:2:0 chroma, which averages such pairs anyway).
    @Test(arguments: [("card", 0.8), ("colour-422", 6.0)])
    func planarWarpMatchesTheRGBWarp(_ name: String, meanColourDifference: Double) throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = name == "card" ? try Self.card420(dir, width: 1203, height: 901) : "\(Self.fixtures)/\(name).jpg"
        let image = try VIPSImage.load(file: path)
        let (w, h) = (image.width, image.height)
        let frame = try #require(try YCbCrFrame.decodingJPEG(file: path, width: w, height: h))
        // A tilted quad reaching past the image's edges (the clamped path) and well inside.
        let quad = Quad(
            topLeft: Point(x: -0.02 * Double(w), y: 0.1 * Double(h)), topRight: Point(x: 0.9 * Double(w), y: 0),
            bottomRight: Point(x: Double(w) * 1.01, y: 0.95 * Double(h)),
            bottomLeft: Point(x: 0.05 * Double(w), y: Double(h)))
        let (ow, oh) = (w * 4 / 5, h * 4 / 5)
        let expected = try PerspectiveWarp.warp(
            pixels: try image.pixelBytes(), width: w, height: h, bands: 3,
            quad: quad, outputWidth: ow, outputHeight: oh)
        var got = [UInt8](repeating: 0, count: ow * oh * 3)
        try got.withUnsafeMutableBufferPointer {
            try PerspectiveWarp.warp(
                planes: PlanarPixels(frame), quad: quad, outputWidth: ow, outputHeight: oh, into: $0)
        }
        func luma(_ p: [UInt8], _ i: Int) -> Double {
            0.299 * Double(p[3 * i]) + 0.587 * Double(p[3 * i + 1]) + 0.114 * Double(p[3 * i + 2])
        }
        var colour = 0, lumaTotal = 0.0, lumaWorst = 0.0
        for i in got.indices { colour += abs(Int(got[i]) - Int(expected[i])) }
        for i in 0..<(ow * oh) {
            let d = abs(luma(got, i) - luma(expected, i))
            lumaTotal += d
            lumaWorst = max(lumaWorst, d)
        }
        let lumaMean = lumaTotal / Double(ow * oh), colourMean = Double(colour) / Double(got.count)
        #expect(lumaMean < 0.8, "mean luma difference \(lumaMean)")
        #expect(lumaWorst <= 24, "worst luma difference \(lumaWorst)")
        #expect(colourMean < meanColourDifference, "mean colour difference \(colourMean)")
    }

    /// The AVX2 loop (where this CPU has it) makes the same bytes as the portable one, through
    /// tilted, rotated, shrunk and enlarged pages and partial runs at both ends.
    @Test(arguments: [0, 1, 2, 3])
    func vectorizedWarpEqualsThePortableLoop(_ turn: Int) throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Self.card420(dir, width: 1203, height: 901)
        let frame = try #require(try YCbCrFrame.decodingJPEG(file: path, width: 1203, height: 901))
        var corners = [
            Point(x: 100.3, y: 40.7), Point(x: 1150.2, y: 90.1), Point(x: 1100.9, y: 880.4), Point(x: 30.2, y: 820.8)
        ]
        corners = Array(corners[turn...] + corners[..<turn])  // the page stored turned
        let quad = try #require(Quad(corners: corners))
        for (ow, oh) in [(997, 763), (1501, 1100), (301, 229)] {
            var a = [UInt8](repeating: 0, count: ow * oh * 3), b = a
            try a.withUnsafeMutableBufferPointer {
                try PerspectiveWarp.warp(
                    planes: PlanarPixels(frame), quad: quad, outputWidth: ow, outputHeight: oh, into: $0)
            }
            try b.withUnsafeMutableBufferPointer {
                try PerspectiveWarp.warp(
                    planes: PlanarPixels(frame), quad: quad, outputWidth: ow, outputHeight: oh, into: $0,
                    vectorized: false)
            }
            var differing = 0
            for i in a.indices where a[i] != b[i] { differing += 1 }
            #expect(differing == 0, "\(ow)x\(oh): \(differing) bytes differ")
        }
    }

    /// The detection copy from the planes is the copy of the RGB decode, up to rounding.
    @Test(arguments: [1, 6])
    func planarDetectionCopyMatchesTheRGBCopy(orientation: Int) throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Self.card420(dir, width: 2050, height: 1501)
        let rgb = try #require(try VIPSFrame.decodingJPEG(file: path, width: 2050, height: 1501, bands: 3))
        let frame = try #require(try YCbCrFrame.decodingJPEG(file: path, width: 2050, height: 1501))
        let map = try #require(StoredOrientation(orientation: orientation, storedWidth: 2050, storedHeight: 1501))
        let a = DetectionCopy(
            frame: UnsafeBufferPointer(rgb.pixels), width: 2050, height: 1501, bands: 3, orientation: map)
        let b = DetectionCopy(planes: PlanarPixels(frame), orientation: map)
        #expect((a.width, a.height, a.offsetX, a.offsetY) == (b.width, b.height, b.offsetX, b.offsetY))
        var worst = 0, total = 0
        for i in a.pixels.indices {
            let d = abs(Int(a.pixels[i]) - Int(b.pixels[i]))
            worst = max(worst, d)
            total += d
        }
        #expect(Double(total) / Double(a.pixels.count) < 1.0)
        // Only where a block straddles a sharp colour edge (chroma blocks cover whole chroma
        // samples: 2 x 2 pixels against the copy's 3 x 3 here).
        #expect(worst <= 40, "worst difference \(worst)")
    }

    /// The C box averages give the Swift loop's bytes: 4:2:0 and 4:2:2, odd sizes whose last
    /// chroma block is cut at the plane's edge, factors from 1 to 7, even factors up to 18,
    /// padded strides.
    @Test(arguments: [
        (1203, 901, 1, 1, 256), (1203, 901, 1, 0, 300), (640, 480, 1, 1, 1024),
        (97, 1201, 1, 1, 200), (2050, 1501, 1, 1, 1024), (33, 29, 1, 0, 5),
        // Even factors (the regular case): 2, 4 and 16 in 32-bit lanes, 18 beyond them.
        (640, 480, 1, 0, 320), (1203, 901, 1, 1, 301), (1203, 901, 1, 1, 76), (1203, 901, 1, 1, 68)
    ])
    func cBoxAveragesEqualTheSwiftLoop(_ c: (Int, Int, Int, Int, Int)) {
        let (w, h, hs, vs, longSide) = c
        let (cw, ch) = ((w + (1 << hs) - 1) >> hs, (h + (1 << vs) - 1) >> vs)
        let (ls, cs) = (w + 13, cw + 7)
        var state = UInt64(w * 31 + h)
        func noise() -> Int {  // a 64-bit LCG's top bits: repeatable noise
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % 23
        }
        // Smooth gradients with noise, and saturated corners: every clamp of the conversion.
        func plane(_ pw: Int, _ ph: Int, _ stride: Int, _ k: Int) -> [UInt8] {
            (0..<(stride * ph)).map { i in
                let (x, y) = (i % stride, i / stride)
                if x < pw / 8 && y < ph / 8 { return k == 1 ? 255 : 0 }
                return UInt8(truncatingIfNeeded: (x * (k + 1) + y * (3 - k)) / 3 + noise())
            }
        }
        let (luma, cb, cr) = (plane(w, h, ls, 0), plane(cw, ch, cs, 1), plane(cw, ch, cs, 2))
        luma.withUnsafeBufferPointer { l in
            cb.withUnsafeBufferPointer { b in
                cr.withUnsafeBufferPointer { r in
                    let p = PlanarPixels(
                        luma: l.baseAddress!, cb: b.baseAddress!, cr: r.baseAddress!, width: w, height: h,
                        chromaWidth: cw, chromaHeight: ch, lumaStride: ls, chromaStride: cs,
                        horizontalShift: hs, verticalShift: vs)
                    let map = StoredOrientation(orientation: 1, storedWidth: w, storedHeight: h)!
                    let fast = DetectionCopy(planes: p, orientation: map, longSide: longSide)
                    let loop = DetectionCopy(planes: p, orientation: map, longSide: longSide, portable: true)
                    #expect((fast.width, fast.height) == (loop.width, loop.height))
                    var differing = 0
                    for i in loop.pixels.indices where fast.pixels[i] != loop.pixels[i] { differing += 1 }
                    #expect(differing == 0, "\(w)x\(h): \(differing) of \(loop.pixels.count) bytes differ")
                }
            }
        }
    }

    /// The copy averaged while the planes are decoded (`averagingBy:`) is the copy of the
    /// decoded planes, byte for byte: 4:2:0 at sizes whose last iMCU row and chroma block are
    /// partial, 4:2:2, factors 1 to 7 (each output row must wait for its last luma and chroma
    /// rows; the fresh planes read zero before they are decoded, so a row made early differs).
    @Test(arguments: [
        ("card", 2050, 1501, 1024), ("card", 1603, 1201, 300), ("card", 37, 23, 37), ("card", 97, 1201, 200),
        ("card", 640, 480, 107), ("colour-422", 203, 117, 29), ("colour-422", 203, 117, 68)
    ])
    func copyAveragedWhileDecodingIsTheCopyOfThePlanes(_ c: (String, Int, Int, Int)) throws {
        let (name, w, h, longSide) = c
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = name == "card" ? try Self.card420(dir, width: w, height: h) : "\(Self.fixtures)/\(name).jpg"
        let factor = DetectionCopy.factor(width: w, height: h, longSide: longSide)
        let frame = try #require(try YCbCrFrame.decodingJPEG(file: path, width: w, height: h, averagingBy: factor))
        let map = try #require(StoredOrientation(orientation: 6, storedWidth: w, storedHeight: h))
        #expect(frame.averages?.factor == factor)
        let averaged = try #require(DetectionCopy(averaged: frame, orientation: map, longSide: longSide))
        let loop = DetectionCopy(planes: PlanarPixels(frame), orientation: map, longSide: longSide, portable: true)
        #expect(frame.averages == nil)  // taken
        #expect(
            (averaged.width, averaged.height, averaged.offsetX, averaged.offsetY)
                == (loop.width, loop.height, loop.offsetX, loop.offsetY))
        var differing = 0
        for i in loop.pixels.indices where averaged.pixels[i] != loop.pixels[i] { differing += 1 }
        #expect(differing == 0, "\(name) \(w)x\(h) by \(factor): \(differing) of \(loop.pixels.count) bytes differ")
        // Averages of another factor are not this copy's: it is made from the planes instead.
        let again = try #require(try YCbCrFrame.decodingJPEG(file: path, width: w, height: h, averagingBy: factor))
        #expect(DetectionCopy(averaged: again, orientation: map, longSide: longSide * 4) == nil || factor == 1)
    }

    /// Without `averagingBy:` (or with a factor out of range) nothing is averaged.
    @Test func planesAreNotAveragedUnlessAsked() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Self.card420(dir, width: 640, height: 480)
        #expect(try #require(try YCbCrFrame.decodingJPEG(file: path, width: 640, height: 480)).averages == nil)
        let outOfRange = try #require(try YCbCrFrame.decodingJPEG(file: path, width: 640, height: 480, averagingBy: 0))
        #expect(outOfRange.averages == nil)
    }

    /// Released luma rows read zero, with the chroma rows only they use; the rows kept (and the
    /// chroma rows next to them) are intact.
    @Test func releasedRowsTakeTheirChromaAlong() throws {
        let dir = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Wide enough that a row is many memory pages (release works on whole pages).
        let path = try Self.card420(dir, width: 16384, height: 64)
        let frame = try #require(try YCbCrFrame.decodingJPEG(file: path, width: 16384, height: 64))
        func row(_ plane: UnsafeMutablePointer<UInt8>, _ stride: Int, _ r: Int) -> Int {
            (0..<stride).reduce(0) { $0 + Int(plane[r * stride + $1]) }
        }
        frame.releaseRows(0..<20)
        frame.releaseRows(50..<64)
        #expect(row(frame.luma, frame.lumaStride, 19) == 0 && row(frame.luma, frame.lumaStride, 20) > 0)
        #expect(row(frame.luma, frame.lumaStride, 49) > 0 && row(frame.luma, frame.lumaStride, 50) == 0)
        // Chroma rows 0..<9 are gone; 9 (next to luma row 20) and up to 26 (next to 49) stay.
        #expect(row(frame.cb, frame.chromaStride, 8) == 0 && row(frame.cb, frame.chromaStride, 9) > 0)
        #expect(row(frame.cr, frame.chromaStride, 26) > 0 && row(frame.cr, frame.chromaStride, 27) == 0)
    }
}
