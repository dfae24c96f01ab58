import Foundation

/// The resampler's test inputs and its exact oracle (ResamplerTests). They live here, not in the
/// test file, so that `make test` compiles their pixel loops with -O (Package.swift's
/// `testOptimized`): at -Onone the card and the double-precision filter were most of that suite's
/// time (docs/benchmarks.md, "Test suite time").
public enum ExactResize {
    /// A page-like test card: a smooth gradient, hard-edged dark "words" and a fine checker
    /// patch (the detail a preview must not alias).
    public static func card(width: Int, height: Int, bands: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * bands)
        for y in 0..<height {
            for x in 0..<width {
                var v = 200 + (x * 40) / width - (y * 30) / height
                let word = ((x / 23) &* 7919 &+ (y / 11) &* 104_729) % 5 == 0 && (y % 11) < 7
                if word { v = 30 }
                if x < width / 5 && y < height / 5 && (x + y) % 2 == 0 { v = 0 }
                for b in 0..<bands { bytes[(y * width + x) * bands + b] = UInt8(clamping: v - b * 20) }
            }
        }
        return bytes
    }

    /// Lanczos3, `sinc(x) sinc(x / 3)` on (-3, 3), written out here rather than taken from the
    /// resampler, so that the oracle shares none of the code under test.
    public static func lanczos3(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if abs(x) >= 3 { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }

    /// The filter computed directly in doubles, with no fixed point, no rounding between the
    /// passes and no block averaging: Lanczos3 stretched by the factor, centres aligned,
    /// weights renormalised at the edges. (Pillow's LANCZOS gives the same: mean difference
    /// 0.02 levels on this card, checked once with numpy.)
    public static func reference(
        _ src: [UInt8], _ w: Int, _ h: Int, _ bands: Int, to ow: Int, _ oh: Int
    ) -> [Double] {
        func weights(_ n: Int, _ m: Int) -> [(Int, [Double])] {
            let scale = Double(n) / Double(m)
            let stretch = max(scale, 1)
            return (0..<m).map { i in
                let c = (Double(i) + 0.5) * scale
                let lo = max(0, Int((c - 3 * stretch - 0.5).rounded(.up)))
                let hi = min(n - 1, Int((c + 3 * stretch - 0.5).rounded(.down)))
                let ws = (lo...hi).map { lanczos3((Double($0) + 0.5 - c) / stretch) }
                let total = ws.reduce(0, +)
                return (lo, ws.map { $0 / total })
            }
        }
        let xs = weights(w, ow)
        let ys = weights(h, oh)
        var rows = [Double](repeating: 0, count: oh * w * bands)
        for (y, (lo, ws)) in ys.enumerated() {
            for (k, wt) in ws.enumerated() {
                for i in 0..<(w * bands) { rows[y * w * bands + i] += wt * Double(src[(lo + k) * w * bands + i]) }
            }
        }
        var out = [Double](repeating: 0, count: ow * oh * bands)
        for y in 0..<oh {
            for (x, (lo, ws)) in xs.enumerated() {
                for b in 0..<bands {
                    var v = 0.0
                    for (k, wt) in ws.enumerated() { v += wt * rows[(y * w + lo + k) * bands + b] }
                    out[(y * ow + x) * bands + b] = v
                }
            }
        }
        return out
    }

    /// The mean and the largest absolute difference between `ours` and the exact values
    /// clamped to 0...255.
    public static func differences(_ ours: [UInt8], _ exact: [Double]) -> (mean: Double, worst: Double) {
        let differences = zip(ours, exact).map { abs(Double($0) - min(max($1, 0), 255)) }
        return (differences.reduce(0, +) / Double(differences.count), differences.max()!)
    }

    /// How many bytes of `a` and `b` differ, position by position.
    public static func differingBytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).filter { $0 != $1 }.count
    }
}
