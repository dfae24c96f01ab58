import VipsBridge

/// Pixel differences for comparing images in tests (DESIGN: images are compared by decoded
/// pixels with a tolerance, never by encoded bytes). They lived in VipsBridge with two C
/// wrappers, shipped in the library though only tests used them; here they read the pixels
/// through VipsBridge's public `pixelBytes()`.
extension VIPSImage {
    /// Why two images cannot be compared pixel by pixel.
    public struct DifferenceError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The largest absolute per-pixel, per-band difference to `other` (same size, bands, 8-bit).
    public func maxAbsoluteDifference(to other: VIPSImage) throws -> Double {
        let (a, b) = try comparablePixels(other)
        var most = 0
        for i in a.indices { most = max(most, abs(Int(a[i]) - Int(b[i]))) }
        return Double(most)
    }

    /// The mean absolute per-pixel, per-band difference to `other` (same size, bands, 8-bit).
    public func meanAbsoluteDifference(to other: VIPSImage) throws -> Double {
        let (a, b) = try comparablePixels(other)
        guard !a.isEmpty else { return 0 }
        var total = 0
        for i in a.indices { total += abs(Int(a[i]) - Int(b[i])) }
        return Double(total) / Double(a.count)
    }

    /// Both images' pixels, after checking that they line up byte for byte.
    private func comparablePixels(_ other: VIPSImage) throws -> ([UInt8], [UInt8]) {
        guard (width, height, bands) == (other.width, other.height, other.bands) else {
            throw DifferenceError(
                description:
                    "cannot compare \(width)x\(height)x\(bands) with \(other.width)x\(other.height)x\(other.bands)")
        }
        guard format == .uchar, other.format == .uchar else {
            throw DifferenceError(
                description: "pixel differences compare 8-bit images, not \(format) and \(other.format)")
        }
        return (try pixelBytes(), try other.pixelBytes())
    }
}
