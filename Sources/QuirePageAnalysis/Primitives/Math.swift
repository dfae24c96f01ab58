// The libm functions the analysis needs (sin, cos, atan2, pow, exp, log) come from the platform's
// C library, reached here without Foundation; imports are visible module-wide.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Double {
    /// `Int(rounded())` (halves away from zero) without the C library's `round`, which the
    /// baseline x86-64 build calls for every `rounded()` (no rounding instruction before SSE4.1):
    /// the per-pixel loops round several times a pixel. The same integer for every finite value:
    /// the value less its truncation is its fraction, exactly (`RoundedIntTests` pins it). Written
    /// without branches: in the Hough vote which way a value rounds is a coin toss.
    @inline(__always)
    var roundedInt: Int {
        let whole = Int(self)
        let fraction = self - Double(whole)
        return whole &+ (fraction >= 0.5 ? 1 : 0) &- (fraction <= -0.5 ? 1 : 0)
    }
}

extension Float {
    /// `Int(rounded())` without the C library's `roundf`, as `Double.roundedInt`.
    @inline(__always)
    var roundedInt: Int {
        let whole = Int(self)
        let fraction = self - Float(whole)
        return whole &+ (fraction >= 0.5 ? 1 : 0) &- (fraction <= -0.5 ? 1 : 0)
    }
}
