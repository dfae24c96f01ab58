internal import CVipsShim

/// The deskew rotation of 8-bit pixels in memory (`cvips_turn_rows`): the canvas, fill and
/// bilinear weights of `rotated(degrees:background:interpolation: .bilinear)`, in a loop of
/// its own with AVX2 gathers for grey and RGB pages.
///
/// Why: libvips samples a rotation through one interpolator call a pixel on small tiles; the
/// deskew rotation was the largest single cost of a scan (181 of about 680 CPU ms a page).
/// Rows can be made in any order and in pieces (each row is computed from its own start), so
/// callers split them across cores.
public enum PageTurn {
    /// Whether the AVX2 loop runs here (checked once).
    public static let vectorizedAvailable: Bool = cvips_turn_vectorized_available() == 1

    /// The canvas `rotated(degrees:)` gives a `width` x `height` image: the turned bounding box.
    public static func canvas(width: Int, height: Int, degrees: Double) -> (width: Int, height: Int) {
        var left: Int32 = 0, top: Int32 = 0, w: Int32 = 0, h: Int32 = 0
        cvips_turn_canvas(Int32(width), Int32(height), degrees, &left, &top, &w, &h)
        return (Int(w), Int(h))
    }

    /// The source rows `rows(...)` reads for canvas rows `rows`, columns `x0 ..< x0 +
    /// outputWidth` (with a row to spare each side): a caller making the canvas top to bottom may
    /// hand back the source rows above it once the rows before `rows` are made.
    public static func sourceRows(
        width: Int, height: Int, degrees: Double, x0: Int, rows: Range<Int>, outputWidth: Int
    ) -> Range<Int> {
        var first: Int32 = 0, last: Int32 = 0
        cvips_turn_source_rows(
            Int32(clamping: width), Int32(clamping: height), degrees, Int32(clamping: x0),
            Int32(clamping: rows.lowerBound), Int32(clamping: outputWidth), Int32(clamping: rows.count), &first, &last)
        return Int(first)..<Int(last)
    }

    /// The bytes libvips fills with for `background` (one value, or one a band; empty is black).
    public static func ink(_ background: [Double], bands: Int) -> [UInt8] {
        var ink = [UInt8](repeating: 0, count: max(0, bands))
        background.withUnsafeBufferPointer { bg in
            ink.withUnsafeMutableBufferPointer {
                cvips_turn_ink(bg.baseAddress, Int32(bg.count), Int32(bands), $0.baseAddress)
            }
        }
        return ink
    }

    /// Makes canvas rows `rows`, columns `x0 ..< x0 + outputWidth`, of `source` (`width` x
    /// `height` x `bands`, rows packed) turned clockwise by `degrees`, into `dst` (rows
    /// `outputWidth * bands` bytes apart, the first at `dst`).
    /// - Parameter vectorized: use the AVX2 loop where the CPU has it (the same bytes; false
    ///   runs the portable loop alone, for comparing the two).
    /// - Returns: false when the arguments do not fit (bands outside 1...4, rows outside the canvas).
    public static func rows(
        source: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bands: Int, degrees: Double,
        ink: [UInt8], x0: Int, rows: Range<Int>, outputWidth: Int, into dst: UnsafeMutablePointer<UInt8>,
        vectorized: Bool = true
    ) -> Bool {
        guard let base = source.baseAddress, source.count >= width * height * bands, ink.count >= bands,
            let x0 = Int32(exactly: x0), let y0 = Int32(exactly: rows.lowerBound),
            let count = Int32(exactly: rows.count), let w = Int32(exactly: outputWidth)
        else { return false }
        let status = ink.withUnsafeBufferPointer { inkBytes in
            cvips_turn_rows(
                base, Int32(clamping: width), Int32(clamping: height), Int32(clamping: bands), width * bands, degrees,
                inkBytes.baseAddress, x0, y0, w, count, dst, outputWidth * bands, vectorized ? 1 : 0)
        }
        return status == 0
    }
}
