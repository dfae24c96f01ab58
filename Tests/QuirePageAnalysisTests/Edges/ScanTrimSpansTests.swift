import QuireTestSupport
import Testing

@testable import QuirePageAnalysis

/// The scan trim's row and column spans, read a row at a time through pointers, are the spans the
/// element-by-element loop gave (`spansByElement` below, kept as the reference): the page box,
/// and so every trimmed scan, stays the same.
@Suite struct ScanTrimSpansTests {
    /// `ScanTrim.spans` one element at a time through a closure (the original loop).
    static func spansByElement(
        distances d: [UInt8], width: Int, threshold: Double,
        rows: Range<Int>, columns: Range<Int>, alongRows: Bool, run: Int = 3
    ) -> [Double] {
        let t = UInt8(max(0, min(255, threshold.rounded(.down))))
        func span(_ count: Int, _ at: (Int) -> UInt8) -> Double {
            var first = -1, last = -1, streak = 0
            for i in 0..<count {
                if at(i) > t {
                    streak += 1
                    if streak >= run {
                        if first < 0 { first = i - run + 1 }
                        last = i
                    }
                } else {
                    streak = 0
                }
            }
            return first < 0 ? 0 : Double(last - first + 1) / Double(max(1, count))
        }
        if alongRows {
            return rows.map { y in span(columns.count) { d[y * width + columns.lowerBound + $0] } }
        }
        return columns.map { x in span(rows.count) { d[(rows.lowerBound + $0) * width + x] } }
    }

    /// Distances `width` x `height` with runs of every length beyond and below a threshold: a
    /// page block, blobs, single pixels and short streaks, so every branch of the run count is taken.
    static func distances(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        var d = [UInt8](repeating: 0, count: width * height)
        let page = (x0: rng.int(0...width / 3), y0: rng.int(0...height / 3))
        for y in 0..<height {
            for x in 0..<width {
                let inside = x >= page.x0 && x < width - page.x0 && y >= page.y0 && y < height - page.y0
                let base = inside ? 60 : 4
                d[y * width + x] = UInt8(max(0, min(255, base + rng.int(-30...30))))
                if rng.next(below: 7) == 0 { d[y * width + x] = UInt8(rng.int(0...255)) }
            }
        }
        return d
    }

    @Test func rowAndColumnSpansAreTheElementLoops() {
        var rng = SplitMix64(seed: 11)
        var compared = 0
        for (width, height) in [(1, 1), (2, 9), (9, 2), (17, 13), (64, 48), (120, 90), (333, 211)] {
            for seed in 0..<6 {
                let d = Self.distances(width: width, height: height, seed: UInt64(seed * 31 + width))
                for _ in 0..<8 {
                    let y0 = rng.int(0...height - 1), y1 = rng.int(y0...height)
                    let x0 = rng.int(0...width - 1), x1 = rng.int(x0...width)
                    let threshold = Double(rng.int(0...80)) + (rng.next(below: 2) == 0 ? 0.5 : 0)
                    for run in [1, 2, 3, 5] {
                        for alongRows in [true, false] {
                            let fast = ScanTrim.spans(
                                distances: d, width: width, threshold: threshold, rows: y0..<y1, columns: x0..<x1,
                                alongRows: alongRows, run: run)
                            let loop = Self.spansByElement(
                                distances: d, width: width, threshold: threshold, rows: y0..<y1, columns: x0..<x1,
                                alongRows: alongRows, run: run)
                            #expect(fast == loop, "\(width)x\(height) rows \(y0)..<\(y1) columns \(x0)..<\(x1)")
                            compared += 1
                        }
                    }
                }
            }
        }
        #expect(compared == 7 * 6 * 8 * 4 * 2)
    }

    @Test func noBytesSpanNothing() {
        #expect(
            ScanTrim.spans(distances: [], width: 0, threshold: 3, rows: 0..<0, columns: 0..<0, alongRows: true) == [])
        #expect(
            ScanTrim.spans(distances: [], width: 0, threshold: 3, rows: 0..<2, columns: 0..<0, alongRows: true)
                == [0, 0])
    }
}
