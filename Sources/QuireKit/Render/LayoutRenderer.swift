import Foundation
import QuireImaging
import QuireLayout
import VipsBridge

/// A scroll to film: `count` frames at offsets evenly spaced from `from` to `to` (both included).
public struct Sweep: Hashable, Sendable {
    public var from: Double
    public var to: Double
    public var steps: Int

    /// A sweep of `steps` frames from offset `from` to `to`.
    public init(from: Double, to: Double, steps: Int) {
        self.from = from
        self.to = to
        self.steps = steps
    }

    /// Parses `FROM:TO:STEPS`, e.g. `0:780:24`; nil when malformed or STEPS < 2.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let from = Double(parts[0]), let to = Double(parts[1]),
            let steps = Int(parts[2]), from.isFinite, to.isFinite, steps >= 2
        else { return nil }
        self.init(from: from, to: to, steps: steps)
    }

    /// The offsets of the frames.
    public var offsets: [Double] {
        (0..<steps).map { from + (to - from) * Double($0) / Double(steps - 1) }
    }
}

/// What `quire render` draws and where it writes it.
public struct RenderOptions: Sendable {
    /// The layout to draw (any of `LayoutCatalogue`'s).
    public var layout: LayoutName = .pager
    /// The content offset.
    public var offset: Point?
    /// True when the offset was given as one number: it then runs along the layout's scroll
    /// axis (x for the pager and strip, y for vertical layouts).
    public var offsetIsScalar = false
    /// Show the resting state for this page instead of an explicit offset (and the page an
    /// animation acts on).
    public var index: Int?
    /// The picture's viewport in points (the layout's default from layout.json when nil).
    public var viewport: Size?
    /// Device pixels per point, 1-3.
    public var scale = 1
    public var animation: String?
    /// Animation progress 0...1.
    public var progress: Double?
    public var sweep: Sweep?
    /// png, jpeg or webp for a still (png default); gif or webp for a sweep (gif default).
    public var format: VIPSImage.SaveFormat?
    public var delayMilliseconds = 80
    /// Canvas colour; transparent when nil (flattened onto white for JPEG and GIF).
    public var background: RenderColor?
    /// Output path; `OUT/renders/<layout>[-<animation>|-sweep].<ext>` when nil.
    public var output: String?

    /// The defaults: the pager at rest at scale 1, as a PNG under `OUT/renders/`.
    public init() {}
}

/// What a render wrote.
public struct RenderResult: Sendable {
    public var path: String
    public var pixelSize: PixelSize
    public var frames: Int
    /// The scene of the first frame (what was drawn where), for reports and tests.
    public var firstScene: Scene
}

/// `quire render`: pictures of layout states with the real page images.
public enum LayoutRenderer {
    /// Checks options that do not need the output folder.
    /// - Throws: `OutputFolderError.invalidOption` naming the bad option.
    public static func validate(_ options: RenderOptions) throws {
        func fail(_ reason: String) throws -> Never { throw OutputFolderError.invalidOption(reason) }
        if !(1...3).contains(options.scale) { try fail("--scale must be 1, 2 or 3 (got \(options.scale))") }
        if let v = options.viewport,
            !(v.isFinite && v.width >= 1 && v.height >= 1 && v.width <= 10_000 && v.height <= 10_000)
        {
            try fail("--viewport must be WxH with both sides 1-10000 points")
        }
        if let o = options.offset, !o.isFinite { try fail("--offset must be finite") }
        if options.offset != nil && options.index != nil && options.animation == nil {
            try fail("give --offset or --index, not both")
        }
        if options.sweep != nil && options.animation != nil { try fail("--sweep and --animation cannot be combined") }
        if let animation = options.animation {
            let entry = try RenderLayouts.animation(named: animation)
            if options.index == nil { try fail("--animation \(entry.name) needs --index K (the page it acts on)") }
            guard let p = options.progress, p.isFinite, (0...1).contains(p) else {
                try fail("--animation \(entry.name) needs --progress p with 0 <= p <= 1")
            }
        } else if options.progress != nil {
            try fail("--progress needs --animation")
        }
        if options.delayMilliseconds < 10 || options.delayMilliseconds > 10_000 {
            try fail("--delay must be 10-10000 ms")
        }
        if let format = options.format {
            if options.sweep != nil, format != .gif && format != .webp {
                try fail("--sweep writes an animation: --format must be gif or webp")
            }
            if options.sweep == nil, ![.png, .jpeg, .webp].contains(format) {
                try fail("a still picture is png, jpeg or webp (gif needs --sweep)")
            }
        }
    }

