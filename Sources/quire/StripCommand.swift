import ArgumentParser
import Foundation
import QuireKit

/// `quire strip OUT`: thumbnail sprites + strip.json, focus pictures and a contact sheet.
struct StripCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strip",
        abstract:
            "Write thumbnail strip sprites (with strip.json), focus-strip pictures and a contact sheet under OUT/strips."
    )

    @OptionGroup var drawing: DrawingOptions

    @Option(help: "Thumbnail height in points (default: the strip height in layout.json).")
    var height: Double?

    @Option(
        help: "Sprite format: jpeg, png or webp. (default: jpeg)",
        transform: { try ImageFormat(parsing: $0, allowed: [.jpeg, .png, .webp], expected: "jpeg, png or webp") })
    var format: ImageFormat = .jpeg

    @Option(help: "JPEG/WebP quality 1-100.")
    var quality: Int = 85

    @Option(name: .customLong("max-width"), help: "Widest sprite in pixels; more pages wrap into strip-1, strip-2 ...")
    var maxWidth: Int = 16_000

    @Option(
        help:
            "Gap/background colour: #rrggbb, #rrggbbaa, white, black or transparent (default white for JPEG, else transparent)."
    )
    var background: String?

    @Option(help: "Also write strips/strip-focus-K.png: the strip resting on page K (0-based; repeatable).")
    var focus: [Int] = []

    @Flag(
        name: .customLong("contact-sheet"), help: "Also write strips/contact-sheet.<ext>: a numbered grid of all pages."
    )
    var contactSheet = false

    @Option(help: "Contact sheet columns (default: about the square root of the page count).")
    var columns: Int?

    func makeOptions() throws -> StripOptions {
        var options = StripOptions()
        options.height = height
        options.scale = drawing.scale
        options.format = format
        options.quality = quality
        options.maxWidth = maxWidth
        if let color = try DrawingOptions.background(background) { options.background = color }
        options.focus = focus
        options.contactSheet = contactSheet
        options.columns = columns
        return try DrawingOptions.validated(options, by: StripBuilder.validate)
    }

    func validate() throws { _ = try makeOptions() }

    func run() throws {
        let options = try makeOptions()
        try drawing.withFolder { folder in
            let result = try StripBuilder.build(folder, options: options)
            let m = result.manifest
            print(
                "\(m.pages.count) pages in \(m.sprites.count) sprite\(m.sprites.count == 1 ? "" : "s") at \(m.pixelHeight) px high"
            )
            for path in result.written { print("  \(path)") }
        }
    }
}
