import QuireTestSupport
import Testing

@testable import QuirePageAnalysis

/// The scan trim's colours and thresholds, counted in histograms and with the lid distances made
/// once a page, give what sorting the samples gave (the sort-based code is kept here as the
/// reference): the trim, its fill colours and so every deskewed page stay the same bytes.
@Suite struct ScanTrimMedianTests {
    /// A copy `width` x `height` of `bands` bands: a paper-coloured page on a lid, with noise
    /// and a few dark marks, so medians fall on ties and between runs of equal values.
    static func copy(width: Int, height: Int, bands: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * bands)
        let page = (x0: width / 6, y0: height / 7, x1: width - width / 5, y1: height - height / 8)
        for y in 0..<height {
            for x in 0..<width {
                let inside = x >= page.x0 && x < page.x1 && y >= page.y0 && y < page.y1
                let mark = inside && rng.next(below: 9) == 0
                for b in 0..<bands {
                    let base = inside ? (mark ? 40 : 228 - 6 * b) : 70 + 9 * b
                    pixels[(y * width + x) * bands + b] = UInt8(base + rng.int(0...6))
                }
            }
        }
        return pixels
    }

    static let shapes: [(width: Int, height: Int, bands: Int)] = [
        (64, 48, 1), (63, 47, 3), (120, 90, 3), (41, 77, 4), (9, 9, 1), (200, 150, 3)
    ]

    static func referenceMedian(_ values: [UInt8]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 255 : Double(sorted[sorted.count / 2])
    }

    @Test func bandMediansAreTheSortedMiddle() {
        var rng = SplitMix64(seed: 5)
        for count in [0, 1, 2, 3, 10, 11, 256, 1001] {
            for bands in 1...4 {
                let pixels = (0..<(count * bands)).map { _ in UInt8(rng.int(100...110)) }
                var medians = BandMedians(bands: bands)
                pixels.withUnsafeBufferPointer { p in for i in 0..<count { medians.add(p, at: i) } }
                let expected = (0..<bands).map { b in
                    Self.referenceMedian((0..<count).map { pixels[$0 * bands + b] })
                }
                #expect(medians.values == expected, "\(count) pixels of \(bands) bands")
            }
        }
    }

    @Test func colourMediansMatchTheSortedOnes() {
        for (index, shape) in Self.shapes.enumerated() {
            let (w, h, bands) = shape
            let pixels = Self.copy(width: w, height: h, bands: bands, seed: UInt64(index))
            for ring in [1, 2, 5] {
                #expect(
                    ScanTrim.borderColour(pixels: pixels, width: w, height: h, bands: bands, ring: ring)
                        == Reference.borderColour(pixels: pixels, width: w, height: h, bands: bands, ring: ring))
                #expect(
                    ScanTrim.lidColour(pixels: pixels, width: w, height: h, bands: bands, ring: ring)
                        == Reference.lidColour(pixels: pixels, width: w, height: h, bands: bands, ring: ring))
            }
            for box in [
                ScanTrim.Box(x0: 0, y0: 0, x1: w, y1: h),
                ScanTrim.Box(x0: w / 6, y0: h / 7, x1: w - w / 5, y1: h - h / 8)
            ] {
                #expect(
                    ScanTrim.paperColour(pixels: pixels, width: w, bands: bands, box: box)
                        == Reference.paperColour(pixels: pixels, width: w, bands: bands, box: box))
            }
        }
    }

    @Test func distancesAndThresholdMatchTheSortedOnes() {
        for (index, shape) in Self.shapes.enumerated() {
            let (w, h, bands) = shape
            let pixels = Self.copy(width: w, height: h, bands: bands, seed: UInt64(10 + index))
            for lid in [[Double](repeating: 73, count: bands), (0..<bands).map { Double(250 - 40 * $0) }] {
                let d = ScanTrim.distances(pixels: pixels, count: w * h, bands: bands, colour: lid)
                #expect(d == Reference.distances(pixels: pixels, count: w * h, bands: bands, colour: lid))
                #expect(
                    ScanTrim.threshold(distances: d, width: w, height: h)
                        == Reference.threshold(distances: d, width: w, height: h))
            }
        }
    }

    /// The page box and the lid share around an outline read the distances made once; they
    /// give what each gave making its own from the pixels (a box is found on these copies).
    @Test func sharedDistancesGiveTheSameBoxAndShare() throws {
        for (index, shape) in Self.shapes.enumerated() where shape.width >= 60 {
            let (w, h, bands) = shape
            let pixels = Self.copy(width: w, height: h, bands: bands, seed: UInt64(20 + index))
            let lid = ScanTrim.lidColour(pixels: pixels, width: w, height: h, bands: bands)
            let distances = try #require(
                ScanTrim.LidDistances(pixels: pixels, width: w, height: h, bands: bands, lid: lid))
            #expect(distances.values == Reference.distances(pixels: pixels, count: w * h, bands: bands, colour: lid))
            let shared = try #require(ScanTrim.pageBox(distances))
            let own = try #require(ScanTrim.pageBox(pixels: pixels, width: w, height: h, bands: bands, background: lid))
            #expect(shared.box == own.box && shared.threshold == own.threshold)
            let outline = ScanTrim.Box(x0: w / 6, y0: h / 7, x1: w - w / 5, y1: h - h / 8)
            let share = ScanTrim.lidShareAround(outline, distances: distances)
            #expect(share != nil && share! > 0.9)
            #expect(
                share == ScanTrim.lidShareAround(outline, pixels: pixels, width: w, height: h, bands: bands, lid: lid))
        }
        #expect(ScanTrim.LidDistances(pixels: [1, 2, 3], width: 2, height: 2, bands: 1, lid: [0]) == nil)
    }
}