    /// Draws the requested state (or sweep) of `folder`'s pages and writes it atomically.
    /// - Throws: `OutputFolderError` for bad options, unknown pages and unavailable layouts or
    ///   animations; `VIPSError` when an image cannot be made.
    public static func render(_ folder: OutputFolder, options: RenderOptions) throws -> RenderResult {
        try validate(options)
        let entry = RenderLayouts.layout(options.layout)
        let pages = folder.pages
        if let index = options.index { _ = try folder.position(ofPage: index) }
        let viewport = options.viewport ?? entry.defaultViewport(folder.report.viewport)
        guard viewport.width >= 1, viewport.height >= 1 else {
            throw OutputFolderError.invalidOption("viewport \(viewport.width)x\(viewport.height) is empty")
        }
        let context = RenderLayoutContext(
            viewport: viewport, aspectRatios: pages.map(Self.aspectRatio),
            reference: folder.report.viewport)
        guard let make = entry.make else {
            throw OutputFolderError.notYetAvailable(
                "layout '\(entry.name)' (the layout engine's Layouts.\(entry.name.rawValue.capitalized))")
        }
        var states: [RenderLayoutState] = []
        if let name = options.animation {
            let animation = try RenderLayouts.animation(named: name)
            guard animation.layouts.contains(entry.name) else {
                throw OutputFolderError.invalidOption(
                    "the \(animation.name) animation applies to \(animation.layouts.map(\.rawValue).joined(separator: ", ")), not \(entry.name)"
                )
            }
            guard let state = animation.state else {
                throw OutputFolderError.notYetAvailable("the \(animation.name) animation")
            }
            states = [try state(context, try folder.position(ofPage: options.index!), options.progress!)]
        } else {
            let layout = try make(context)
            if let sweep = options.sweep {
                let base = options.offsetIsScalar ? nil : options.offset
                states = sweep.offsets.map {
                    RenderLayoutState(layout: layout, offset: point(along: layout.axis, $0, base: base))
                }
            } else if let offset = options.offset {
                let resolved = options.offsetIsScalar ? point(along: layout.axis, offset.x, base: nil) : offset
                states = [RenderLayoutState(layout: layout, offset: resolved)]
            } else {
                let position = try options.index.map(folder.position(ofPage:)) ?? 0
                states = [RenderLayoutState(layout: layout, offset: layout.offset(forIndex: position) ?? .zero)]
            }
        }

        let format = options.format ?? (options.sweep != nil ? .gif : .png)
        let renderer = SceneRenderer(scale: Double(options.scale), background: options.background ?? .transparent)
        let source = PageImageSource(folder: folder)
        let byIndex = Dictionary(pages.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })
        let pageIndices = pages.map(\.index)
        let flattenOnto = (options.background ?? .white).isOpaque ? (options.background ?? .white) : .white

        var scenes: [Scene] = []
        var frames: [VIPSImage] = []
        for state in states {
            let scene = Scene.project(
                state.layout.items(at: state.offset), offset: state.offset, viewport: viewport,
                pages: pageIndices, aspectRatios: context.aspectRatios)
            var frame = try renderer.render(scene, pages: byIndex, source: source)
            if format == .jpeg || format == .gif { frame = try frame.flattened(onto: flattenOnto.rgb) }
            scenes.append(scene)
            frames.append(frame)
        }

        let suffix = options.animation.map { "-\($0.lowercased())" } ?? (options.sweep != nil ? "-sweep" : "")
        let path =
            options.output
            ?? folder.url.appendingPathComponent("renders/\(entry.name)\(suffix).\(format.fileExtension)").path
        try AtomicFile.write(to: path) { temporary in
            if frames.count > 1 {
                try VIPSImage.saveAnimation(
                    frames, to: temporary, format: format,
                    delayMilliseconds: options.delayMilliseconds, quality: 90)
            } else {
                try frames[0].save(to: temporary, options: .init(format: format, quality: 90))
            }
        }
        return RenderResult(
            path: path, pixelSize: renderer.pixelSize(of: scenes[0]), frames: frames.count,
            firstScene: scenes[0])
    }

    /// A page's aspect ratio from layout.json (its pixel size when the ratio is missing).
    static func aspectRatio(_ page: LayoutReport.Page) -> Double {
        if page.aspectRatio.isFinite && page.aspectRatio > 0 { return page.aspectRatio }
        return page.height > 0 ? Double(page.width) / Double(page.height) : 0
    }

    private static func point(along axis: AnyRenderLayout.Axis, _ value: Double, base: Point?) -> Point {
        switch axis {
        case .horizontal: Point(x: value, y: base?.y ?? 0)
        case .vertical: Point(x: base?.x ?? 0, y: value)
        }
    }
}
