/// The orientation's grey copy made from 8-bit pixels in memory (`PageCorrector.gray`), on
/// pointers rather than through the block loops: the same bytes, since every decision of the
/// orientation detector is made on them (`BlockGrayTests` holds it to the plain block loop).
extension PageCorrector {
    /// Block means of `pixels` (`width` by `height`, `bands` interleaved) over `factor` by
    /// `factor` blocks: the green channel when there are three bands or more, else the first;
    /// every pixel of a block when `factor` is 1, else every other pixel each way (taps at even
    /// offsets in the block), the sum divided by the taps rounding down. The copy is
    /// `width / factor` by `height / factor`; pixels past the last whole block are not read.
    static func blockGray(_ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bands: Int, factor: Int)
        -> [UInt8]
    {
        let (ow, oh) = (width / factor, height / factor)
        guard ow > 0, oh > 0, let start = pixels.baseAddress else { return [] }
        precondition(pixels.count >= width * height * bands && bands >= 1 && factor >= 1)
        let source = start + (bands >= 3 ? 1 : 0)
        let row = width * bands
        // Taps each way: one for factors 1 and 2, two for 3 and 4, and so on.
        let taps = (factor + 1) / 2
        return [UInt8](unsafeUninitializedCapacity: ow * oh) { out, count in
            let copy = out.baseAddress!
            for oy in 0..<oh {
                let top = source + oy * factor * row
                let line = copy + oy * ow
                switch taps {
                case 1: Self.sampleRow(top, into: line, count: ow, stride: factor * bands)
                case 2:
                    Self.meanOfFourRow(
                        top, into: line, count: ow, stride: factor * bands, across: 2 * bands, down: 2 * row)
                default: Self.meanRow(top, into: line, count: ow, factor: factor, bands: bands, row: row, taps: taps)
                }
            }
            count = ow * oh
        }
    }

    /// One output row of one-tap blocks: every `stride`-th byte from `source`. The common strides
    /// get their own loops, with the stride a constant the compiler can unroll and vectorise.
    private static func sampleRow(
        _ source: UnsafePointer<UInt8>, into line: UnsafeMutablePointer<UInt8>, count: Int, stride: Int
    ) {
        switch stride {
        case 1: line.update(from: source, count: count)
        case 2: gather(source, into: line, count: count, stride: 2)
        case 3: gather(source, into: line, count: count, stride: 3)
        case 4: gather(source, into: line, count: count, stride: 4)
        case 6: gather(source, into: line, count: count, stride: 6)
        case 8: gather(source, into: line, count: count, stride: 8)
        default: gather(source, into: line, count: count, stride: stride)
        }
    }

    @inline(__always)
    private static func gather(
        _ source: UnsafePointer<UInt8>, into line: UnsafeMutablePointer<UInt8>, count: Int, stride: Int
    ) {
        for x in 0..<count { line[x] = source[x &* stride] }
    }

    /// One output row of four-tap blocks (factors 3 and 4): the mean of the taps at the block's
    /// corner, `across` bytes right of it, `down` bytes below it and both; a sum of four
    /// divided by four rounding down is the sum shifted right twice.
    private static func meanOfFourRow(
        _ source: UnsafePointer<UInt8>, into line: UnsafeMutablePointer<UInt8>, count: Int,
        stride: Int, across: Int, down: Int
    ) {
        let below = source + down
        for x in 0..<count {
            let at = x &* stride
            let sum =
                UInt32(source[at]) &+ UInt32(source[at &+ across]) &+ UInt32(below[at])
                &+ UInt32(below[at &+ across])
            line[x] = UInt8(truncatingIfNeeded: sum >> 2)
        }
    }

    /// One output row of blocks with `taps` by `taps` taps (factors 5 and up).
    private static func meanRow(
        _ source: UnsafePointer<UInt8>, into line: UnsafeMutablePointer<UInt8>, count: Int,
        factor: Int, bands: Int, row: Int, taps: Int
    ) {
        let total = taps * taps
        for x in 0..<count {
            let corner = source + x * factor * bands
            var sum = 0
            for ty in 0..<taps {
                let tapRow = corner + 2 * ty * row
                for tx in 0..<taps { sum += Int(tapRow[2 * tx * bands]) }
            }
            line[x] = UInt8(sum / total)
        }
    }
}
