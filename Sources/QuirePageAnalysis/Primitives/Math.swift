// The libm functions the analysis needs (sin, cos, atan2, pow, exp, log) come from the platform's
// C library, reached here without Foundation; imports are visible module-wide.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
