import Testing
@testable import QuireImaging
import VipsBridge
import QuireTestSupport

/// The deskew rotation (`ScanDeskew.turned`, the `PageTurn` kernel) against libvips's
/// `vips_rotate` it replaces, on synthetic pages: odd sizes, several angles, 1, 3 and 4 bands.
@Suite struct TurnTests {
    /// A seeded page of `bands` bands: smooth gradients (where interpolation weights show),
    /// dark strokes (where they show most) and noise.
    static func page(width: Int, height: Int, bands: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        var px = [UInt8](repeating: 0, count: width * height * bands)
        for y in 0..<height {
            for x in 0..<width {
                let stroke = (x / 5 + y / 7) % 9 == 0
                for z in 0..<bands {
                    let smooth = (x * (3 + z) + y * (5 - z)) % 256
                    px[(y * width + x) * bands + z] = stroke ? UInt8(rng.int(0...40)) : UInt8(smooth ^ rng.int(0...15))
                }
            }
        }
        return px
    }

    static let angles: [Double] = [0.3, -1.7, 4.0, -12.5, 35, 89.9]
    static let sizes: [(Int, Int)] = [(37, 23), (101, 257), (640, 479)]

    /// Same canvas as libvips; every pixel within 1 of it and all but a handful equal (libvips
    /// accumulates sample positions along a tile row, the kernel computes each from the row
    /// start: the last bits differ, which moves a 1/4096 weight step only by chance).
    @Test(arguments: [1, 3])
    func matchesLibvipsRotate(bands: Int) throws {
        for (i, (w, h)) in Self.sizes.enumerated() {
            let image = try VIPSImage.fromPixels(
                Self.page(width: w, height: h, bands: bands, seed: UInt64(i)), width: w, height: h, bands: bands)
            for degrees in Self.angles {
                let fill: [Double] = bands == 1 ? [200.7] : [200.7, 31.2, 99.9]
                let ours = try ScanDeskew.turned(image, degrees: degrees, fill: fill)
                let theirs = try image.rotated(degrees: degrees, background: fill, interpolation: .bilinear)
                #expect(ours.width == theirs.width && ours.height == theirs.height, "\(w)x\(h) at \(degrees)")
                let a = try ours.pixelBytes(), b = try theirs.pixelBytes()
                #expect(a.count == b.count)
                let diff = zip(a, b).map { abs(Int($0) - Int($1)) }
                #expect(diff.max() ?? 0 <= 1, "\(w)x\(h)x\(bands) at \(degrees): max \(diff.max() ?? 0)")
                let differing = diff.filter { $0 != 0 }.count
                #expect(differing * 1000 <= max(1, a.count), "\(w)x\(h)x\(bands) at \(degrees): \(differing) differ")
            }
        }
    }

    /// A turn that hands back its source rows as it goes gives the same bytes as one that keeps
    /// them, though the rows really are released (4096-byte rows: whole memory pages, read as
    /// zero afterwards): no row is handed back while a later canvas row still reads it.
    @Test(arguments: [0.3, -1.7, 4.0])
    func handingBackPassedRowsKeepsThePixels(degrees: Double) throws {
        let (w, h) = (4096, 800)
        let px = Self.page(width: w, height: h, bands: 1, seed: 7)
        let frame = try VIPSFrame(width: w, height: h, bands: 1)
        _ = frame.pixels.initialize(from: px)
        let canvas = PageTurn.canvas(width: w, height: h, degrees: degrees)
        let crop = (x: canvas.width / 8, y: 3, width: canvas.width * 3 / 4, height: canvas.height - 5)
        let kept = try ScanDeskew.turned(
            VIPSImage.fromPixels(px, width: w, height: h, bands: 1), degrees: degrees, fill: [250], crop: crop)
        var released = 0..<0
        let handed = try ScanDeskew.turned(
            frame.image, degrees: degrees, fill: [250], crop: crop,
            releasing: {
                #expect($0.lowerBound == 0 && $0.upperBound >= released.upperBound)
                released = $0
                frame.releaseRows($0)
            })
        #expect(try handed.pixelBytes() == kept.pixelBytes(), "at \(degrees)")
        #expect(released.count >= h / 2, "at \(degrees): \(released) handed back")
        #expect(frame.pixels[0..<(released.count * w)].allSatisfy { $0 == 0 })
    }

