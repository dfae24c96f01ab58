import QuireLayout
import VipsBridge

/// Draws a `Scene` with the real page images into one RGBA libvips image: one composite of
/// every visible item over a background canvas, evaluated when the caller writes it.
public struct SceneRenderer {
    /// Device pixels per point.
    public var scale: Double
    public var background: RenderColor
    /// The largest side an item's image may be scaled to (pixels); larger items are refused
    /// rather than decoded at absurd sizes.
    public var maxImageSide = 16_384

    /// A renderer at `scale` device pixels per point onto a canvas of `background`.
    public init(scale: Double, background: RenderColor) {
        self.scale = scale
        self.background = background
    }

    /// The picture's pixel size for a scene.
    public func pixelSize(of scene: Scene) -> PixelSize {
        PixelSize(
            width: max(1, Int((scene.size.width * scale).rounded())),
            height: max(1, Int((scene.size.height * scale).rounded())))
    }

    /// Renders `scene`, taking page images from `source` by batch index.
    /// - Returns: a 4-band 8-bit sRGB image (alpha kept; flatten it for JPEG or GIF).
    /// - Complexity: O(visible items); pixels are computed once, when the result is written.
    public func render(_ scene: Scene, pages: [Int: LayoutReport.Page], source: PageImageSource) throws -> VIPSImage {
        let size = pixelSize(of: scene)
        let grid = PixelGrid(scale: scale)
        let canvas = Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
        var layers: [(image: VIPSImage, x: Int, y: Int)] = []
        for item in scene.items {
            guard let page = pages[item.page] else {
                throw OutputFolderError.unknownPage(index: item.page, count: pages.count)
            }
            let image = grid.pixelRect(item.imageRect)
            let clip = grid.pixelRect(item.clipRect)
            let imageRect = Rect(
                x: Double(image.x), y: Double(image.y), width: Double(image.width), height: Double(image.height))
            let clipRect = Rect(
                x: Double(clip.x), y: Double(clip.y), width: Double(clip.width), height: Double(clip.height))
            guard image.width > 0, image.height > 0,
                let visible = imageRect.intersection(clipRect)?.intersection(canvas),
                visible.width >= 1, visible.height >= 1
            else { continue }
            guard image.width <= maxImageSide, image.height <= maxImageSide else {
                throw OutputFolderError.invalidOption(
                    "page \(page.index) would be drawn \(image.width)x\(image.height) px; lower --scale or --viewport")
            }
            var layer = try source.cachedImage(of: page, width: image.width, height: image.height)
            let vx = Int(visible.x), vy = Int(visible.y)
            let vw = Int(visible.width), vh = Int(visible.height)
            if vx != image.x || vy != image.y || vw != image.width || vh != image.height {
                layer = try layer.cropped(x: vx - image.x, y: vy - image.y, width: vw, height: vh)
            }
            layer = try layer.rgba()
            if item.alpha < 1 { layer = try layer.multipliedAlpha(item.alpha) }
            layers.append((layer, vx, vy))
        }
        let base = try VIPSImage.solid(width: size.width, height: size.height, color: background.rgba)
        return try base.compositing(layers)
    }
}
