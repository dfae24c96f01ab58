import ArgumentParser
import Foundation
import QuireKit

/// `quire render OUT`: a picture (or an animated sweep) of a layout state with the real pages.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a layout's state with the real page images into a PNG, or a scroll through it into a GIF/WebP.")

    @OptionGroup var drawing: DrawingOptions

    @Option(help: "The layout to draw.")
    var layout: LayoutName = .pager

    @Option(
        parsing: .unconditional,
        help: "Content offset X[,Y] in points (one number runs along the layout's scroll axis; negative values work).")
    var offset: String?

    @Option(help: "Show the resting state of page K (0-based); with --animation, the page it acts on.")
    var index: Int?

    @Option(
        help: ArgumentHelp(
            "Viewport WxH in points (default: layout.json's viewport; the strip uses its strip height).",
            valueName: "WxH"),
        transform: ViewportSize.init(parsing:))
    var viewport: ViewportSize?

    @Option(
        help:
            "Animation: \(RenderLayouts.animations.map(\.name).joined(separator: ", ")) (with --index and --progress).")
    var animation: String?

    @Option(help: "Animation progress 0...1.")
    var progress: Double?

    @Option(
        parsing: .unconditional,
        help: "FROM:TO:STEPS: film a scroll from offset FROM to TO in STEPS frames (an animated GIF or WebP).")
    var sweep: String?

    @Option(
        help: "png, jpeg or webp for a picture (default png); gif or webp for --sweep (default gif).",
        transform: { try ImageFormat(parsing: $0, allowed: ImageFormat.allCases, expected: "png, jpeg, webp or gif") })
    var format: ImageFormat?

    @Option(help: "Milliseconds per frame of a sweep.")
    var delay: Int = 80

    @Option(
        help:
            "Canvas colour: #rrggbb, #rrggbbaa, white, black or transparent (default transparent; white under JPEG/GIF)."
    )
    var background: String?

    @Option(
        name: [.short, .customLong("output")],
        help: "Output file (default OUT/renders/<layout>[-sweep|-<animation>].<ext>).")
    var output: String?

    func makeOptions() throws -> RenderOptions {
        var options = RenderOptions()
        options.layout = layout
        if let offset {
            let parts = offset.split(separator: ",", omittingEmptySubsequences: false).map {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            guard (1...2).contains(parts.count), parts.allSatisfy({ $0 != nil && $0!.isFinite }) else {
                throw ValidationError("--offset must be X or X,Y in points (got '\(offset)')")
            }
            options.offset = Point(x: parts[0]!, y: parts.count == 2 ? parts[1]! : 0)
            options.offsetIsScalar = parts.count == 1
        }
        options.index = index
        options.viewport = viewport?.size
        options.scale = drawing.scale
        options.animation = animation
        options.progress = progress
        if let sweep {
            guard let parsed = Sweep(parsing: sweep) else {
                throw ValidationError("--sweep must be FROM:TO:STEPS with STEPS >= 2, e.g. 0:780:24 (got '\(sweep)')")
            }
            options.sweep = parsed
        }
        options.format = format
        options.delayMilliseconds = delay
        if let color = try DrawingOptions.background(background) { options.background = color }
        options.output = output
        return try DrawingOptions.validated(options, by: LayoutRenderer.validate)
    }

    func validate() throws { _ = try makeOptions() }

    func run() throws {
        let options = try makeOptions()
        try drawing.withFolder { folder in
            let result = try LayoutRenderer.render(folder, options: options)
            let what = result.frames > 1 ? "\(result.frames) frames" : "\(result.firstScene.items.count) items"
            print("\(result.path) (\(result.pixelSize.width)x\(result.pixelSize.height), \(what))")
        }
    }
}
