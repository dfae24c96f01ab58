import Testing
@testable import QuireImaging

/// The orientation's grey copy on pointers (`PageCorrector.blockGray`) gives the bytes of the
/// plain block loop it replaced, byte for byte, at every block factor, band count and size.
@Suite struct BlockGrayTests {
    /// The block loop `PageCorrector.gray` used to run, as it was.
    static func blockLoop(_ p: [UInt8], width w: Int, height h: Int, bands: Int, factor f: Int) -> [UInt8] {
        let (ow, oh) = (w / f, h / f)
        let step = f >= 2 ? 2 : 1, channel = bands >= 3 ? 1 : 0
        let taps = ((f + step - 1) / step) * ((f + step - 1) / step)
        var gray = [UInt8](repeating: 0, count: ow * oh)
        for oy in 0..<oh {
            for ox in 0..<ow {
                var sum = 0
                for y in stride(from: oy * f, to: oy * f + f, by: step) {
                    for x in stride(from: ox * f, to: ox * f + f, by: step) {
                        sum += Int(p[(y * w + x) * bands + channel])
                    }
                }
                gray[oy * ow + ox] = UInt8(sum / taps)
            }
        }
        return gray
    }

    /// Pixels that differ from byte to byte over the whole 0-255 range (a fixed-seed LCG).
    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    static func copy(_ p: [UInt8], width: Int, height: Int, bands: Int, factor: Int) -> [UInt8] {
        p.withUnsafeBufferPointer {
            PageCorrector.blockGray($0, width: width, height: height, bands: bands, factor: factor)
        }
    }

    /// Every factor from 1 to 9 and one to four bands, on sizes that are and are not whole
    /// blocks, wide and tall, down to a single block.
    @Test(arguments: [1, 2, 3, 4], Array(1...9))
    func theCopyIsTheBlockLoopsBytes(_ bands: Int, _ factor: Int) {
        let sizes = [(factor, factor), (factor * 17 + factor - 1, factor * 5), (61, 43), (97, 211), (128, 64)]
        for (i, (width, height)) in sizes.enumerated() where width >= factor && height >= factor {
            let pixels = Self.noise(width * height * bands, seed: UInt64(bands * 1000 + factor * 10 + i))
            let got = Self.copy(pixels, width: width, height: height, bands: bands, factor: factor)
            let want = Self.blockLoop(pixels, width: width, height: height, bands: bands, factor: factor)
            #expect(got.count == (width / factor) * (height / factor))
            #expect(got == want, "\(width)x\(height), \(bands) bands, factor \(factor)")
        }
    }

    /// Sums that leave a remainder round down, and white blocks do not overflow the sum.
    @Test(arguments: [3, 4, 5, 7])
    func meansRoundDownAndWhiteStaysWhite(_ factor: Int) {
        let (width, height) = (factor * 6, factor * 4)
        for value: UInt8 in [0, 1, 127, 254, 255] {
            var pixels = [UInt8](repeating: value, count: width * height)
            pixels[0] = value == 255 ? 254 : value + 1
            let got = Self.copy(pixels, width: width, height: height, bands: 1, factor: factor)
            #expect(got == Self.blockLoop(pixels, width: width, height: height, bands: 1, factor: factor))
            #expect(got.dropFirst().allSatisfy { $0 == value })
        }
    }

    /// A buffer with nothing to copy (smaller than one block) gives an empty copy.
    @Test func lessThanABlockIsEmpty() {
        #expect(Self.copy([1, 2, 3, 4], width: 2, height: 2, bands: 1, factor: 3).isEmpty)
    }
}
