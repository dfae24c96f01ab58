internal import CVips
internal import CVipsShim

extension VIPSImage {
    /// How an image sits inside a larger grid cell.
    public enum Alignment: Int, Sendable {
        case low = 0, centre = 1, high = 2
    }

    /// An 8-bit sRGB image of one colour, for canvases and backgrounds.
    /// - Parameter color: 3 (RGB) or 4 (RGBA) channel values 0-255.
    public static func solid(width: Int, height: Int, color: [Double]) throws -> VIPSImage {
        guard width > 0, height > 0 else {
            throw VIPSError(operation: "solid", message: "canvas size \(width)x\(height) is empty")
        }
        return try color.withUnsafeBufferPointer { ink in
            try make("solid") { cvips_solid(Int32(width), Int32(height), ink.baseAddress, Int32(ink.count), $0) }
        }
    }

    /// The image as 4-band 8-bit sRGB with alpha (opaque alpha added when there is none), the
    /// form every compositing call takes.
    public func rgba() throws -> VIPSImage {
        try Self.make("to_rgba") { cvips_to_rgba(pointer, $0) }
    }

    /// The image with its alpha band multiplied by `factor` (clamped to 0...1), for drawing
    /// an item at a layout's alpha.
    public func multipliedAlpha(_ factor: Double) throws -> VIPSImage {
        try Self.make("scale_alpha") { cvips_scale_alpha(pointer, Swift.max(0, Swift.min(1, factor)), $0) }
    }

    /// Draws RGBA `layers` over this image in order (later on top) with the "over" operator,
    /// each with its top-left at the given pixel position; one libvips composite.
    public func compositing(_ layers: [(image: VIPSImage, x: Int, y: Int)]) throws -> VIPSImage {
        if layers.isEmpty { return self }
        var pointers: [UnsafeMutablePointer<VipsImage>?] = layers.map { $0.image.pointer }
        let xs = layers.map { Int32($0.x) }, ys = layers.map { Int32($0.y) }
        return try withExtendedLifetime(layers) {
            try pointers.withUnsafeMutableBufferPointer { p in
                try Self.make("composite") {
                    cvips_composite_over(pointer, p.baseAddress, Int32(layers.count), xs, ys, $0)
                }
            }
        }
    }

    /// Joins images left to right, top-aligned, `spacing` pixels apart, gaps filled with
    /// `background`; the pipeline is a balanced tree, so hundreds of images stay shallow.
    public static func joinedRow(_ images: [VIPSImage], spacing: Int, background: [Double]) throws -> VIPSImage {
        guard !images.isEmpty else { throw VIPSError(operation: "join", message: "no images to join") }
        var pointers: [UnsafeMutablePointer<VipsImage>?] = images.map { $0.pointer }
        return try withExtendedLifetime(images) {
            try pointers.withUnsafeMutableBufferPointer { p in
                try make("join") {
                    cvips_join_row(
                        p.baseAddress, Int32(images.count), Int32(spacing), background,
                        Int32(background.count), $0)
                }
            }
        }
    }

    /// A grid `across` images wide (libvips arrayjoin): every cell is as large as the largest
    /// image, which is aligned inside it; gaps are filled with `background`.
    public static func grid(
        _ images: [VIPSImage], across: Int, spacing: Int, background: [Double],
        horizontal: Alignment = .centre, vertical: Alignment = .centre
    ) throws -> VIPSImage {
        guard !images.isEmpty else { throw VIPSError(operation: "arrayjoin", message: "no images to join") }
        var pointers: [UnsafeMutablePointer<VipsImage>?] = images.map { $0.pointer }
        return try withExtendedLifetime(images) {
            try pointers.withUnsafeMutableBufferPointer { p in
                try make("arrayjoin") {
                    cvips_arrayjoin(
                        p.baseAddress, Int32(images.count), Int32(Swift.max(1, across)),
                        Int32(spacing), background, Int32(background.count),
                        Int32(horizontal.rawValue), Int32(vertical.rawValue), $0)
                }
            }
        }
    }

    /// This image at `(x, y)` inside a `width` x `height` image filled with `background`.
    public func embedded(x: Int, y: Int, width: Int, height: Int, background: [Double]) throws -> VIPSImage {
        try Self.make("embed") {
            cvips_embed(
                pointer, Int32(x), Int32(y), Int32(width), Int32(height), background,
                Int32(background.count), $0)
        }
    }

    /// Alpha flattened onto an RGB `background` (unchanged when there is no alpha).
    public func flattened(onto background: [Double]) throws -> VIPSImage {
        let rgb = Array((background + [255, 255, 255]).prefix(3))
        return try Self.make("flatten") { cvips_flatten_rgb(pointer, rgb, $0) }
    }

    /// `text` rendered with Pango as an RGBA image (transparent where there is no ink).
    /// - Parameter font: a Pango font description such as `"sans bold 12"`.
    public static func text(
        _ text: String, font: String = "sans 12", dpi: Int = 72,
        color: [Double] = [0, 0, 0]
    ) throws -> VIPSImage {
        let ink = Array((color + [0, 0, 0]).prefix(3))
        return try make("text") { cvips_text_rgba(text, font, Int32(dpi), ink, $0) }
    }

    /// A copy (rendered to memory) with a rectangle drawn: filled, or a 1-pixel outline.
    public func drawingRect(x: Int, y: Int, width: Int, height: Int, color: [Double], fill: Bool) throws -> VIPSImage {
        try Self.make("draw_rect") {
            cvips_with_rect(
                pointer, color, Int32(color.count), Int32(x), Int32(y), Int32(width),
                Int32(height), fill ? 1 : 0, $0)
        }
    }

    /// Writes equally sized frames as one animated GIF or WebP (libvips's cgif and libwebp
    /// savers): frames are stacked and tagged with page height, per-frame delay and loop count.
    /// - Throws: `VIPSError` for other formats, unequal frames or encoder failures.
    public static func saveAnimation(
        _ frames: [VIPSImage], to path: String, format: SaveFormat,
        delayMilliseconds: Int, loop: Int = 0, quality: Int = 80
    ) throws {
        guard let first = frames.first else {
            throw VIPSError(operation: "save_animated", message: "no frames")
        }
        guard format == .gif || format == .webp else {
            throw VIPSError(operation: "save_animated", message: "\(format.rawValue) cannot hold an animation")
        }
        guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height && $0.bands == first.bands })
        else {
            throw VIPSError(operation: "save_animated", message: "frames differ in size or bands")
        }
        var pointers: [UnsafeMutablePointer<VipsImage>?] = frames.map { $0.pointer }
        try withExtendedLifetime(frames) {
            try pointers.withUnsafeMutableBufferPointer { p in
                try check(
                    "save_animated",
                    cvips_save_animated(
                        p.baseAddress, Int32(frames.count), Int32(Swift.max(10, delayMilliseconds)), Int32(loop),
                        Int32(format.cValue.rawValue), Int32(Swift.max(1, Swift.min(100, quality))), path))
            }
        }
    }
}
