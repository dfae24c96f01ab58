import Testing
@testable import QuireImaging

/// The detection copy is an exact box average, turned upright: checked pixel for pixel against
/// a naive computation for each stored orientation and band count (the fast path averages
/// with a multiply-shift reciprocal and walks rotated rows with a fixed step).
@Suite struct DetectionCopyTests {
    @Test(arguments: [(1, 3), (3, 3), (6, 3), (8, 3), (6, 1), (1, 1)])
    func equalsANaiveBoxAverageTurnedUpright(_ c: (orientation: Int, bands: Int)) throws {
        let (w, h, bands) = (1037, 763, c.bands)  // not multiples of the factor
        var pixels = [UInt8](repeating: 0, count: w * h * bands)
        for i in pixels.indices { pixels[i] = UInt8(truncatingIfNeeded: (i &* 2_654_435_761) >> 13) }
        let map = try #require(StoredOrientation(orientation: c.orientation, storedWidth: w, storedHeight: h))
        let longSide = 200
        let copy = pixels.withUnsafeBufferPointer {
            DetectionCopy(frame: $0, width: w, height: h, bands: bands, orientation: map, longSide: longSide)
        }
        let factor = (max(w, h) + longSide - 1) / longSide
        let (cw, ch) = (w / factor, h / factor)
        // Naive: stored-orientation box averages, rounded half up.
        func stored(_ x: Int, _ y: Int, _ b: Int) -> UInt8 {
            var sum = 0
            for yy in (y * factor)..<((y + 1) * factor) {
                for xx in (x * factor)..<((x + 1) * factor) { sum += Int(pixels[(yy * w + xx) * bands + b]) }
            }
            return UInt8((sum + factor * factor / 2) / (factor * factor))
        }
        let sideways = c.orientation == 6 || c.orientation == 8
        #expect((copy.width, copy.height) == (sideways ? (ch, cw) : (cw, ch)))
        var wrong = 0
        for y in 0..<copy.height {
            for x in 0..<copy.width {
                // Display pixel (x, y) of the upright copy shows this stored copy pixel.
                let (sx, sy): (Int, Int) =
                    switch c.orientation {
                    case 3: (cw - 1 - x, ch - 1 - y)
                    case 6: (y, ch - 1 - x)
                    case 8: (cw - 1 - y, x)
                    default: (x, y)
                    }
                for b in 0..<bands where copy.pixels[(y * copy.width + x) * bands + b] != stored(sx, sy, b) {
                    wrong += 1
                }
            }
        }
        #expect(wrong == 0, "\(wrong) values differ from the naive box average")
    }

    /// The grey copy the skew search reads is Rec. 601 luma rounded half up, pixel for pixel (the
    /// loop writes through pointers); a grey copy is handed back as it is.
    @Test(arguments: [1, 3, 4])
    func grayIsTheRoundedLumaOfEachPixel(_ bands: Int) {
        let (w, h) = (61, 37)
        var pixels = [UInt8](repeating: 0, count: w * h * bands)
        for i in pixels.indices { pixels[i] = UInt8(truncatingIfNeeded: (i &* 2_654_435_761) >> 11) }
        pixels[0..<bands] = ArraySlice(repeating: 255, count: bands)
        // A luma sum ending in exactly half (28.5): rounded up to 29, not down.
        if bands >= 3 { pixels[bands..<(bands + 3)] = [0, 0, 250] }
        let copy = DetectionCopy(pixels: pixels, width: w, height: h, bands: bands, scaleX: 1, scaleY: 1)
        let gray = copy.gray()
        #expect(gray.count == w * h)
        var wrong = 0
        for i in 0..<(w * h) {
            let o = i * bands
            let r: Int = 299 * Int(pixels[o]), g: Int = bands == 1 ? 0 : 587 * Int(pixels[o + 1])
            let b: Int = bands == 1 ? 0 : 114 * Int(pixels[o + 2])
            let luma = UInt8((r + g + b + 500) / 1000)
            let expected = bands == 1 ? pixels[i] : luma
            if gray[i] != expected { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) grey values differ from the rounded luma")
        #expect(gray[0] == 255)
        #expect(gray[1] == (bands == 1 ? pixels[1] : 29))
    }
}
