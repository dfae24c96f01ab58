/// Per-band medians of 8-bit pixels, counted in histograms: the value sorting each band's
/// samples would put at `count / 2`, in one pass and without the sort. Sorting the samples
/// was most of a scan trim's analysis time (the centre of the copy, 100k values and more,
/// through the generic stable sort; docs/benchmarks.md, "The scan path's second readings").
struct BandMedians {
    /// One 256-bin histogram per band, one after the other.
    private var counts: [Int]
    let bands: Int
    /// Pixels added so far.
    private(set) var count = 0

    /// Empty histograms for pixels of `bands` interleaved bands.
    init(bands: Int) {
        self.bands = bands
        counts = [Int](repeating: 0, count: 256 * max(1, bands))
    }

    /// Adds the pixel at `index` (pixels, not bytes) of `pixels`.
    @inline(__always)
    mutating func add(_ pixels: UnsafeBufferPointer<UInt8>, at index: Int) {
        let base = index * bands
        for b in 0..<bands { counts[b * 256 + Int(pixels[base + b])] += 1 }
        count += 1
    }

    /// Each band's median (`sorted[count / 2]`), 255 for every band when nothing was added.
    var values: [Double] {
        (0..<bands).map { b in
            guard count > 0 else { return 255 }
            var seen = 0
            for level in 0..<256 {
                seen += counts[b * 256 + level]
                if seen > count / 2 { return Double(level) }
            }
            return 255
        }
    }
}
