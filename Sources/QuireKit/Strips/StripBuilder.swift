import Foundation
import QuireImaging
import QuireLayout
import VipsBridge

/// What `quire strip` writes.
public struct StripOptions: Sendable {
    /// Thumbnail height in points; layout.json's `viewport.stripHeight` when nil.
    public var height: Double?
    /// Device pixels per point, 1-3.
    public var scale = 1
    /// Sprite encoding: jpeg, png or webp.
    public var format: VIPSImage.SaveFormat = .jpeg
    public var quality = 85
    /// The widest sprite in pixels; more pages wrap into further sprite files.
    public var maxWidth = 16_000
    /// Gap colour; white for JPEG, transparent for PNG/WebP sprites and focus pictures when nil.
    public var background: RenderColor?
    /// Pages (batch indices) to write `strip-focus-K.png` for.
    public var focus: [Int] = []
    /// Also write `contact-sheet.<ext>`: a numbered grid of all pages.
    public var contactSheet = false
    /// Contact sheet columns; about the square root of the page count when nil.
    public var columns: Int?

    /// The defaults of `quire strip`: JPEG sprites at quality 85, scale 1, the strip height of layout.json.
    public init() {}
}

/// What a strip run wrote.
public struct StripResult: Sendable {
    public var manifest: StripManifest
    /// Absolute paths of every file written (sprites, focus pictures, contact sheet, strip.json).
    public var written: [String]
    /// How many thumbnails were cut from each kind of file.
    public var usage: [PageImageSource.Origin: Int]
}

/// `quire strip`: thumbnail sprites with a rect map, focus-strip pictures and a contact sheet.
public enum StripBuilder {
    /// Gap between pages in points: the strip layout's spacing (`distanceBetween`, 4 pt).
    public static let spacing = Layouts.Strip.Parameters().spacing
    /// The contact sheet's box for one page, in points.
    public static let contactBox = 160.0

    /// Checks options that do not need the output folder.
    public static func validate(_ options: StripOptions) throws {
        func fail(_ reason: String) throws -> Never { throw OutputFolderError.invalidOption(reason) }
        if !(1...3).contains(options.scale) { try fail("--scale must be 1, 2 or 3 (got \(options.scale))") }
        if let h = options.height, !(h.isFinite && h >= 1 && h <= 2048) { try fail("--height must be 1-2048 points") }
        if ![.jpeg, .png, .webp].contains(options.format) { try fail("--format must be jpeg, png or webp") }
        let limit = options.format == .webp ? 16_383 : 65_000
        if options.maxWidth < 16 || options.maxWidth > limit {
            try fail("--max-width must be 16-\(limit) pixels for \(options.format.rawValue)")
        }
        if options.format == .jpeg, let bg = options.background, !bg.isOpaque {
            try fail("JPEG has no transparency: give an opaque --background or --format png")
        }
        if let c = options.columns, c < 1 { try fail("--columns must be at least 1") }
    }

    /// Groups consecutive pages into sprites no wider than `maxWidth` (a page wider than that
    /// gets a sprite of its own).
    /// - Returns: for each sprite, the positions (into `widths`) of its pages.
    /// - Complexity: O(n).
    public static func plan(widths: [Int], spacing: Int, maxWidth: Int) -> [[Int]] {
        var sprites: [[Int]] = []
        var current: [Int] = []
        var width = 0
        for (position, w) in widths.enumerated() {
            let needed = current.isEmpty ? w : width + spacing + w
            if !current.isEmpty && needed > maxWidth {
                sprites.append(current)
                current = [position]
                width = w
            } else {
                current.append(position)
                width = needed
            }
        }
        if !current.isEmpty { sprites.append(current) }
        return sprites
    }

