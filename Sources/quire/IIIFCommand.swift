import ArgumentParser
import Foundation
import QuireKit

/// `quire iiif OUT --base-url URL`: IIIF tiles and a manifest for library viewers.
struct IIIFCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "iiif",
        abstract: "Write IIIF Image API 3.0 tiles for every page and a Presentation 3.0 manifest under OUT/iiif.",
        discussion: """
            Publish OUT/iiif at --base-url and point a IIIF viewer (Mirador, Universal Viewer, \
            OpenSeadragon) at BASE-URL/manifest.json. Each page gets level-0 static tiles and an \
            info.json under OUT/iiif/NNNN/ (libvips dzsave, checked: every advertised tile exists at \
            its size). A rerun redoes only pages whose file or tile options changed; a new base URL \
            rewrites only the JSON files. Exit status: 0 when every page is in the manifest, 1 when \
            some page could not be tiled (one line each) or nothing could be written.
            """)

    @Argument(help: "A folder written by quire process or quire merge (holds layout.json).")
    var folder: String

    @Option(help: ArgumentHelp("The public http(s) address OUT/iiif will be served at.", valueName: "url"))
    var baseURL: String

    @OptionGroup var iiif: IIIFOptions

    @Option(help: "Tile side in pixels (64-4096).")
    var tileSize: Int = 512

    @Option(help: "JPEG quality of the tiles, 1-100.")
    var quality: Int = 85

    @Flag(help: "Redo every page's tiles even when nothing changed.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print only failures.")
    var quiet = false

    var options: IIIFExportOptions {
        iiif.options(baseURL: baseURL, tileSize: tileSize, quality: quality, force: force)
    }

    func validate() throws {
        guard options.normalizedBaseURL != nil else {
            throw ValidationError("--base-url must be an absolute http:// or https:// address, not '\(baseURL)'.")
        }
        guard (64...4096).contains(tileSize) else {
            throw ValidationError("--tile-size must be 64-4096, not \(tileSize).")
        }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1-100, not \(quality).") }
    }

    func run() throws {
        try Self.export(folder: folder, options: options, quiet: quiet, command: "quire iiif")
    }

    /// Runs the export and prints its outcome; shared with `quire process --iiif`.
    static func export(folder: String, options: IIIFExportOptions, quiet: Bool, command: String) throws {
        var standardError = StandardError()
        let result: IIIFExportResult
        do {
            result = try IIIFExport.run(folder: folder, options: options)
        } catch {
            print("\(command): \(error)", to: &standardError)
            throw ExitCode(1)
        }
        for failure in result.failures { print("\(command): \(failure)", to: &standardError) }
        if !quiet {
            var line =
                "quire: IIIF manifest of \(result.pageCount) page\(result.pageCount == 1 ? "" : "s") written to \(result.manifest)"
            line += " (\(result.written) tiled, \(result.reused) reused"
            if result.written > 0 {
                line +=
                    "; \(result.tiles) tiles, \(result.tilesRenamed) renamed and \(result.tilesRendered) cut to complete dzsave's set"
            }
            print(line + ")", to: &standardError)
        }
        if !result.failures.isEmpty { throw ExitCode(1) }
    }
}

/// The IIIF options `quire iiif` and `quire process --iiif` share.
struct IIIFOptions: ParsableArguments {
    @Option(help: "The manifest's label (default: the output folder's name).")
    var label: String?

    @Option(help: "How viewers present the pages: individuals, paged (a book: facing pages) or continuous.")
    var behavior: IIIFManifest.Behavior = .individuals

    @Option(help: "Reading order: left-to-right, right-to-left, top-to-bottom or bottom-to-top.")
    var viewingDirection: IIIFManifest.ViewingDirection = .leftToRight

    func options(baseURL: String, tileSize: Int = 512, quality: Int = 85, force: Bool = false) -> IIIFExportOptions {
        IIIFExportOptions(
            baseURL: baseURL, label: label, behavior: behavior, viewingDirection: viewingDirection,
            tileSize: tileSize, quality: quality, force: force)
    }
}

extension IIIFManifest.Behavior: ExpressibleByArgument {}
extension IIIFManifest.ViewingDirection: ExpressibleByArgument {}
