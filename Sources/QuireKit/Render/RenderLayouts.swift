import QuireLayout

/// What a table entry gets to build its layout from.
public struct RenderLayoutContext: Sendable {
    /// The viewport of the picture, in points.
    public var viewport: Size
    /// Page aspect ratios (width / height), in batch order.
    public var aspectRatios: [Double]
    /// The reference viewport of layout.json.
    public var reference: LayoutReport.Viewport

    /// The context for a picture of `viewport`, pages of these `aspectRatios`, and layout.json's `reference` viewport.
    public init(viewport: Size, aspectRatios: [Double], reference: LayoutReport.Viewport) {
        self.viewport = viewport
        self.aspectRatios = aspectRatios
        self.reference = reference
    }
}

/// One layout state to draw: the layout (possibly mid-animation) and the offset it is seen at.
public struct RenderLayoutState: Sendable {
    public var layout: AnyRenderLayout
    public var offset: Point

    /// The state of `layout` seen at content `offset`.
    public init(layout: AnyRenderLayout, offset: Point) {
        self.layout = layout
        self.offset = offset
    }
}

/// The renderer's table of layouts and animations: every layout and animation plugs in here,
/// by name, and nothing else in the renderer knows which layouts exist.
///
/// The layouts come from `LayoutCatalogue` (its `renderLayout`); adding an animation is one
/// `AnimationEntry` whose `state` returns the layout and offset at a progress.
/// Entries whose `make`/`state` is nil are known names reported as "not yet available".
public enum RenderLayouts {
    /// A layout `quire render` can draw, by name, and how to build it (nil: known but not built in yet).
    public struct LayoutEntry: Sendable {
        public var name: LayoutName
        /// The picture's viewport when `--viewport` is not given.
        public var defaultViewport: @Sendable (LayoutReport.Viewport) -> Size
        public var make: (@Sendable (RenderLayoutContext) throws -> AnyRenderLayout)?
    }

    /// An animation `quire render --animation` can draw, by name, and the state at each progress (nil: known but not built in yet).
    public struct AnimationEntry: Sendable {
        public var name: String
        /// The layouts the animation applies to.
        public var layouts: [LayoutName]
        /// The state at eased progress `progress` of the animation acting on item `index`.
        public var state:
            (@Sendable (_ context: RenderLayoutContext, _ index: Int, _ progress: Double) throws -> RenderLayoutState)?
    }

    /// The layouts of `LayoutCatalogue`, each built with its default parameters.
    public static let layouts: [LayoutEntry] = LayoutCatalogue.entries.map { entry in
        LayoutEntry(name: entry.name, defaultViewport: { entry.defaultViewport($0) }) { context in
            entry.renderLayout(viewport: context.viewport, aspectRatios: context.aspectRatios)
        }
    }

    public static let animations: [AnimationEntry] = [
        // Focus moves by tap from the page the strip rests on (page 0, or page 1 when the target
        // is page 0) to page `index` (docs/layout-formulas.md#sync-and-animations, move).
        AnimationEntry(name: "move", layouts: [.strip]) { context, index, progress in
            let strip = Layouts.Strip(viewport: context.viewport, aspectRatios: context.aspectRatios)
            let from = index == 0 ? min(1, strip.count - 1) : 0
            guard let start = strip.offset(forIndex: from),
                let move = StripAnimation.move(in: strip, at: start, to: index)
            else {
                throw OutputFolderError.invalidOption("move needs a page index in 0..<\(strip.count)")
            }
            let frame = move.frame(in: strip, progress: progress, offset: start)
            return RenderLayoutState(
                layout: AnyRenderLayout(strip.applying(frame), axis: .horizontal), offset: frame.offset)
        },
        // Deleting the focused page `index`: the first half of the progress collapses it, the
        // second half closes the gap (docs/layout-formulas.md#sync-and-animations, delete).
        AnimationEntry(name: "delete", layouts: [.strip]) { context, index, progress in
            let strip = Layouts.Strip(viewport: context.viewport, aspectRatios: context.aspectRatios)
            guard let offset = strip.offset(forIndex: index),
                let phases = StripAnimation.deletion(in: strip, index: index)
            else {
                throw OutputFolderError.invalidOption("delete needs a page index in 0..<\(strip.count)")
            }
            let p = min(1, max(0, progress))
            let frame =
                p < 0.5
                ? phases.collapse.frame(in: strip, progress: p * 2, offset: offset)
                : phases.delete.frame(in: strip, progress: p * 2 - 1, offset: offset)
            return RenderLayoutState(
                layout: AnyRenderLayout(strip.applying(frame), axis: .horizontal), offset: frame.offset)
        }
    ]

    /// The entry for a layout of the catalogue (every one has an entry: `layouts` is built from it).
    public static func layout(_ name: LayoutName) -> LayoutEntry {
        guard let entry = layouts.first(where: { $0.name == name }) else {
            preconditionFailure("RenderLayouts.layouts is built from LayoutCatalogue, which names \(name)")
        }
        return entry
    }

    /// The entry for an animation name.
    public static func animation(named name: String) throws -> AnimationEntry {
        guard let entry = animations.first(where: { $0.name == name.lowercased() }) else {
            throw OutputFolderError.invalidOption(
                "unknown animation '\(name)': expected one of \(animations.map(\.name).joined(separator: ", "))")
        }
        return entry
    }
}
