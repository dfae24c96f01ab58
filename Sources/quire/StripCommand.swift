import ArgumentParser
import Foundation
import QuireKit
import VipsBridge

/// `quire strip OUT`: thumbnail sprites + strip.json, focus pictures and a contact sheet.
struct StripCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strip",
        abstract: "Write thumbnail strip sprites (with strip.json), focus-strip pictures and a contact sheet under OUT/strips.")

    @Argument(help: "An output folder written by `quire process` (holds layout.json).")
    var out: String

    @Option(help: "Thumbnail height in points (default: the strip height in layout.json).")
    var height: Double?

    @Option(help: "Device pixels per point: 1, 2 or 3.")
    var scale: Int = 1

    @Option(help: "Sprite format: jpeg, png or webp.")
    var format: String = "jpeg"

    @Option(help: "JPEG/WebP quality 1-100.")
    var quality: Int = 85

    @Option(name: .customLong("max-width"), help: "Widest sprite in pixels; more pages wrap into strip-1, strip-2 ...")
    var maxWidth: Int = 16_000

    @Option(help: "Gap/background colour: #rrggbb, #rrggbbaa, white, black or transparent (default white for JPEG, else transparent).")
    var background: String?

    @Option(help: "Also write strips/strip-focus-K.png: the strip resting on page K (0-based; repeatable).")
    var focus: [Int] = []

    @Flag(name: .customLong("contact-sheet"), help: "Also write strips/contact-sheet.<ext>: a numbered grid of all pages.")
    var contactSheet = false

    @Option(help: "Contact sheet columns (default: about the square root of the page count).")
    var columns: Int?

    func makeOptions() throws -> StripOptions {
        var options = StripOptions()
        options.height = height
        options.scale = scale
        guard let parsed = VIPSImage.SaveFormat(cliName: format), [.jpeg, .png, .webp].contains(parsed) else {
            throw ValidationError("--format must be jpeg, png or webp (got '\(format)')")
        }
        options.format = parsed
        options.quality = quality
        options.maxWidth = maxWidth
        if let background {
            guard let color = RenderColor(parsing: background) else {
                throw ValidationError("--background '\(background)' is not a colour (#rrggbb, #rrggbbaa, white, black, transparent)")
            }
            options.background = color
        }
        options.focus = focus
        options.contactSheet = contactSheet
        options.columns = columns
        do { try StripBuilder.validate(options) } catch let error as OutputFolderError {
            throw ValidationError(error.description)
        }
        return options
    }

    func validate() throws { _ = try makeOptions() }

    func run() throws {
        let options = try makeOptions()
        do {
            let folder = try OutputFolder(url: URL(fileURLWithPath: out))
            let result = try StripBuilder.build(folder, options: options)
            let m = result.manifest
            print("\(m.pages.count) pages in \(m.sprites.count) sprite\(m.sprites.count == 1 ? "" : "s") at \(m.pixelHeight) px high")
            for path in result.written { print("  \(path)") }
        } catch {
            throw CLIFailure(error)
        }
    }
}

/// A library error shown as one clear line (and exit status 1) instead of a dump.
struct CLIFailure: Error, CustomStringConvertible {
    let message: String
    init(_ error: any Error) { message = "\(error)" }
    var description: String { message }
}

extension VIPSImage.SaveFormat {
    /// A format from a CLI name (`jpg` and `jpeg` both work).
    init?(cliName: String) {
        let name = cliName.lowercased()
        self.init(rawValue: name == "jpg" ? "jpeg" : name == "tif" ? "tiff" : name)
    }
}