    /// Writes the sprites, strip.json and any focus pictures and contact sheet under OUT/strips.
    /// - Throws: `OutputFolderError` for bad options or unknown focus pages (before anything
    ///   is written), and when page images cannot be read; `VIPSError` for encoder failures.
    public static func build(_ folder: OutputFolder, options: StripOptions) throws -> StripResult {
        try validate(options)
        for k in options.focus { _ = try folder.position(ofPage: k) }
        let pages = folder.pages
        let heightPoints = options.height ?? folder.report.viewport.stripHeight
        guard heightPoints.isFinite, heightPoints >= 1 else {
            throw OutputFolderError.invalidOption(
                "strip height \(heightPoints) from layout.json is unusable; give --height")
        }
        let scale = Double(options.scale)
        let pixelHeight = max(1, Int((heightPoints * scale).rounded()))
        let spacing = Int((Self.spacing * scale).rounded())
        let background = options.background ?? (options.format == .jpeg ? .white : .transparent)
        let opaque = background.isOpaque
        let strips = folder.url.appendingPathComponent("strips")
        let source = PageImageSource(folder: folder)
        var written: [String] = []

        // Sprites: every thumbnail at one height, in page order, joined once per sprite file.
        let widths = pages.map { max(1, Int((Double(pixelHeight) * LayoutRenderer.aspectRatio($0)).rounded())) }
        let groups = plan(widths: widths, spacing: spacing, maxWidth: options.maxWidth)
        let ext = options.format.fileExtension
        var sprites: [StripManifest.Sprite] = []
        var rects: [StripManifest.PageRect] = []
        for (number, group) in groups.enumerated() {
            let name = groups.count == 1 ? "strip.\(ext)" : "strip-\(number + 1).\(ext)"
            let file = "strips/\(name)"
            var x = 0
            // Thumbnails are small: rendering each to memory keeps one file open at a time and
            // bounds memory by one sprite.
            var images: [VIPSImage] = []
            for position in group {
                var image = try source.image(of: pages[position], width: widths[position], height: pixelHeight)
                    .materialized()
                if !opaque { image = try image.rgba() }
                images.append(image)
                rects.append(
                    .init(
                        index: pages[position].index, sprite: number, file: file, x: x, y: 0,
                        width: widths[position], height: pixelHeight))
                x += widths[position] + spacing
            }
            let sprite = try VIPSImage.joinedRow(
                images, spacing: spacing, background: opaque ? background.rgb : background.rgba)
            let path = strips.appendingPathComponent(name).path
            try AtomicFile.write(to: path) {
                try sprite.save(to: $0, options: .init(format: options.format, quality: options.quality))
            }
            written.append(path)
            sprites.append(
                .init(
                    file: file, width: sprite.width, height: sprite.height,
                    firstPage: pages[group.first!].index, lastPage: pages[group.last!].index))
        }

        // Focus pictures: the strip layout's own geometry, resting on page K.
        var focus: [StripManifest.FocusPicture] = []
        let focusBackground = options.background ?? .transparent
        for k in options.focus {
            let picture = try focusPicture(
                folder, index: k, height: heightPoints, scale: scale,
                background: focusBackground, source: source)
            let name = "strip-focus-\(k).png"
            let path = strips.appendingPathComponent(name).path
            try AtomicFile.write(to: path) { try picture.save(to: $0, options: .init(format: .png)) }
            written.append(path)
            focus.append(.init(index: k, file: "strips/\(name)", width: picture.width, height: picture.height))
        }

        var contactSheet: String?
        if options.contactSheet {
            let sheet = try contactSheetImage(
                pages, columns: options.columns, scale: scale,
                background: options.format == .jpeg ? (opaque ? background : .white) : background,
                source: source)
            let name = "contact-sheet.\(ext)"
            let path = strips.appendingPathComponent(name).path
            try AtomicFile.write(to: path) {
                try sheet.save(to: $0, options: .init(format: options.format, quality: options.quality))
            }
            written.append(path)
            contactSheet = "strips/\(name)"
        }

        let manifest = StripManifest(
            schema: StripManifest.schemaIdentifier, height: LayoutReport.round(heightPoints), scale: options.scale,
            pixelHeight: pixelHeight, spacing: spacing, format: options.format.rawValue,
            background: background.description, sprites: sprites, pages: rects, focus: focus, contactSheet: contactSheet
        )
        let manifestPath = strips.appendingPathComponent("strip.json").path
        try AtomicFile.write(try manifest.encoded(), to: manifestPath)
        written.append(manifestPath)
        removeStaleSprites(in: strips, keeping: Set(sprites.map { ($0.file as NSString).lastPathComponent }))
        return StripResult(manifest: manifest, written: written, usage: source.usage)
    }

