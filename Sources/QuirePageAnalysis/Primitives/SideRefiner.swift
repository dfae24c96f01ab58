#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import QuireGeometry

/// What a side is measured on: the sum of the colour channels (0...765) at a sub-pixel
/// position, bilinear, or nil outside the image.
package protocol IntensityField {
    var width: Int { get }
    var height: Int { get }
    func intensity(_ x: Double, _ y: Double) -> Double?
    /// Whether `intensity(x, y)` is not nil.
    func contains(_ x: Double, _ y: Double) -> Bool
    /// `intensity(x, y)` at a position `contains` accepts, without the check.
    func intensityInside(_ x: Double, _ y: Double) -> Double
    /// `SideRefiner.fillProfile`'s sums once its extreme samples are known to lie inside:
    /// `out[k]` is the sum of `intensityInside` at offset `k - radius - 1` along (`nx`, `ny`) and
    /// -1, 0, 1 along (`dx`, `dy`) from (`qx`, `qy`), added in that order.
    func fillProfileInside(
        _ out: UnsafeMutableBufferPointer<Double>, qx: Double, qy: Double, nx: Double, ny: Double, dx: Double,
        dy: Double, radius: Int)
}

extension IntensityField {
    @inline(__always)
    package func fillProfileInside(
        _ out: UnsafeMutableBufferPointer<Double>, qx: Double, qy: Double, nx: Double, ny: Double, dx: Double,
        dy: Double, radius: Int
    ) {
        fillProfileSampleBySample(out, qx: qx, qy: qy, nx: nx, ny: ny, dx: dx, dy: dy, radius: radius)
    }

    /// The protocol's loop, one `intensityInside` a sample: the default `fillProfileInside`, and
    /// the fallback of a field whose own loop covers only some of its images.
    @inline(__always)
    func fillProfileSampleBySample(
        _ out: UnsafeMutableBufferPointer<Double>, qx: Double, qy: Double, nx: Double, ny: Double, dx: Double,
        dy: Double, radius: Int
    ) {
        for k in 0..<(2 * radius + 3) {
            let o = Double(k - radius - 1)
            var v = 0.0
            for along in -1...1 {
                v += intensityInside(qx + o * nx + Double(along) * dx, qy + o * ny + Double(along) * dy)
            }
            out[k] = v
        }
    }
}

/// Interleaved 8-bit pixels (1 to 4 bands; grey counts three times). Borrowed: valid only
/// while the caller keeps the pixels alive (a refinement call).
struct InterleavedField: IntensityField {
    let pixels: UnsafeBufferPointer<UInt8>
    let width: Int
    let height: Int
    let bands: Int
    /// `ByteValues.shared.table`, read once per field rather than once per sample.
    private let values = ByteValues.shared.table

    init(pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bands: Int) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.bands = bands
    }

    @inline(__always)
    func intensity(_ x: Double, _ y: Double) -> Double? {
        guard contains(x, y) else { return nil }
        return intensityInside(x, y)
    }

    @inline(__always)
    func contains(_ x: Double, _ y: Double) -> Bool {
        x >= 0 && y >= 0 && x < Double(width - 1) && y < Double(height - 1)
    }

    /// The bilinear sum; three bands (the detection copy) spelled out so that the channel loop
    /// does not run on a count known only at run time (the same sums in the same order). Each
    /// byte's value comes from `ByteValues` (the same Double as converting it), and the
    /// offsets wrap instead of checking for overflow: `contains` keeps them inside the pixels.
    @inline(__always)
    func intensityInside(_ x: Double, _ y: Double) -> Double {
        if bands == 3 { return threeBandsInside(x, y) }
        let p = pixels.baseAddress.unsafelyUnwrapped, v = values
        let x0 = Int(x), y0 = Int(y)
        let fx = x - Double(x0), fy = y - Double(y0)
        let i00 = (y0 &* width &+ x0) &* bands
        let i10 = i00 &+ bands, i01 = i00 &+ width &* bands, i11 = i01 &+ bands
        @inline(__always)
        func channel(_ c: Int) -> Double {
            let top = v[Int(p[i00 &+ c])] * (1 - fx) + v[Int(p[i10 &+ c])] * fx
            let bottom = v[Int(p[i01 &+ c])] * (1 - fx) + v[Int(p[i11 &+ c])] * fx
            return top * (1 - fy) + bottom * fy
        }
        let channels = bands >= 3 ? 3 : 1
        let scale = bands >= 3 ? 1.0 : 3.0
        var sum = 0.0
        for c in 0..<channels { sum += channel(c) }
        return sum * scale
    }

    /// `intensityInside` of three bands, the band count written in: the sum of the channels'
    /// bilinear values, added in the channels' order.
    @inline(__always)
    func threeBandsInside(_ x: Double, _ y: Double) -> Double {
        let p = pixels.baseAddress.unsafelyUnwrapped, v = values
        let x0 = Int(x), y0 = Int(y)
        let fx = x - Double(x0), fy = y - Double(y0)
        let i00 = (y0 &* width &+ x0) &* 3
        let i10 = i00 &+ 3, i01 = i00 &+ width &* 3, i11 = i01 &+ 3
        @inline(__always)
        func channel(_ c: Int) -> Double {
            let top = v[Int(p[i00 &+ c])] * (1 - fx) + v[Int(p[i10 &+ c])] * fx
            let bottom = v[Int(p[i01 &+ c])] * (1 - fx) + v[Int(p[i11 &+ c])] * fx
            return top * (1 - fy) + bottom * fy
        }
        return ((0.0 + channel(0)) + channel(1)) + channel(2)
    }

    /// The protocol's loop with the band count decided once a profile rather than once a sample
    /// (the detection copy has three), and the three samples across the side written out: the
    /// same positions, sums and order.
    @inline(__always)
    func fillProfileInside(
        _ out: UnsafeMutableBufferPointer<Double>, qx: Double, qy: Double, nx: Double, ny: Double, dx: Double,
        dy: Double, radius: Int
    ) {
        guard bands == 3 else {
            fillProfileSampleBySample(out, qx: qx, qy: qy, nx: nx, ny: ny, dx: dx, dy: dy, radius: radius)
            return
        }
        for k in 0..<(2 * radius + 3) {
            let o = Double(k - radius - 1)
            var v = 0.0
            v += threeBandsInside(qx + o * nx + Double(-1) * dx, qy + o * ny + Double(-1) * dy)
            v += threeBandsInside(qx + o * nx + Double(0) * dx, qy + o * ny + Double(0) * dy)
            v += threeBandsInside(qx + o * nx + Double(1) * dx, qy + o * ny + Double(1) * dy)
            out[k] = v
        }
    }
}

