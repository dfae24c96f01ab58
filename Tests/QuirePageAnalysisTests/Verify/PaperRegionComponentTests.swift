import QuireTestSupport
import Testing

@testable import QuirePageAnalysis

/// The paper region's largest component, its neighbours visited without an array made a pixel,
/// is the component the array loop found (kept here as the reference), in the same order.
@Suite struct PaperRegionComponentTests {
    static func reference(_ mask: [Bool], width: Int, height: Int) -> [Int]? {
        var seen = [Bool](repeating: false, count: mask.count)
        var best: [Int] = []
        var stack: [Int] = []
        for start in mask.indices where mask[start] && !seen[start] {
            var component: [Int] = []
            seen[start] = true
            stack.append(start)
            while let i = stack.popLast() {
                component.append(i)
                let (x, y) = (i % width, i / width)
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                where nx >= 0 && ny >= 0 && nx < width && ny < height {
                    let j = ny * width + nx
                    if mask[j], !seen[j] {
                        seen[j] = true
                        stack.append(j)
                    }
                }
            }
            if component.count > best.count { best = component }
        }
        return best.isEmpty ? nil : best
    }

    @Test func largestComponentIsTheArrayLoops() {
        var rng = SplitMix64(seed: 23)
        var found = 0
        for (width, height) in [(1, 1), (1, 7), (7, 1), (5, 5), (16, 9), (40, 30), (64, 64)] {
            for density in [0, 2, 4, 5, 6, 8, 10] {
                let mask = (0..<(width * height)).map { _ in rng.next(below: 10) < density }
                let fast = PaperRegion.largestComponent(mask, width: width, height: height)
                #expect(fast == Self.reference(mask, width: width, height: height), "\(width)x\(height) \(density)")
                if fast != nil { found += 1 }
            }
        }
        #expect(found > 30)
    }
}
