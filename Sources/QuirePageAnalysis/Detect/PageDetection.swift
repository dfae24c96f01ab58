/// A page found in a photo: its four corners (or none) and how sure the detector is.
///
/// Corners are in the pixels of the image the detector was given (display pixels, after EXIF
/// orientation), ordered top-left, top-right, bottom-right, bottom-left of the page as read.
public struct PageDetection: Sendable, Hashable, Codable {
    /// The page outline, or nil when nothing convincing was found (keep the whole frame).
    public var quad: Quad?
    /// How sure the detector is, 0...1; low when `quad` is nil.
    public var confidence: Double

    /// A detection: the page's `quad` (nil when none was found) and how sure the detector is (0...1).
    public init(quad: Quad?, confidence: Double) {
        self.quad = quad
        self.confidence = confidence
    }

    /// Nothing found.
    public static let none = PageDetection(quad: nil, confidence: 0)
}

extension Quad {
    /// The same four points reordered as top-left, top-right, bottom-right, bottom-left of a page
    /// rotated by less than 45 degrees: clockwise on screen, starting at the corner whose edges
    /// point most nearly right and down.
    /// - Complexity: O(1).
    public func readingOrdered() -> Quad {
        let pts = corners
        let cx = pts.reduce(0) { $0 + $1.x } / 4, cy = pts.reduce(0) { $0 + $1.y } / 4
        // Clockwise on a y-down screen = increasing atan2(dy, dx).
        let sorted = pts.sorted { atan2($0.y - cy, $0.x - cx) < atan2($1.y - cy, $1.x - cx) }
        var best = 0, bestCost = Double.infinity
        for r in 0..<4 {
            var cost = 0.0
            for k in 0..<4 {
                let a = sorted[(r + k) % 4], b = sorted[(r + k + 1) % 4]
                let angle = atan2(b.y - a.y, b.x - a.x)
                let expected = Double(k) * Double.pi / 2
                var diff = abs(angle - expected).truncatingRemainder(dividingBy: 2 * Double.pi)
                if diff > Double.pi { diff = 2 * Double.pi - diff }
                cost += diff
            }
            if cost < bestCost { bestCost = cost; best = r }
        }
        return Quad(
            topLeft: sorted[best], topRight: sorted[(best + 1) % 4],
            bottomRight: sorted[(best + 2) % 4], bottomLeft: sorted[(best + 3) % 4])
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
