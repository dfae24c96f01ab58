import QuireGeometry

/// Test images drawn in Swift: a page with text-like rows and a picture, seen through a
/// homography, on a textured or plain background, with a soft shadow and noise.
struct SyntheticPhoto {
    var width: Int
    var height: Int
    var quad: Quad
    var pixels: [UInt8]

    /// A small deterministic generator (xorshift) so tests repeat exactly.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state }
        mutating func unit() -> Double { Double(next() % 1_000_000) / 1_000_000 }
    }

    enum Background { case texture, light, clutter }

    /// Renders the page (`pageWidth` x `pageHeight` units, white with dark rows) into `quad`.
    init(width: Int, height: Int, quad: Quad, pageAspect: Double, background: Background, seed: UInt64 = 1) {
        self.width = width
        self.height = height
        self.quad = quad
        var random = Random(state: seed | 1)
        var bg = [UInt8](repeating: 0, count: width * height * 3)
        // Background: blocks of noise at 4 px, a gradient, optionally clutter rectangles.
        let base: (Double, Double, Double) = background == .light ? (205, 200, 195) : (90, 110, 70)
        let amplitude = background == .light ? 6.0 : 40.0
        var blocks = [Double](repeating: 0, count: (width / 4 + 1) * (height / 4 + 1) * 3)
        for i in blocks.indices { blocks[i] = (random.unit() - 0.5) * 2 * amplitude }
        for y in 0..<height {
            for x in 0..<width {
                let g = Double(x + y) / Double(width + height) * 30
                let b = ((y / 4) * (width / 4 + 1) + x / 4) * 3
                let o = (y * width + x) * 3
                bg[o] = clamp(base.0 + g + blocks[b]); bg[o + 1] = clamp(base.1 + g + blocks[b + 1]);
                bg[o + 2] = clamp(base.2 - g + blocks[b + 2])
            }
        }
        if background == .clutter {
            for _ in 0..<6 {
                let rx = Int(random.unit() * Double(width)), ry = Int(random.unit() * Double(height))
                let rw = 20 + Int(random.unit() * Double(width) / 5), rh = 20 + Int(random.unit() * Double(height) / 5)
                let colour = [UInt8(random.next() % 256), UInt8(random.next() % 256), UInt8(random.next() % 256)]
                for y in ry..<min(height, ry + rh) {
                    for x in rx..<min(width, rx + rw) {
                        for c in 0..<3 { bg[(y * width + x) * 3 + c] = colour[c] }
                    }
                }
            }
        }
        // The page: inverse-map each pixel into page units with 2 x 2 supersampling for the border.
        let pageW = 1000.0 * pageAspect, pageH = 1000.0
        let toPage = Homography(
            from: quad.corners,
            to: [
                Point(x: 0, y: 0), Point(x: pageW, y: 0),
                Point(x: pageW, y: pageH), Point(x: 0, y: pageH)
            ])!
        var rows: [Bool] = []
        for _ in 0..<200 { rows.append(random.unit() < 0.8) }
        func pageColour(_ p: Point) -> Double? {
            guard p.x >= 0, p.y >= 0, p.x < pageW, p.y < pageH else { return nil }
            let margin = 80.0
            if p.x > margin, p.x < pageW - margin, p.y > margin, p.y < pageH - margin {
                if p.y < 180 { return p.y < 120 && p.x < pageW * 0.6 ? 40 : 240 }  // header bar
                let row = Int((p.y - 180) / 28)
                let inRow = (p.y - 180).truncatingRemainder(dividingBy: 28) < 14
                let word = Int(p.x / 70) % 5 != 4
                if inRow, word, rows[min(199, row)] { return 35 }
            }
            return 240
        }
        var out = bg
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0.0, hits = 0
                for (dx, dy) in [(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)] {
                    // Continuous coordinates: pixel centres at +0.5, as Quire reports quads.
                    if let p = toPage.apply(Point(x: Double(x) + 0.5 + dx, y: Double(y) + 0.5 + dy)),
                        let v = pageColour(p)
                    {
                        sum += v; hits += 1
                    }
                }
                guard hits > 0 else { continue }
                let o = (y * width + x) * 3
                let share = Double(hits) / 4
                let v = sum / Double(hits)
                for c in 0..<3 {
                    out[o + c] = clamp(
                        Double(bg[o + c]) * (1 - share) + (v - (c == 2 ? 4 : 0)) * share + (random.unit() - 0.5) * 6)
                }
            }
        }
        pixels = out
    }

    /// A page rotated by `degrees` about its centre with keystone (the top edge shorter by `keystone`).
    static func quad(
        width: Int, height: Int, pageAspect: Double, degrees: Double, keystone: Double,
        fill: Double = 0.6, offset: (Double, Double) = (0, 0)
    ) -> Quad {
        let h = Double(min(width, height)) * fill, w = h * pageAspect
        let cx = Double(width) / 2 + offset.0, cy = Double(height) / 2 + offset.1
        let corners = [
            Point(x: -w / 2 * (1 - keystone), y: -h / 2), Point(x: w / 2 * (1 - keystone), y: -h / 2),
            Point(x: w / 2, y: h / 2), Point(x: -w / 2, y: h / 2)
        ]
        let a = degrees * Double.pi / 180
        return Quad(
            corners: corners.map {
                Point(x: cx + $0.x * cosine(a) - $0.y * sine(a), y: cy + $0.x * sine(a) + $0.y * cosine(a))
            })!
    }
}

func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }

#if canImport(Glibc)
    import Glibc
    func cosine(_ a: Double) -> Double { Glibc.cos(a) }
    func sine(_ a: Double) -> Double { Glibc.sin(a) }
#else
    import Darwin
    func cosine(_ a: Double) -> Double { Darwin.cos(a) }
    func sine(_ a: Double) -> Double { Darwin.sin(a) }
#endif
