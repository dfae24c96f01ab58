import VipsBridge

/// The page region of a source image as an 8-bit mask (`--masks`): 255 inside the quad, 0
/// outside, for apps that draw the detected border over the photo.
public enum PageMask {
    /// Mask pixels (one byte per pixel) of a `width` x `height` image: a pixel is inside when
    /// its centre is inside `quad` (continuous coordinates, as detection reports them: the image
    /// spans 0...width, pixel centres at +0.5).
    /// - Complexity: O(width x height) to fill, O(height) to find the spans of a convex quad.
    public static func pixels(quad: Quad, width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: max(0, width * height))
        guard width > 0, height > 0, quad.isFinite else { return out }
        let c = quad.corners
        for y in 0..<height {
            let fy = Double(y) + 0.5
            var lo = Double.infinity, hi = -Double.infinity
            for i in 0..<4 {
                let a = c[i], b = c[(i + 1) % 4]
                if (a.y <= fy && b.y >= fy) || (b.y <= fy && a.y >= fy) {
                    if a.y == b.y { lo = min(lo, a.x, b.x); hi = max(hi, a.x, b.x); continue }
                    let x = a.x + (fy - a.y) / (b.y - a.y) * (b.x - a.x)
                    lo = min(lo, x); hi = max(hi, x)
                }
            }
            guard lo <= hi else { continue }
            let x0 = max(0, Int((lo - 0.5).rounded(.up))), x1 = min(width - 1, Int((hi - 0.5).rounded(.down)))
            if x0 > x1 { continue }
            let row = y * width
            for x in x0...x1 { out[row + x] = 255 }
        }
        return out
    }

    /// Writes the mask as an 8-bit grey PNG at `path`.
    /// - Throws: `VIPSError` when the file cannot be written.
    public static func write(quad: Quad, width: Int, height: Int, to path: String) throws {
        let bytes = pixels(quad: quad, width: width, height: height)
        try VIPSImage.fromPixels(bytes, width: width, height: height, bands: 1)
            .save(to: path, options: .init(format: .png, compression: 6))
    }
}