/// The sort-based code the histograms replaced (main 0d61d31), as it was.
private enum Reference {
    static func borderColour(pixels: [UInt8], width: Int, height: Int, bands: Int, ring: Int) -> [Double] {
        var samples = [[UInt8]](repeating: [], count: bands)
        let ring = max(1, min(ring, min(width, height) / 4))
        func add(_ x: Int, _ y: Int) {
            let base = (y * width + x) * bands
            for b in 0..<bands { samples[b].append(pixels[base + b]) }
        }
        for r in 0..<ring {
            for x in 0..<width { add(x, r); add(x, height - 1 - r) }
            for y in ring..<(height - ring) { add(r, y); add(width - 1 - r, y) }
        }
        return samples.map(ScanTrimMedianTests.referenceMedian)
    }

    static func lidColour(pixels: [UInt8], width: Int, height: Int, bands: Int, ring: Int) -> [Double] {
        let ring = max(1, min(ring, min(width, height) / 4))
        func median(_ points: [(Int, Int)]) -> [Double] {
            (0..<bands).map { b in
                ScanTrimMedianTests.referenceMedian(points.map { pixels[($0.1 * width + $0.0) * bands + b] })
            }
        }
        var sides: [[(Int, Int)]] = [[], [], [], []]
        for r in 0..<ring {
            for x in 0..<width { sides[0].append((x, r)); sides[1].append((x, height - 1 - r)) }
            for y in 0..<height { sides[2].append((r, y)); sides[3].append((width - 1 - r, y)) }
        }
        var centre: [(Int, Int)] = []
        for y in stride(from: height / 4, to: height - height / 4, by: 2) {
            for x in stride(from: width / 4, to: width - width / 4, by: 2) { centre.append((x, y)) }
        }
        let paper = median(centre)
        func distance(_ c: [Double]) -> Double { zip(c, paper).map { abs($0 - $1) }.max() ?? 0 }
        return sides.map(median).max { distance($0) < distance($1) } ?? paper
    }

    static func paperColour(pixels: [UInt8], width: Int, bands: Int, box: ScanTrim.Box) -> [Double] {
        let inset = max(2, min(box.width, box.height) / 60)
        let x0 = box.x0 + inset, x1 = box.x1 - 1 - inset, y0 = box.y0 + inset, y1 = box.y1 - 1 - inset
        guard x1 > x0, y1 > y0 else { return [Double](repeating: 255, count: bands) }
        var points: [Int] = []
        for x in x0...x1 { points.append(y0 * width + x); points.append(y1 * width + x) }
        for y in y0...y1 { points.append(y * width + x0); points.append(y * width + x1) }
        return (0..<bands).map { b in ScanTrimMedianTests.referenceMedian(points.map { pixels[$0 * bands + b] }) }
    }

    static func distances(pixels: [UInt8], count: Int, bands: Int, colour: [Double]) -> [UInt8] {
        let c = colour.map { Int($0.rounded()) }
        return (0..<count).map { i in
            UInt8((0..<bands).map { abs(Int(pixels[i * bands + $0]) - c[$0]) }.max()!)
        }
    }

    static func threshold(distances d: [UInt8], width: Int, height: Int) -> Double? {
        var centre: [UInt8] = []
        for y in (height / 4)..<(height - height / 4) {
            for x in (width / 4)..<(width - width / 4) { centre.append(d[y * width + x]) }
        }
        guard !centre.isEmpty else { return nil }
        centre.sort()
        let paper = Double(centre[centre.count / 2])
        return paper >= ScanTrim.minimumPaperContrast ? paper / 2 : nil
    }
}
