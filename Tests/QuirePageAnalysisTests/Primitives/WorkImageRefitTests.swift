import QuireTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@testable import QuirePageAnalysis

/// `WorkImage.refit` sums each polarity's moments in a value of its own: the lines and weights
/// must be the nested-array loop's (kept here as the reference) to the last bit.
@Suite struct WorkImageRefitTests {
    /// The original refit, its sums in a nested array.
    static func reference(_ start: PageDetector.Line, edges: WorkImage.EdgeSet, polarity fixed: Double)
        -> (line: PageDetector.Line, weights: (Double, Double))
    {
        var line = start
        let near = edges.x.indices.filter {
            abs(start.nx * edges.x[$0] + start.ny * edges.y[$0] - start.c) <= WorkImage.refitFirstBand
        }
        var polarity = fixed
        var weights = (0.0, 0.0)
        for pass in 0..<3 {
            let maxDist = pass == 0 ? WorkImage.refitFirstBand : WorkImage.refitBand
            var sums = [[Double]](repeating: [Double](repeating: 0, count: 6), count: 2)
            for k in near {
                let x = edges.x[k], y = edges.y[k]
                if abs(line.distance(x, y)) > maxDist { continue }
                let gn = edges.ux[k] * line.nx + edges.uy[k] * line.ny
                if abs(gn) < WorkImage.refitAlignment { continue }
                let group = gn > 0 ? 0 : 1
                if polarity != 0 && (group == 0) != (polarity > 0) { continue }
                let wt = edges.weight[k]
                sums[group][0] += wt; sums[group][1] += wt * x; sums[group][2] += wt * y
                sums[group][3] += wt * x * x; sums[group][4] += wt * y * y; sums[group][5] += wt * x * y
            }
            if pass == 0 { weights = (sums[0][0], sums[1][0]) }
            if polarity == 0 { polarity = sums[0][0] >= sums[1][0] ? 1 : -1 }
            let s = sums[polarity > 0 ? 0 : 1]
            let sw = s[0]
            guard sw > WorkImage.minimumRefitWeight else { return (line, weights) }
            let mx = s[1] / sw, my = s[2] / sw
            let cxx = s[3] / sw - mx * mx, cyy = s[4] / sw - my * my, cxy = s[5] / sw - mx * my
            let theta = 0.5 * atan2(2 * cxy, cxx - cyy)
            var nx = -sin(theta), ny = cos(theta)
            if nx * line.nx + ny * line.ny < 0 { nx = -nx; ny = -ny }
            line = PageDetector.Line(nx: nx, ny: ny, c: nx * mx + ny * my)
        }
        return (line, weights)
    }

    /// Edge pixels on two parallel lines of opposite polarity (a border and its shadow), with
    /// jitter, plus clutter pointing every way.
    static func edges(angle: Double, offset: Double, rng: inout SplitMix64) -> WorkImage.EdgeSet {
        var set = WorkImage.EdgeSet()
        let (nx, ny) = (cos(angle), sin(angle))
        func jitter() -> Double { Double(rng.int(-100...100)) / 100 }
        for t in 0..<300 {
            for (shift, sign) in [(0.0, 1.0), (1.2, -1.0)] where rng.next(below: 5) != 0 {
                let along = Double(t) - 150
                set.x.append(nx * (offset + shift + jitter()) - ny * along)
                set.y.append(ny * (offset + shift + jitter()) + nx * along)
                let a = angle + jitter() * 0.2
                set.ux.append(sign * cos(a)); set.uy.append(sign * sin(a))
                set.weight.append(Double(rng.int(30...300)) / 100)
            }
        }
        for _ in 0..<200 {
            set.x.append(Double(rng.int(-200...200))); set.y.append(Double(rng.int(-200...200)))
            let a = Double(rng.int(0...628)) / 100
            set.ux.append(cos(a)); set.uy.append(sin(a))
            set.weight.append(Double(rng.int(30...300)) / 100)
        }
        return set
    }

    @Test func refitIsTheNestedArrayLoop() {
        let work = WorkImage(
            pixels: [UInt8](repeating: 128, count: 16 * 16), width: 16, height: 16, bands: 1, factor: 1)
        var rng = SplitMix64(seed: 41)
        var moved = 0
        for _ in 0..<200 {
            let angle = Double(rng.int(0...628)) / 100, offset = Double(rng.int(-80...80))
            let set = Self.edges(angle: angle, offset: offset, rng: &rng)
            let start = PageDetector.Line(
                nx: cos(angle + 0.02), ny: sin(angle + 0.02), c: offset + Double(rng.int(-150...150)) / 100)
            for polarity in [0.0, 1.0, -1.0] {
                let fast = work.refit(start, edges: set, polarity: polarity)
                let slow = Self.reference(start, edges: set, polarity: polarity)
                #expect(
                    [fast.line.nx, fast.line.ny, fast.line.c, fast.weights.0, fast.weights.1].map(\.bitPattern)
                        == [slow.line.nx, slow.line.ny, slow.line.c, slow.weights.0, slow.weights.1].map(\.bitPattern))
                if fast.line != start { moved += 1 }
            }
        }
        #expect(moved > 300)
    }
}