    /// The strip as the viewer shows it resting on page `index`: `Layouts.Strip` at
    /// `offset(forIndex:)`, the viewport as wide as layout.json's, page K expanded to its
    /// aspect ratio and its neighbours pushed aside.
    /// - Returns: the scene to draw (items in screen points of the strip viewport).
    /// - Throws: `OutputFolderError.unknownPage` for an index outside the batch.
    public static func focusScene(_ folder: OutputFolder, index: Int, height: Double) throws -> Scene {
        let position = try folder.position(ofPage: index)
        let pages = folder.pages
        let viewport = Size(width: folder.report.viewport.width, height: height)
        let layout = Layouts.Strip(viewport: viewport, aspectRatios: pages.map(LayoutRenderer.aspectRatio))
        let offset = layout.offset(forIndex: position) ?? .zero
        return Scene.project(
            layout.items(at: offset, in: nil), offset: offset, viewport: viewport,
            pages: pages.map(\.index), aspectRatios: pages.map(LayoutRenderer.aspectRatio))
    }

    static func focusPicture(
        _ folder: OutputFolder, index: Int, height: Double, scale: Double,
        background: RenderColor, source: PageImageSource
    ) throws -> VIPSImage {
        let scene = try focusScene(folder, index: index, height: height)
        let byIndex = Dictionary(folder.pages.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })
        return try SceneRenderer(scale: scale, background: background).render(scene, pages: byIndex, source: source)
    }

    /// A grid of every page fitted into a square box with its 1-based number underneath.
    static func contactSheetImage(
        _ pages: [LayoutReport.Page], columns: Int?, scale: Double,
        background: RenderColor, source: PageImageSource
    ) throws -> VIPSImage {
        let box = Int((contactBox * scale).rounded())
        let labelHeight = Int((22 * scale).rounded())
        let gap = Int((12 * scale).rounded())
        let ink: [Double] =
            background.isOpaque && Double(background.red) + Double(background.green) + Double(background.blue) < 384
            ? [235, 235, 235] : [40, 40, 40]
        var cells: [VIPSImage] = []
        for page in pages {
            let aspect = LayoutRenderer.aspectRatio(page)
            let w = aspect >= 1 ? box : max(1, Int((Double(box) * aspect).rounded()))
            let h = aspect >= 1 ? max(1, Int((Double(box) / aspect).rounded())) : box
            let image = try source.image(of: page, width: w, height: h).rgba()
            let label = try VIPSImage.text("\(page.index + 1)", font: "sans 10", dpi: Int(72 * scale), color: ink)
            let canvas = try VIPSImage.solid(width: box, height: box + labelHeight, color: background.rgba)
            let cell = try canvas.compositing([
                (image, (box - w) / 2, (box - h) / 2),
                (label, max(0, (box - label.width) / 2), box + max(0, (labelHeight - label.height) / 2))
            ]).materialized()
            cells.append(cell)
        }
        let across = columns ?? max(1, Int(Double(pages.count).squareRoot().rounded(.up)))
        let grid = try VIPSImage.grid(
            cells, across: min(across, pages.count), spacing: gap, background: background.rgba)
        // A margin around the grid, as on a printed sheet.
        let sheet = try grid.embedded(
            x: gap, y: gap, width: grid.width + 2 * gap, height: grid.height + 2 * gap,
            background: background.rgba)
        return background.isOpaque ? try sheet.flattened(onto: background.rgb) : sheet
    }

    /// Removes sprite files from an earlier run that strip.json no longer lists.
    private static func removeStaleSprites(in directory: URL, keeping: Set<String>) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        let extensions: Set<String> = ["jpg", "png", "webp"]
        for name in names where !keeping.contains(name) {
            let parts = name.split(separator: ".")
            guard parts.count == 2, extensions.contains(String(parts[1])) else { continue }
            let stem = parts[0]
            let isSprite =
                stem == "strip"
                || (stem.hasPrefix("strip-") && !stem.dropFirst(6).isEmpty
                    && stem.dropFirst(6).allSatisfy(\.isNumber))
            if isSprite { try? FileManager.default.removeItem(at: directory.appendingPathComponent(name)) }
        }
    }
}
