import Testing

@testable import QuirePageAnalysis

/// `WorkImage.boxPlanes` sums each block in integers, all channels in one pass, and converts
/// once; it must give the planes of the row-by-row float sums (`boxPlanesByRow`, the original
/// loop) to the last bit, for every band count and the factors the detector uses.
@Suite struct WorkImageBoxTests {
    @Test(arguments: [1, 2, 3, 4])
    func integerSumsEqualTheFloatRowSums(bands: Int) {
        var rng = SystemRandomNumberGenerator()
        let (width, height) = (53, 38)
        let pixels = (0..<(width * height * bands)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        for factor in [1, 2, 3, 4, 5, 7, 12] {
            let size = (width / factor, height / factor, bands >= 3 ? 3 : 1)
            let fast = WorkImage.boxPlanes(pixels, width: width, bands: bands, factor: factor, size: size)
            let rows = WorkImage.boxPlanesByRow(pixels, width: width, bands: bands, factor: factor, size: size)
            #expect(fast.count == rows.count)
            #expect(fast.map { $0.map(\.bitPattern) } == rows.map { $0.map(\.bitPattern) }, "factor \(factor)")
        }
    }

    @Test func whiteBlocksOfTheLargestFactorStayExact() {
        let factor = WorkImage.largestIntegerSumFactor
        let pixels = [UInt8](repeating: 255, count: factor * factor * 3)
        let fast = WorkImage.boxPlanes(pixels, width: factor, bands: 3, factor: factor, size: (1, 1, 3))
        let rows = WorkImage.boxPlanesByRow(pixels, width: factor, bands: 3, factor: factor, size: (1, 1, 3))
        #expect(fast == rows)
        #expect(fast[0][0] == 255)
    }
}