/// Every byte's value as a Double, for the bilinear sums of `InterleavedField`: a load from this
/// table is cheaper than converting the byte (the refinement reads twelve bytes a sample), and it
/// is the same Double. Sendable because the table is written once, before anyone can read it,
/// and never again.
struct ByteValues: @unchecked Sendable {
    /// 256 entries, `table[b] == Double(b)`.
    let table: UnsafePointer<Double>

    /// The one table, allocated once and kept for the process's life.
    static let shared: ByteValues = {
        let values = UnsafeMutablePointer<Double>.allocate(capacity: 256)
        for b in 0..<256 { values[b] = Double(b) }
        return ByteValues(table: UnsafePointer(values))
    }()
}

/// Re-measures one side of the page on a larger copy: the sub-pixel position of the strongest
/// edge of the expected polarity along the side's normal, at many points along the side, then a
/// robust total-least-squares line through them.
struct SideRefiner<Field: IntensityField> {
    let field: Field

    /// Sides shorter than this (px) are too short to refit.
    static var minimumSideLength: Double { 8 }
    /// A side is sampled at about this many points (at least a pixel apart).
    static var samplesPerSide: Double { 300 }
    /// The share of the side left out at each end, where the corners' other sides interfere.
    static var cornerMargin: Double { 0.05 }
    /// The least edge strength a sample needs: about 6 grey levels a pixel (3 channels x 3
    /// samples along the side x 2 px of difference).
    static var minimumEdgeStrength: Double { 100 }
    /// At least this many samples must show a clear edge ...
    static var minimumSamples: Int { 8 }
    /// ... and at least this many tenths of those tried.
    static var minimumShownTenths: Int { 3 }
    /// Samples further from the fit than this many median deviations are outliers ...
    static var outlierDeviations: Double { 3 }
    /// ... but never closer than this (px), so a very straight side keeps its samples.
    static var outlierFloor: Double { 0.75 }
    /// Fewer inliers than this and the refit is not trusted.
    static var minimumInliers: Int { 6 }
    /// The refined side may turn at most this many degrees from the one found on the small copy.
    static var maximumTurnDegrees: Double { 3 }

    /// The edge profile across the side at the foot (`qx`, `qy`): `profile[k]` is the sum of the
    /// intensities at offset `k - radius - 1` along the normal (`nx`, `ny`) and -1, 0, 1 along
    /// the side (`dx`, `dy`); false (the profile unfinished) when any of them lies outside.
    ///
    /// Each coordinate of a sample is, in floating point too, monotonic in the offset and in the
    /// step along the side (products and sums round monotonically), so its least and greatest
    /// values over all the samples are at the four extreme ones: when those four are inside, all
    /// are, and the samples are read without a check each (`SideRefinerProfileTests` compares
    /// this with the checked loop).
    @inline(__always)
    func fillProfile(
        _ profile: inout [Double], qx: Double, qy: Double, nx: Double, ny: Double, dx: Double, dy: Double,
        radius: Int
    ) -> Bool {
        let first = Double(-radius - 1), last = Double(radius + 1)
        guard field.contains(qx + first * nx + Double(-1) * dx, qy + first * ny + Double(-1) * dy),
            field.contains(qx + first * nx + Double(1) * dx, qy + first * ny + Double(1) * dy),
            field.contains(qx + last * nx + Double(-1) * dx, qy + last * ny + Double(-1) * dy),
            field.contains(qx + last * nx + Double(1) * dx, qy + last * ny + Double(1) * dy)
        else { return false }
        profile.withUnsafeMutableBufferPointer { out in
            field.fillProfileInside(out, qx: qx, qy: qy, nx: nx, ny: ny, dx: dx, dy: dy, radius: radius)
        }
        return true
    }