    /// The AVX2 loop gives the portable loop's bytes, on whole canvases and on pieces of them.
    @Test(arguments: [1, 3, 4])
    func vectorizedEqualsPortable(bands: Int) throws {
        for (i, (w, h)) in Self.sizes.enumerated() {
            let src = Self.page(width: w, height: h, bands: bands, seed: UInt64(10 + i))
            for degrees in Self.angles {
                let canvas = PageTurn.canvas(width: w, height: h, degrees: degrees)
                let ink = PageTurn.ink([17.5, 230, 128, 255], bands: bands)
                let x0 = canvas.width / 3, ow = canvas.width - x0 - canvas.width / 5
                let (fast, slow, ok) = turnedBothWays(
                    src, width: w, height: h, bands: bands, degrees: degrees, ink: ink, x0: x0,
                    rows: 0..<canvas.height, outputWidth: ow)
                #expect(ok)
                #expect(zip(fast, slow).filter { $0 != $1 }.isEmpty, "\(w)x\(h)x\(bands) at \(degrees)")
            }
        }
    }

    /// A crop is the same region of the whole turned canvas; a 4-band page turns band for band
    /// as its RGB and its fourth plane turn on their own.
    @Test func cropsAndBands() throws {
        let (w, h) = (211, 143)
        let rgba = Self.page(width: w, height: h, bands: 4, seed: 7)
        let rgb = (0..<(w * h * 3)).map { rgba[$0 / 3 * 4 + $0 % 3] }
        let fourth = (0..<(w * h)).map { rgba[$0 * 4 + 3] }
        let degrees = -6.25
        let canvas = PageTurn.canvas(width: w, height: h, degrees: degrees)
        func turn(_ px: [UInt8], bands: Int, fill: [Double]) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: canvas.width * canvas.height * bands)
            let ok = px.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer {
                    PageTurn.rows(
                        source: s, width: w, height: h, bands: bands, degrees: degrees,
                        ink: PageTurn.ink(fill, bands: bands), x0: 0, rows: 0..<canvas.height,
                        outputWidth: canvas.width, into: $0.baseAddress!)
                }
            }
            #expect(ok)
            return out
        }
        let four = turn(rgba, bands: 4, fill: [10, 20, 30, 40]), three = turn(rgb, bands: 3, fill: [10, 20, 30])
        let one = turn(fourth, bands: 1, fill: [40])
        var rgbDiffer = 0, fourthDiffer = 0
        for i in 0..<(canvas.width * canvas.height) {
            for z in 0..<3 where four[i * 4 + z] != three[i * 3 + z] { rgbDiffer += 1 }
            if four[i * 4 + 3] != one[i] { fourthDiffer += 1 }
        }
        #expect(rgbDiffer == 0 && fourthDiffer == 0)

        let image = try VIPSImage.fromPixels(rgb, width: w, height: h, bands: 3)
        let whole = try ScanDeskew.turned(image, degrees: degrees, fill: [250, 250, 250])
        let crop = (x: 13, y: 9, width: canvas.width - 40, height: canvas.height - 21)
        let part = try ScanDeskew.turned(image, degrees: degrees, fill: [250, 250, 250], crop: crop)
        let expected = try whole.cropped(x: crop.x, y: crop.y, width: crop.width, height: crop.height).pixelBytes()
        #expect(try part.pixelBytes() == expected)
        #expect(throws: VIPSError.self) {
            try ScanDeskew.turned(image, degrees: degrees, fill: [0], crop: (1, 1, canvas.width, 4))
        }
    }
}

/// `PageTurn.rows` run twice on the same source, with the AVX2 loop and with the portable
/// loop, into buffers prefilled with 1s: both outputs, and whether both runs succeeded.
private func turnedBothWays(
    _ src: [UInt8], width w: Int, height h: Int, bands: Int, degrees: Double, ink: [UInt8], x0: Int,
    rows: Range<Int>, outputWidth ow: Int
) -> (fast: [UInt8], slow: [UInt8], ok: Bool) {
    var fast = [UInt8](repeating: 1, count: ow * rows.count * bands), slow = fast
    let ok = src.withUnsafeBufferPointer { s in
        fast.withUnsafeMutableBufferPointer { f in
            slow.withUnsafeMutableBufferPointer { p in
                PageTurn.rows(
                    source: s, width: w, height: h, bands: bands, degrees: degrees, ink: ink, x0: x0,
                    rows: rows, outputWidth: ow, into: f.baseAddress!, vectorized: true)
                    && PageTurn.rows(
                        source: s, width: w, height: h, bands: bands, degrees: degrees, ink: ink, x0: x0,
                        rows: rows, outputWidth: ow, into: p.baseAddress!, vectorized: false)
            }
        }
    }
    return (fast, slow, ok)
}

