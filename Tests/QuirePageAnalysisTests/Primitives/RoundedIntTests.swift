import Testing

@testable import QuirePageAnalysis

/// `roundedInt` replaces `Int(rounded())` in the per-pixel loops: it must give the same integer
/// for every value they can meet, halves and the values just either side of them included.
@Suite struct RoundedIntTests {
    /// Halves, their neighbours one unit in the last place away, integers, and random values of
    /// both signs up to a million (a Hough accumulator's rho, a copy's coordinates).
    static func doubles() -> [Double] {
        var rng = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 0.49999999999999994, -0.49999999999999994, 4_503_599_627_370_495.5]
        for k in -1000...1000 {
            let half = Double(k) + 0.5
            values += [half, half.nextUp, half.nextDown, Double(k), Double(k).nextUp, Double(k).nextDown]
        }
        for _ in 0..<20000 { values.append(Double.random(in: -1e6...1e6, using: &rng)) }
        for _ in 0..<20000 { values.append(Double.random(in: -3...3, using: &rng)) }
        return values
    }

    @Test func doubleRoundsAsTheLibrary() {
        for x in Self.doubles() {
            #expect(x.roundedInt == Int(x.rounded()), "\(x)")
        }
    }

    @Test func floatRoundsAsTheLibrary() {
        var rng = SystemRandomNumberGenerator()
        var values: [Float] = [0, -0.0, 0.49999997, -0.49999997, 8_388_607.5]
        for k in -1000...1000 {
            let half = Float(k) + 0.5
            values += [half, half.nextUp, half.nextDown, Float(k), Float(k).nextUp, Float(k).nextDown]
        }
        for _ in 0..<20000 { values.append(Float.random(in: -1e5...1e5, using: &rng)) }
        for _ in 0..<20000 { values.append(Float.random(in: -3...3, using: &rng)) }
        for x in values {
            #expect(x.roundedInt == Int(x.rounded()), "\(x)")
        }
    }
}