    /// A better line for the side of `line` between `a` and `b`, or nil when too little of the
    /// side shows a clear edge.
    /// - Complexity: O(samples x searchRadius).
    func refine(
        _ line: PageDetector.Line, from a: Point, to b: Point,
        insideBrighter: Bool, centroid: Point, searchRadius: Double
    ) -> PageDetector.Line? {
        let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        guard length > Self.minimumSideLength else { return nil }
        let dx = (b.x - a.x) / length, dy = (b.y - a.y) / length
        let nx = line.nx, ny = line.ny
        let outward = line.distance(to: centroid) > 0 ? -1.0 : 1.0
        // Sign of the derivative along +n at the page edge.
        let expected = insideBrighter ? -outward : outward
        let radius = Int(searchRadius.rounded(.up))
        let step = max(1.0, length / Self.samplesPerSide)
        let start = length * Self.cornerMargin, end = length * (1 - Self.cornerMargin)
        var xs: [Double] = [], ys: [Double] = [], ws: [Double] = []
        var tried = 0
        do {
            var s = start
            var profile = [Double](repeating: 0, count: 2 * radius + 3)
            while s <= end {
                defer { s += step }
                tried += 1
                // Foot of the sample on the current line.
                let qx0 = a.x + s * dx, qy0 = a.y + s * dy
                let d0 = line.distance(qx0, qy0)
                let qx = qx0 - d0 * nx, qy = qy0 - d0 * ny
                guard
                    fillProfile(
                        &profile, qx: qx, qy: qy, nx: nx, ny: ny, dx: dx, dy: dy, radius: radius)
                else { continue }
                var bestK = -1, bestV = 0.0
                for k in 1..<(2 * radius + 2) {
                    let dv = expected * (profile[k + 1] - profile[k - 1])
                    if dv > bestV { bestV = dv; bestK = k }
                }
                guard bestK > 1, bestK < 2 * radius + 1, bestV >= Self.minimumEdgeStrength else { continue }
                let dm = expected * (profile[bestK] - profile[bestK - 2])
                let dp = expected * (profile[bestK + 2] - profile[bestK])
                let denom = dm - 2 * bestV + dp
                var delta = denom < 0 ? 0.5 * (dm - dp) / denom : 0
                delta = max(-0.5, min(0.5, delta))
                let offset = Double(bestK - radius - 1) + delta
                xs.append(qx + offset * nx); ys.append(qy + offset * ny); ws.append(bestV)
            }
        }
        guard xs.count >= max(Self.minimumSamples, tried * Self.minimumShownTenths / 10) else { return nil }
        var fitted = line
        var keep = [Bool](repeating: true, count: xs.count)
        for pass in 0..<3 {
            var sw = 0.0, sx = 0.0, sy = 0.0
            for i in xs.indices where keep[i] { sw += ws[i]; sx += ws[i] * xs[i]; sy += ws[i] * ys[i] }
            guard sw > 0 else { return nil }
            let mx = sx / sw, my = sy / sw
            var cxx = 0.0, cyy = 0.0, cxy = 0.0
            for i in xs.indices where keep[i] {
                let ex = xs[i] - mx, ey = ys[i] - my
                cxx += ws[i] * ex * ex; cyy += ws[i] * ey * ey; cxy += ws[i] * ex * ey
            }
            let theta = 0.5 * atan2(2 * cxy, cxx - cyy)
            var fnx = -sin(theta), fny = cos(theta)
            if fnx * nx + fny * ny < 0 { fnx = -fnx; fny = -fny }
            fitted = PageDetector.Line(nx: fnx, ny: fny, c: fnx * mx + fny * my)
            if pass == 2 { break }
            var residuals = xs.indices.filter { keep[$0] }.map { abs(fitted.distance(xs[$0], ys[$0])) }
            residuals.sort()
            let mad = residuals[residuals.count / 2]
            let limit = max(Self.outlierFloor, Self.outlierDeviations * mad)
            for i in xs.indices { keep[i] = abs(fitted.distance(xs[i], ys[i])) <= limit }
            if keep.filter({ $0 }).count < Self.minimumInliers { return nil }
        }
        // The refined side must stay close to the one found on the small copy.
        guard fitted.nx * nx + fitted.ny * ny > cos(Self.maximumTurnDegrees * Double.pi / 180) else { return nil }
        let mid = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        guard abs(fitted.distance(to: mid) - line.distance(to: mid)) <= searchRadius else { return nil }
        return fitted
    }
}
