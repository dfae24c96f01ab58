#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Testing

@testable import QuirePageAnalysis

/// `SideRefiner.fillProfile` checks only the four extreme samples of a profile and then reads
/// every sample unchecked: it must give the checked loop's profile, to the last bit, and skip
/// exactly the feet where the checked loop meets a sample outside the image.
@Suite struct SideRefinerProfileTests {
    /// The refiner's original profile loop: every sample through the checked `intensity`.
    static func checkedProfile(
        _ field: InterleavedField, qx: Double, qy: Double, nx: Double, ny: Double, dx: Double, dy: Double,
        radius: Int
    ) -> [Double]? {
        var profile = [Double](repeating: 0, count: 2 * radius + 3)
        for k in 0..<(2 * radius + 3) {
            let o = Double(k - radius - 1)
            var v = 0.0
            for along in -1...1 {
                guard
                    let value = field.intensity(
                        qx + o * nx + Double(along) * dx, qy + o * ny + Double(along) * dy)
                else { return nil }
                v += value
            }
            profile[k] = v
        }
        return profile
    }

    /// The bilinear sum as `InterleavedField.intensity` once computed it for every band count.
    static func loopIntensity(_ f: InterleavedField, _ x: Double, _ y: Double) -> Double {
        let x0 = Int(x), y0 = Int(y)
        let fx = x - Double(x0), fy = y - Double(y0)
        let channels = f.bands >= 3 ? 3 : 1
        let scale = f.bands >= 3 ? 1.0 : 3.0
        var sum = 0.0
        let i00 = (y0 * f.width + x0) * f.bands
        let i10 = i00 + f.bands, i01 = i00 + f.width * f.bands, i11 = i01 + f.bands
        for c in 0..<channels {
            let top = Double(f.pixels[i00 + c]) * (1 - fx) + Double(f.pixels[i10 + c]) * fx
            let bottom = Double(f.pixels[i01 + c]) * (1 - fx) + Double(f.pixels[i11 + c]) * fx
            sum += top * (1 - fy) + bottom * fy
        }
        return sum * scale
    }

    @Test(arguments: [1, 3, 4])
    func uncheckedProfileEqualsTheCheckedOne(bands: Int) {
        var rng = SystemRandomNumberGenerator()
        let (width, height) = (57, 41)
        let pixels = (0..<(width * height * bands)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        pixels.withUnsafeBufferPointer { px in
            let field = InterleavedField(pixels: px, width: width, height: height, bands: bands)
            let refiner = SideRefiner(field: field)
            var skipped = 0, filled = 0
            for _ in 0..<4000 {
                let angle = Double.random(in: -Double.pi...Double.pi, using: &rng)
                let (dx, dy) = (cos(angle), sin(angle))
                let (nx, ny) = (-dy, dx)
                // Feet near and beyond every border, so some profiles leave the image by a hair.
                let qx = Double.random(in: -3...Double(width + 2), using: &rng)
                let qy = Double.random(in: -3...Double(height + 2), using: &rng)
                let radius = Int.random(in: 1...8, using: &rng)
                var profile = [Double](repeating: -1, count: 2 * radius + 3)
                let inside = refiner.fillProfile(
                    &profile, qx: qx, qy: qy, nx: nx, ny: ny, dx: dx, dy: dy, radius: radius)
                let checked = Self.checkedProfile(field, qx: qx, qy: qy, nx: nx, ny: ny, dx: dx, dy: dy, radius: radius)
                #expect(inside == (checked != nil), "foot (\(qx), \(qy)) radius \(radius)")
                if let checked, inside {
                    filled += 1
                    #expect(profile.map(\.bitPattern) == checked.map(\.bitPattern))
                } else {
                    skipped += 1
                }
            }
            // Both branches were exercised.
            #expect(filled > 100 && skipped > 100)
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func intensityEqualsTheChannelLoop(bands: Int) {
        var rng = SystemRandomNumberGenerator()
        let (width, height) = (23, 19)
        let pixels = (0..<(width * height * bands)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        pixels.withUnsafeBufferPointer { px in
            let field = InterleavedField(pixels: px, width: width, height: height, bands: bands)
            for _ in 0..<2000 {
                let x = Double.random(in: 0..<Double(width - 1), using: &rng)
                let y = Double.random(in: 0..<Double(height - 1), using: &rng)
                #expect(field.intensity(x, y)?.bitPattern == Self.loopIntensity(field, x, y).bitPattern)
            }
            #expect(field.intensity(Double(width - 1), 0) == nil)
            #expect(field.intensity(0, -0.001) == nil)
        }
    }
}
