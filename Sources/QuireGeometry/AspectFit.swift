/// Aspect-fit: the largest rect of a given aspect ratio centred inside a box (AVFoundation's
/// `AVMakeRect(aspectRatio:insideRect:)`), used for the pager's mask and for every output size.
public enum AspectFit {
    /// Why an aspect-fit could not be computed.
    public enum Failure: Error, Equatable, Sendable {
        /// The content size has a zero, negative, NaN or infinite side.
        case degenerateContent(Size)
        /// The box has a negative, NaN or infinite side.
        case degenerateBox(Rect)
    }

    /// The largest rect with the aspect ratio of `content` centred in `box`:
    /// `s = min(W/w, H/h)`, size `(w·s, h·s)`, centred. Exact in Doubles; no rounding.
    /// - Throws: `Failure` for degenerate sizes instead of producing NaN or infinity.
    public static func rect(for content: Size, in box: Rect) throws(Failure) -> Rect {
        guard content.isFinite, content.width > 0, content.height > 0 else {
            throw .degenerateContent(content)
        }
        guard box.isFinite, box.width >= 0, box.height >= 0 else { throw .degenerateBox(box) }
        let scale = Swift.min(box.width / content.width, box.height / content.height)
        let size = Size(width: content.width * scale, height: content.height * scale)
        return Rect(center: box.center, size: size)
    }

    /// Like `rect(for:in:)`, but degenerate input gives an empty rect at the box's centre
    /// (or `.zero` when the box itself is degenerate): for callers that draw, never throw.
    public static func rectOrEmpty(for content: Size, in box: Rect) -> Rect {
        do {
            return try rect(for: content, in: box)
        } catch {
            return box.isFinite ? Rect(center: box.center, size: .zero) : .zero
        }
    }

    /// The pixel size that fits `content` inside a `maxWidth` x `maxHeight` box without
    /// enlarging it, each side rounded to the nearest pixel and at least 1.
    /// - Returns: nil for degenerate content or box.
    public static func pixelSize(
        for content: PixelSize, fittingIn maxWidth: Int, _ maxHeight: Int,
        allowEnlarging: Bool = false
    ) -> PixelSize? {
        guard content.width > 0, content.height > 0, maxWidth > 0, maxHeight > 0 else { return nil }
        var scale = Swift.min(
            Double(maxWidth) / Double(content.width),
            Double(maxHeight) / Double(content.height))
        if !allowEnlarging { scale = Swift.min(scale, 1) }
        let w = Swift.max(1, Swift.min(maxWidth, Int((Double(content.width) * scale).rounded())))
        let h = Swift.max(1, Swift.min(maxHeight, Int((Double(content.height) * scale).rounded())))
        return PixelSize(width: w, height: h)
    }
}
