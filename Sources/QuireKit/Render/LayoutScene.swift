import QuireLayout

/// Where a page image goes inside its cell and which part of it shows, in cell-local points
/// (origin at the cell's top-left, before the item's transform).
public struct ImagePlacement: Hashable, Sendable {
    /// The rect the whole image is scaled into.
    public var imageRect: Rect
    /// Only the part of the image inside this rect is drawn.
    public var clipRect: Rect

    /// An image placed at `imageRect` and shown only inside `clipRect` (cell-local points).
    public init(imageRect: Rect, clipRect: Rect) {
        self.imageRect = imageRect
        self.clipRect = clipRect
    }

    /// The default for a cell showing a picture: the image aspect-fills the cell bounds
    /// (UIKit's `scaleAspectFill` with `clipsToBounds`), centred, clipped to the cell.
    public static func aspectFill(imageAspectRatio: Double, cellSize: Size) -> ImagePlacement {
        let bounds = Rect(x: 0, y: 0, width: cellSize.width, height: cellSize.height)
        guard imageAspectRatio.isFinite, imageAspectRatio > 0, cellSize.width > 0, cellSize.height > 0 else {
            return ImagePlacement(imageRect: bounds, clipRect: bounds)
        }
        let cellAspect = cellSize.width / cellSize.height
        let size =
            imageAspectRatio > cellAspect
            ? Size(width: cellSize.height * imageAspectRatio, height: cellSize.height)
            : Size(width: cellSize.width, height: cellSize.width / imageAspectRatio)
        return ImagePlacement(imageRect: Rect(center: bounds.center, size: size), clipRect: bounds)
    }
}

/// A layout item that says how its page image sits in the cell, when that is not the default
/// aspect-fill (the pager's mask and parallax image translation).
public protocol ImagePlacing: LayoutItem {
    /// The placement for an image of `imageAspectRatio`; nil when none of the image shows.
    func imagePlacement(imageAspectRatio: Double) -> ImagePlacement?
}

extension Layouts.Pager.Item: ImagePlacing {
    /// docs/layout-formulas.md#pager: the image fills the mask and moves by `imageTranslation`; the mask does
    /// not move, so the visible part is `mask ∩ (mask shifted)`, also clipped to the cell.
    public func imagePlacement(imageAspectRatio: Double) -> ImagePlacement? {
        guard let visible = visibleImageRect else { return nil }
        let cell = Rect(x: 0, y: 0, width: attributes.size.width, height: attributes.size.height)
        guard let clip = visible.intersection(cell), clip.width > 0, clip.height > 0 else { return nil }
        return ImagePlacement(imageRect: mask.offsetBy(dx: imageTranslation, dy: 0), clipRect: clip)
    }
}

/// One page image to draw, in screen points of the picture.
public struct SceneItem: Hashable, Sendable {
    /// Position of the page in the batch (`LayoutReport.Page.index`).
    public var page: Int
    /// Where the whole image is scaled to.
    public var imageRect: Rect
    /// Only this part shows.
    public var clipRect: Rect
    public var alpha: Double
    public var zIndex: Int

    /// Page `page` drawn at `imageRect`, clipped to `clipRect`, with `alpha`, stacked by `zIndex`.
    public init(page: Int, imageRect: Rect, clipRect: Rect, alpha: Double, zIndex: Int) {
        self.page = page
        self.imageRect = imageRect
        self.clipRect = clipRect
        self.alpha = alpha
        self.zIndex = zIndex
    }
}

/// A picture of a layout state: a viewport-sized canvas and the images on it, in draw order.
public struct Scene: Hashable, Sendable {
    /// The picture size in points.
    public var size: Size
    /// Items sorted by zIndex (stable in layout order), so later items are drawn on top.
    public var items: [SceneItem]

    /// A scene of `size` points holding `items`, drawn in order of their zIndex.
    public init(size: Size, items: [SceneItem]) {
        self.size = size
        self.items = items
    }

    /// The scene of `layoutItems` seen at `offset`: each item's cell placed by its centre, size
    /// and transform (scale about the centre, then translation), its image by `ImagePlacement`.
    /// - Parameters:
    ///   - layoutItems: the layout's items meeting the viewport at `offset`.
    ///   - offset: the content offset the layout is seen at.
    ///   - viewport: the picture's size in points.
    ///   - pages: batch index of each layout item index.
    ///   - aspectRatios: image aspect ratio of each layout item index.
    /// - Complexity: O(n log n) in the number of items given.
    public static func project(
        _ layoutItems: [any LayoutItem], offset: Point, viewport: Size,
        pages: [Int], aspectRatios: [Double]
    ) -> Scene {
        var placed: [(order: Int, item: SceneItem)] = []
        for (order, layoutItem) in layoutItems.enumerated() {
            let a = layoutItem.attributes
            guard pages.indices.contains(a.index), a.alpha > 0, a.size.width > 0, a.size.height > 0,
                a.transform.scale > 0
            else { continue }
            let aspect = aspectRatios[a.index]
            let placement: ImagePlacement?
            if let placing = layoutItem as? any ImagePlacing {
                placement = placing.imagePlacement(imageAspectRatio: aspect)
            } else {
                placement = .aspectFill(imageAspectRatio: aspect, cellSize: a.size)
            }
            guard let placement else { continue }
            let s = a.transform.scale
            // Cell-local (0,0) on screen: the centre, moved by the translation, less half the
            // scaled size, less the content offset.
            let origin = Point(
                x: a.center.x + a.transform.tx - a.size.width * s / 2 - offset.x,
                y: a.center.y + a.transform.ty - a.size.height * s / 2 - offset.y)
            func toScreen(_ r: Rect) -> Rect {
                Rect(x: origin.x + r.x * s, y: origin.y + r.y * s, width: r.width * s, height: r.height * s)
            }
            let item = SceneItem(
                page: pages[a.index], imageRect: toScreen(placement.imageRect),
                clipRect: toScreen(placement.clipRect), alpha: min(1, a.alpha), zIndex: a.zIndex)
            placed.append((order, item))
        }
        placed.sort { ($0.item.zIndex, $0.order) < ($1.item.zIndex, $1.order) }
        return Scene(size: viewport, items: placed.map(\.item))
    }
}
