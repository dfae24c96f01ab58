#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import QuireGeometry
import Testing

@testable import QuirePageAnalysis

/// `RefinedSides` hands back a side measured before when every input of its refinement is the
/// same, bit for bit: what it returns must be what refining the side again gives, and a side
/// differing in any one input is measured anew.
@Suite struct RefinedSidesTests {
    /// A bright rectangle (a page) on a darker, noisy ground, three bands.
    static func page(width: Int, height: Int) -> [UInt8] {
        var rng = SystemRandomNumberGenerator()
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let inside = x >= 20 && x < width - 25 && y >= 15 && y < height - 18
                for c in 0..<3 {
                    pixels[(y * width + x) * 3 + c] =
                        inside ? UInt8.random(in: 200...215, using: &rng) : UInt8.random(in: 40...70, using: &rng)
                }
            }
        }
        return pixels
    }

    static func line(_ a: Point, _ b: Point) -> PageDetector.Line {
        let dx = b.x - a.x, dy = b.y - a.y
        let len = (dx * dx + dy * dy).squareRoot()
        return PageDetector.Line(nx: -dy / len, ny: dx / len, c: (-dy / len) * a.x + (dx / len) * a.y)
    }

    @Test func aSideMetAgainGetsTheLineRefiningItAgainGives() {
        let (width, height) = (160, 120)
        let pixels = Self.page(width: width, height: height)
        pixels.withUnsafeBufferPointer { px in
            let refiner = SideRefiner(field: InterleavedField(pixels: px, width: width, height: height, bands: 3))
            let known = RefinedSides()
            var rng = SystemRandomNumberGenerator()
            var asked: [(PageDetector.Line, Point, Point, Bool, Point, Double)] = []
            for _ in 0..<40 {
                // Near the left side of the page, a little off and turned.
                let a = Point(x: 20 + Double.random(in: -2...2, using: &rng), y: 16)
                let b = Point(x: 20 + Double.random(in: -2...2, using: &rng), y: Double(height - 19))
                let centroid = Point(x: Bool.random(using: &rng) ? 80 : -40, y: 60)
                asked.append(
                    (
                        Self.line(a, b), a, b, Bool.random(using: &rng), centroid,
                        [3.0, 4.0, 6.0].randomElement(using: &rng)!
                    ))
            }
            var found = 0
            // Each side asked twice, then once more with one input changed.
            for round in 0..<2 {
                for (line, a, b, brighter, centroid, radius) in asked {
                    let direct = refiner.refine(
                        line, from: a, to: b, insideBrighter: brighter, centroid: centroid, searchRadius: radius)
                    let kept = known.side(
                        line, from: a, to: b, insideBrighter: brighter, centroid: centroid, searchRadius: radius,
                        refiner: refiner)
                    #expect(
                        kept.map { [$0.nx, $0.ny, $0.c].map(\.bitPattern) }
                            == direct.map { [$0.nx, $0.ny, $0.c].map(\.bitPattern) })
                    if round == 0, direct != nil { found += 1 }
                }
            }
            #expect(found > 5)
            #expect(known.measured + known.reused == 2 * asked.count)
            #expect(known.reused >= asked.count)
            let (line, a, b, brighter, centroid, radius) = asked[0]
            let before = known.measured
            let changed: [PageDetector.Line?] = [
                known.side(
                    line, from: a, to: b, insideBrighter: !brighter, centroid: centroid, searchRadius: radius,
                    refiner: refiner),
                known.side(
                    line, from: a, to: b, insideBrighter: brighter, centroid: Point(x: 2 * a.x - centroid.x, y: 60),
                    searchRadius: radius, refiner: refiner),
                known.side(
                    line, from: a, to: b, insideBrighter: brighter, centroid: centroid, searchRadius: radius + 1,
                    refiner: refiner),
                known.side(
                    line, from: a, to: Point(x: b.x + 0.25, y: b.y), insideBrighter: brighter, centroid: centroid,
                    searchRadius: radius, refiner: refiner),
                known.side(
                    PageDetector.Line(nx: line.nx, ny: line.ny, c: line.c + 1), from: a, to: b,
                    insideBrighter: brighter, centroid: centroid, searchRadius: radius, refiner: refiner)
            ]
            #expect(changed.count == 5)
            #expect(known.measured == before + 5)
        }
    }
}
