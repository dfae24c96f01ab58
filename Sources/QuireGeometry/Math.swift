// QuireGeometry and QuireLayout use no Foundation and no libvips. The few libm functions the
// geometry needs (sin, cos, atan2) come from the platform's C library, reached here in one place.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@inline(__always) func _sin(_ x: Double) -> Double { sin(x) }
@inline(__always) func _cos(_ x: Double) -> Double { cos(x) }

/// Elementary functions re-exported without Foundation, for QuireGeometry's dependents.
public enum GeometryMath {
    /// The sine of `x` radians.
    @inline(__always) public static func sine(_ x: Double) -> Double { sin(x) }
    /// The cosine of `x` radians.
    @inline(__always) public static func cosine(_ x: Double) -> Double { cos(x) }
    /// The angle of the vector (`x`, `y`) in radians, in -π...π.
    @inline(__always) public static func arcTangent2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
    /// `x` raised to the power `y`.
    @inline(__always) public static func power(_ x: Double, _ y: Double) -> Double { pow(x, y) }
    /// e raised to the power `x`.
    @inline(__always) public static func exponential(_ x: Double) -> Double { exp(x) }
}