/// Groups of blank paper (one value in all the taps) and groups wholly off the source (the
/// fill) are written without their weights; the bytes stay the portable loop's.
@Suite struct TurnShortcutTests {
    /// Mostly flat: white paper, a black block, a mid-grey block, a few noisy lines.
    static func page(width: Int, height: Int, bands: Int) -> [UInt8] {
        var rng = SplitMix64(seed: 99)
        var px = [UInt8](repeating: 255, count: width * height * bands)
        for y in 0..<height {
            for x in 0..<width {
                let v: UInt8? =
                    x > width / 5 && x < width / 2 && y > height / 6 && y < height / 3
                    ? 0 : x > width / 2 && y > height / 2 ? 128 : y % 37 < 2 ? UInt8(rng.int(0...255)) : nil
                if let v { for z in 0..<bands { px[(y * width + x) * bands + z] = v } }
            }
        }
        return px
    }

    @Test(arguments: [1, 3])
    func flatAndOffSourceGroupsKeepThePortableBytes(bands: Int) throws {
        let (w, h) = (613, 421)
        let src = Self.page(width: w, height: h, bands: bands)
        for degrees in [0.01, 0.24, -1.3, 7.0, -15.0, 40] {
            let canvas = PageTurn.canvas(width: w, height: h, degrees: degrees)
            let ink = PageTurn.ink([17.5, 230, 128], bands: bands)
            let (fast, slow, ok) = turnedBothWays(
                src, width: w, height: h, bands: bands, degrees: degrees, ink: ink, x0: 0,
                rows: 0..<canvas.height, outputWidth: canvas.width)
            #expect(ok)
            let differ = zip(fast, slow).filter { $0 != $1 }.count
            #expect(differ == 0, "\(bands) bands at \(degrees): \(differ) differ")
        }
    }

    /// RGB groups at deskew angles read two source rows once and pick each channel's taps with
    /// a byte shuffle (`rgb_row8`); a half of four pixels repeating one colour is copied. A
    /// page of flat paper, flat bars, gradients and noise, turned by the vectorised kernel,
    /// must give the portable loop's bytes, crop offsets included.
    @Test(arguments: [0.216, -1.213, 2.819, -3.397, 6.224, -15.013])
    func rgbShuffledGroupsKeepThePortableBytes(degrees: Double) throws {
        let (w, h) = (1203, 911)
        // Tinted, so a flat half's colour is not the same in every band.
        var src = Self.page(width: w, height: h, bands: 3).enumerated().map { i, v in
            i % 3 == 0 ? v : UInt8(Int(v) * (8 - i % 3) / 8)
        }
        let noisy = TurnTests.page(width: w, height: h, bands: 3, seed: 7)
        // The lower half-page's left part: gradients and noise, where every weight shows.
        for y in h / 2..<h { for x in 0..<(w / 3) * 3 { src[y * w * 3 + x] = noisy[y * w * 3 + x] } }
        let canvas = PageTurn.canvas(width: w, height: h, degrees: degrees)
        let ink = PageTurn.ink([250, 248, 245], bands: 3)
        for x0 in [0, 5, canvas.width / 4] {
            let ow = canvas.width - x0
            let (fast, slow, ok) = turnedBothWays(
                src, width: w, height: h, bands: 3, degrees: degrees, ink: ink, x0: x0,
                rows: 0..<canvas.height, outputWidth: ow)
            #expect(ok)
            let differ = zip(fast, slow).filter { $0 != $1 }.count
            #expect(differ == 0, "x0 \(x0) at \(degrees): \(differ) differ")
        }
    }

    /// The AVX2 loop walks sample positions in fixed point and works a group out again in
    /// doubles when a lane lies near a 1/4096 step (`fixed8`). At 30 and 45 degrees positions
    /// fall on such steps, where only the doubles tell which side: without that check some
    /// bytes differ. Noise pages, so every weight step shows; the canvas is wider than the
    /// prefetch distance, crop offsets included.
    @Test(arguments: [1, 3])
    func positionsOnAWeightStepKeepThePortableBytes(bands: Int) throws {
        let (w, h) = (300, 200)
        var rng = SplitMix64(seed: 31)
        let src = (0..<w * h * bands).map { _ in UInt8(rng.int(0...255)) }
        for degrees in [30, -30, 45, -45, 0.0001, -0.001] {
            let canvas = PageTurn.canvas(width: w, height: h, degrees: degrees)
            let ink = PageTurn.ink([9, 9, 9], bands: bands)
            for x0 in [0, 3] {
                let ow = canvas.width - x0
                let (fast, slow, ok) = turnedBothWays(
                    src, width: w, height: h, bands: bands, degrees: degrees, ink: ink, x0: x0,
                    rows: 0..<canvas.height, outputWidth: ow)
                #expect(ok)
                let differ = zip(fast, slow).filter { $0 != $1 }.count
                #expect(differ == 0, "\(bands) bands, x0 \(x0) at \(degrees): \(differ) differ")
            }
        }
    }
}
