/// Enlarges 8-bit grey pixels as libvips's `vips_resize` enlarges them, byte for byte: its
/// affine transform with the bicubic (Catmull-Rom) interpolator, in its fixed-point arithmetic.
///
/// Why: Tesseract reads each orientation crop enlarged so its glyphs are about the size its
/// model knows (`TesseractOSD.tesseractGuess`). libvips runs that enlargement pixel by pixel
/// through its tile machinery, at about Tesseract's own cost for the crop; here it is a loop
/// over precomputed taps (docs/benchmarks.md, "the crop Tesseract reads"). It must be the same
/// bytes: Tesseract samples the crop's glyphs in an order set by how many it found, so one
/// pixel changed anywhere can change which characters it reads and how sure it is
/// (`CubicEnlargerTests` compares it with `vips_resize`).
///
/// What libvips computes, for an enlargement by `scale` (over 1) of a `width` x `height` image:
/// - The output is `width x scale` by `height x scale`, each rounded (`size`).
/// - Output pixel x samples the input at `x x ia - 0.5`, where `ia` is the inverse transform's
///   `(1 / (scale x scale)) x scale`, added up column by column from 0 as libvips does, in
///   `Double`; rows the same way (computed, not added up). Edges repeat the outermost pixels.
/// - The sample's fraction picks one of 65 weight sets (fractions in 1/64ths, rounded to
///   nearest via a doubled, truncated index), Catmull-Rom weights scaled by 4096 and truncated.
/// - Four rows of four taps are each rounded (`+ 2048 >> 12`), then the column of four is
///   weighted and rounded the same way and clamped to 0...255.
public enum CubicEnlarger {
    /// Weights are fixed point with this many fraction bits (libvips's `VIPS_INTERPOLATE_SHIFT`).
    static let weightShift = 12
    /// A sample's fraction is resolved to 1 / 2^`positionShift` (libvips's `VIPS_TRANSFORM_SHIFT`).
    static let positionShift = 6

    /// The output size `enlarge` makes: each side times `scale`, plus a half, truncated (as
    /// libvips rounds the transformed corners).
    public static func size(width: Int, height: Int, scale: Double) -> (width: Int, height: Int) {
        (Int(Double(width) * scale + 0.5), Int(Double(height) * scale + 0.5))
    }

    /// `src` (`width` x `height` grey bytes, row-major) enlarged `scale` times (`size`).
    /// - Precondition: `scale > 1`, both sides at least 1, `src.count == width * height`.
    public static func enlarge(_ src: [UInt8], width: Int, height: Int, scale: Double) -> [UInt8] {
        precondition(scale > 1 && width > 0 && height > 0 && src.count == width * height)
        let (outWidth, outHeight) = size(width: width, height: height, scale: scale)
        let table = weightTable()
        let step = 1.0 / (scale * scale) * scale
        // Per output column: the leftmost tap's input column and the weight set (the same for
        // every row, since each row adds up the same steps from 0).
        var columns = [Int](repeating: 0, count: outWidth * 4)
        var columnWeights = [Int](repeating: 0, count: outWidth)
        var position = step * 0 + 0.5 + 1  // libvips's space: two pixels of border, input shifted 0.5
        for x in 0..<outWidth {
            let (whole, weights) = tap(position)
            for i in 0..<4 { columns[x * 4 + i] = min(width - 1, max(0, whole - 3 + i)) }
            columnWeights[x] = weights
            position += step
        }
        var out = [UInt8](repeating: 0, count: outWidth * outHeight)
        src.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<outHeight {
                    let (whole, weights) = tap(step * Double(y) + 0.5 + 1)
                    let cy = table[weights]
                    // The four input rows, clamped to the image.
                    let r0 = s.baseAddress! + min(height - 1, max(0, whole - 3)) * width
                    let r1 = s.baseAddress! + min(height - 1, max(0, whole - 2)) * width
                    let r2 = s.baseAddress! + min(height - 1, max(0, whole - 1)) * width
                    let r3 = s.baseAddress! + min(height - 1, whole) * width
                    let line = o.baseAddress! + y * outWidth
                    for x in 0..<outWidth {
                        let cx = table[columnWeights[x]]
                        let (a, b, c, d) = (columns[x * 4], columns[x * 4 + 1], columns[x * 4 + 2], columns[x * 4 + 3])
                        func across(_ r: UnsafePointer<UInt8>) -> Int {
                            rounded(cx.0 * Int(r[a]) + cx.1 * Int(r[b]) + cx.2 * Int(r[c]) + cx.3 * Int(r[d]))
                        }
                        let total = cy.0 * across(r0) + cy.1 * across(r1) + cy.2 * across(r2) + cy.3 * across(r3)
                        line[x] = UInt8(min(255, max(0, rounded(total))))
                    }
                }
            }
        }
        return out
    }

    /// A fixed-point sum brought back to whole units, rounded half up (an arithmetic shift).
    @inline(__always)
    static func rounded(_ value: Int) -> Int {
        (value + (1 << (weightShift - 1))) >> weightShift
    }

    /// The input pixel a sample at `position` (in libvips's bordered space, always positive)
    /// lies in, and the index of its weight set: its fraction in 1/128ths, truncated, halved
    /// with rounding up.
    @inline(__always)
    static func tap(_ position: Double) -> (whole: Int, weights: Int) {
        let scaled = Int(position * Double(2 << positionShift))
        let fraction = scaled & ((2 << positionShift) - 1)
        return (Int(position), (fraction + 1) >> 1)
    }

    /// Catmull-Rom's four weights at each fraction k / 64 (k = 0...64), times 4096, truncated;
    /// the fraction is a `Float` first and the weights are computed as libvips computes them.
    static func weightTable() -> [(Int, Int, Int, Int)] {
        let steps = 1 << positionShift
        return (0...steps).map { k in
            let x = Double(Float(k) / Float(steps))
            let cr1 = 1 - x
            let cr2 = -0.5 * x
            let cr3 = cr1 * cr2
            let c0 = cr1 * cr3
            let c3 = x * cr3
            let cr4 = c3 - c0
            let c1 = cr1 - c0 + cr4
            let c2 = x - c3 - cr4
            let unit = Double(1 << weightShift)
            return (Int(c0 * unit), Int(c1 * unit), Int(c2 * unit), Int(c3 * unit))
        }
    }
}
