// quire-bench-layout: median time of one frame's visible-item query per layout, for 10^3…10^6
// items. A plain harness (no package dependency): each query is timed alone with
// ContinuousClock at offsets spread over the whole content, and the median is reported.
// Run with `make bench-layout` (release build).
import QuireLayout

/// Keeps results alive so the optimiser cannot drop the queries.
nonisolated(unsafe) var sink = 0

struct Row {
    var layout: String
    var n: Int
    var medianMicros: Double
    var p90Micros: Double
    var items: Double
}

func measure<L: CollectionLayout>(
    _ name: String, _ layout: L, n: Int, repetitions: Int,
    offset: (Int, Int) -> Point
) -> Row {
    let clock = ContinuousClock()
    var samples: [Double] = []
    samples.reserveCapacity(repetitions)
    var itemTotal = 0
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for r in 0..<repetitions {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let index = Int((state >> 33) % UInt64(max(1, n)))
        let o = offset(index, r)
        let start = clock.now
        let items = layout.items(at: o, in: nil)
        let elapsed = clock.now - start
        itemTotal += items.count
        sink &+= items.count
        let c = elapsed.components
        samples.append(Double(c.seconds) * 1e6 + Double(c.attoseconds) / 1e12)
    }
    samples.sort()
    return Row(
        layout: name, n: n, medianMicros: samples[samples.count / 2],
        p90Micros: samples[samples.count * 9 / 10], items: Double(itemTotal) / Double(repetitions))
}

func format(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let r = (value * scale).rounded() / scale
    var s = String(r)
    if let dot = s.firstIndex(of: ".") {
        let fraction = s[s.index(after: dot)...].count
        if fraction < decimals { s += String(repeating: "0", count: decimals - fraction) }
    }
    return s
}

let repetitions = 20_000
var rows: [Row] = []
for exponent in 3...6 {
    var n = 1
    for _ in 0..<exponent { n *= 10 }
    var seed: UInt64 = 42
    let ratios: [Double] = (0..<n).map { _ in
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return 0.5 + Double(seed >> 40) / Double(1 << 24) * 1.5
    }
    let pager = Layouts.Pager(viewport: Size(width: 390, height: 844), aspectRatios: ratios)
    rows.append(
        measure("pager", pager, n: n, repetitions: repetitions) { i, r in
            Point(x: Double(i) * 390 + Double(r % 390), y: 0)
        })
    let strip = Layouts.Strip(viewport: Size(width: 390, height: 66), aspectRatios: ratios)
    rows.append(
        measure("strip", strip, n: n, repetitions: repetitions) { i, r in
            Point(x: Double(i) * 37 - strip.farInset + Double(r % 37), y: 0)
        })
    // The strip mid-delete: a collapsed cell, its delete shift and an expanding neighbour.
    var deleting = strip
    deleting.updates = [n / 2: [.collapse(1), .delete(0.5, .right)], n / 2 + 1: [.expand(0.5)]]
    rows.append(
        measure("strip-del", deleting, n: n, repetitions: repetitions) { i, r in
            Point(x: Double(n / 2 + (i % 7) - 3) * 37 - strip.farInset + Double(r % 37), y: 0)
        })
    let halves = Layouts.Halves(viewport: Size(width: 187, height: 812), count: n)
    rows.append(
        measure("halves", halves, n: n, repetitions: repetitions) { i, r in
            Point(x: 0, y: Double(i) * 300 - 256 + Double(r % 300))
        })
    let carousel = Layouts.Carousel(viewport: Size(width: 375, height: 180), count: n, centerIndex: n / 2)
    rows.append(
        measure("carousel", carousel, n: n, repetitions: repetitions) { _, r in
            let (c, o) = carousel.recentred(at: Point(x: Double(r % 1200) - 16, y: 0))
            sink &+= c.centerIndex
            return o
        })
    let featured = Layouts.Featured(viewport: Size(width: 375, height: 667), count: n)
    rows.append(
        measure("featured", featured, n: n, repetitions: repetitions) { i, r in
            Point(x: 0, y: Double(i) * 180 + Double(r % 180))
        })
}

print("layout    |        N | median µs/query | p90 µs | items/query")
print("----------|----------|-----------------|--------|------------")
for row in rows.sorted(by: { ($0.layout, $0.n) < ($1.layout, $1.n) }) {
    let name = row.layout.padding(9)
    print(
        "\(name) | \(String(row.n).leftPadding(8)) | \(format(row.medianMicros, 3).leftPadding(15)) | \(format(row.p90Micros, 3).leftPadding(6)) | \(format(row.items, 1).leftPadding(11))"
    )
}
if sink == Int.min { print(sink) }

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadding(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
