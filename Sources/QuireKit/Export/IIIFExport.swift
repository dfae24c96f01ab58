import Foundation
import QuireImaging
import VipsBridge

/// What `quire iiif OUT --base-url URL` (and `quire process ... --iiif URL`) writes.
public struct IIIFExportOptions: Sendable, Equatable, Codable {
    /// The public address of the folder `OUT/iiif` (no trailing slash needed).
    public var baseURL: String
    /// The manifest's label; nil = the output folder's name.
    public var label: String?
    public var behavior: IIIFManifest.Behavior
    public var viewingDirection: IIIFManifest.ViewingDirection
    /// Tile side in pixels.
    public var tileSize: Int
    /// JPEG quality of the tiles.
    public var quality: Int
    /// Redo every page's tiles even when nothing changed.
    public var force: Bool

    /// The options of `quire iiif`; only the base URL has no default.
    public init(
        baseURL: String, label: String? = nil, behavior: IIIFManifest.Behavior = .individuals,
        viewingDirection: IIIFManifest.ViewingDirection = .leftToRight, tileSize: Int = 512,
        quality: Int = 85, force: Bool = false
    ) {
        self.baseURL = baseURL
        self.label = label
        self.behavior = behavior
        self.viewingDirection = viewingDirection
        self.tileSize = tileSize
        self.quality = quality
        self.force = force
    }

    /// The base URL without trailing slashes; nil unless it is an absolute http(s) URL.
    public var normalizedBaseURL: String? {
        var text = baseURL.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
        else { return nil }
        return text
    }
}

/// The outcome of a IIIF export.
public struct IIIFExportResult: Sendable, Equatable {
    /// `OUT/iiif/manifest.json`.
    public var manifest: String
    /// Pages in the manifest.
    public var pageCount: Int
    /// Pages whose tiles were (re)written, and pages kept from an earlier run.
    public var written: Int
    public var reused: Int
    /// Tiles info.json advertises, over the written pages.
    public var tiles: Int
    /// Advertised tiles dzsave did not write under their canonical name: renamed from its own
    /// name for them, or cut from the page.
    public var tilesRenamed: Int
    public var tilesRendered: Int
    /// One line per page that could not be tiled (file and reason); those pages are left out.
    public var failures: [String]
}

/// Writes IIIF Image API 3.0 level-0 tiles for every page and a Presentation 3.0 manifest.
///
/// Reads only OUT (layout.json and the page files). Per page, libvips's dzsave (layout iiif3)
/// writes the tiles into a temporary folder; Quire then checks that every tile the page's
/// `info.json` advertises exists at its canonical path with the right pixel size, and completes
/// what dzsave left out (in libvips 8.14: the `full/...` names of one-tile levels, which it stores
/// as `0,0,W,H/...`); adds `full/max/0/default.jpg` (the page's own JPEG bytes when it is a JPEG);
/// writes info.json; and renames the folder into place as `OUT/iiif/<page>/`. A page whose file
/// and tile options are unchanged keeps its folder (a stamp inside it says what it was made from).
/// Last, `OUT/iiif/manifest.json` is written atomically.
///
/// Memory: one page at a time (dzsave streams the page; a page is decoded whole only when a
/// missing tile has to be cut from it).
public enum IIIFExport {
    /// The folder under OUT.
    public static let folderName = "iiif"
    public static let manifestName = "manifest.json"
    static let stampName = ".quire-stamp"
    /// Bumped whenever the same page and options would give other tiles.
    static let formatVersion = 1

    /// - Parameters:
    ///   - folder: OUT, as written by `quire process` or `quire merge`.
    ///   - options: the base URL, labels, viewing direction and tile settings.
    ///   - progress: called after each page with (pages done, page count).
    /// - Throws: `OutputFolderError` when OUT has no usable layout.json, `ProcessError` when
    ///   another run holds OUT, `ExportError` for a base URL that is not http(s), or when the
    ///   manifest cannot be written, no page could be tiled, or the disk fills up (then the
    ///   manifest and the page folders of the previous export are left untouched).
    public static func run(
        folder: String, options: IIIFExportOptions,
        progress: (Int, Int) -> Void = { _, _ in }
    ) throws -> IIIFExportResult {
        guard let base = options.normalizedBaseURL else {
            throw ExportError(
                path: options.baseURL,
                reason: "the base URL must be an absolute http:// or https:// address without ? or #")
        }
        guard (64...4096).contains(options.tileSize), (1...100).contains(options.quality) else {
            throw ExportError(path: folder, reason: "tile size must be 64-4096 and quality 1-100")
        }
        let url = URL(fileURLWithPath: folder)
        let out = try OutputFolder(url: url)
        let lock = try OutputLock(output: folder)
        defer { lock.release() }
        let root = url.appendingPathComponent(folderName).path
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw ExportError(path: root, reason: "cannot be created (\((error as NSError).localizedDescription))")
        }
        removeLeftovers(in: root)

        let pages = out.pages
        let counts = Dictionary(pages.map { ($0.source, 1) }, uniquingKeysWith: +)
        var result = IIIFExportResult(
            manifest: root + "/" + manifestName, pageCount: 0, written: 0, reused: 0,
            tiles: 0, tilesRenamed: 0, tilesRendered: 0, failures: [])
        var entries: [IIIFManifest.PageEntry] = []
        var kept: Set<String> = [textFolderName]
        var keptText: Set<String> = []
        for (done, page) in pages.enumerated() {
            defer { progress(done + 1, pages.count) }
            let id = pageID(page)
            kept.insert(id)
            let label =
                counts[page.source, default: 1] > 1 || page.sourcePage > 0
                ? "\(page.source), page \(page.sourcePage + 1)" : page.source
            do {
                let written = try writePage(
                    path: out.path(page.files.page), id: id, root: root, base: base, options: options)
                if let stats = written.stats {
                    result.written += 1
                    result.tiles += stats.tiles
                    result.tilesRenamed += stats.renamed
                    result.tilesRendered += stats.rendered
                } else {
                    result.reused += 1
                }
                let thumb = thumbnailSize(written.grid)
                let text = try writeText(page: page, out: out, id: id, root: root, base: base, grid: written.grid)
                if text != nil { keptText.insert(id + ".json") }
                entries.append(
                    IIIFManifest.PageEntry(
                        id: id, label: label, width: written.grid.width, height: written.grid.height,
                        thumbnailWidth: thumb.width, thumbnailHeight: thumb.height,
                        source: page.source, text: text))
            } catch {
                // A full disk fails every later page too: stop before the manifest and the
                // stale-page clean-up, so the last complete export stays as it was.
                if DiskFull.matches(error) {
                    throw ExportError(
                        path: root,
                        reason:
                            "no space left on device while tiling \(page.files.page); the previous export is left as it was"
                    )
                }
                result.failures.append("\(page.files.page): \(error)")
            }
        }
        removeStalePages(in: root, keeping: kept)
        removeStaleText(in: root + "/" + textFolderName, keeping: keptText)
        guard !entries.isEmpty else { throw ExportError(path: root, reason: "no page could be tiled") }
        let pdf = publishPDF(out: url.path, root: root, base: base)
        let sources = Set(pages.map(\.source)).count
        let manifest = IIIFManifest(
            baseURL: base, label: options.label ?? PDFExport.folderTitle(url), pages: entries,
            behavior: options.behavior, viewingDirection: options.viewingDirection, pdf: pdf,
            metadata: [
                .init("Pages", "\(entries.count)"), .init("Source files", "\(sources)"),
                .init("Pages with text", "\(keptText.count)"), .init("Made with", "Quire")
            ])
        do {
            try writeIfChanged(try manifest.encoded(), to: result.manifest)
        } catch {
            throw ExportError(path: result.manifest, reason: "cannot be written (\(error))")
        }
        result.pageCount = entries.count
        return result
    }

    /// The folder of the text annotation pages under `OUT/iiif`.
    static let textFolderName = "text"

    /// Writes `iiif/text/ID.json` from the page's hOCR (`OUT/text/NNNN.hocr`) and returns its URL;
    /// nil (and no file) when the page has no readable text.
    static func writeText(
        page: LayoutReport.Page, out: OutputFolder, id: String, root: String, base: String,
        grid: IIIFTileGrid
    ) throws -> String? {
        guard let hocr = PDFExport.textFile(page, in: out), let bytes = FileManager.default.contents(atPath: hocr),
            let text = try? HOCRReader.read(Array(bytes)), !text.words.isEmpty
        else { return nil }
        let url = "\(base)/\(textFolderName)/\(id).json"
        let annotations = IIIFTextAnnotations(
            id: url, canvas: "\(base)/canvas/\(id)", width: grid.width, height: grid.height, text: text)
        try writeIfChanged(try annotations.encoded(), to: "\(root)/\(textFolderName)/\(id).json")
        return url
    }

    /// Text files of pages no longer in the batch, or no longer with text.
    static func removeStaleText(in folder: String, keeping kept: Set<String>) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasSuffix(".json") && !kept.contains(name) {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }

    /// Publishes `OUT/pages.pdf` beside the manifest (`iiif/pages.pdf`) and returns its URL; nil
    /// when there is no PDF. The PDF must sit under the IIIF folder to have a URL: only that
    /// folder's base URL is known.
    static func publishPDF(out: String, root: String, base: String) -> String? {
        linkPublishedPDF(out: out) ? "\(base)/\(PDFExport.defaultFileName)" : nil
    }

    /// Makes `OUT/iiif/pages.pdf` the same file as `OUT/pages.pdf` (a hard link, else a copy,
    /// renamed into place), or removes it when there is no PDF. `quire pdf` calls it too, so a
    /// rewritten PDF is published at once. Returns whether a PDF is published.
    @discardableResult
    static func linkPublishedPDF(out: String) -> Bool {
        let root = out + "/" + folderName
        let source = out + "/" + PDFExport.defaultFileName, target = root + "/" + PDFExport.defaultFileName
        let fm = FileManager.default
        guard fm.fileExists(atPath: source) else {
            try? fm.removeItem(atPath: target)
            return false
        }
        if let a = ExportStamp.fileIdentity(source), let b = ExportStamp.fileIdentity(target), a.inode == b.inode {
            return true
        }
        let temporary = root + "/.\(PDFExport.defaultFileName).partial-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        guard link(source, temporary) == 0 || (try? fm.copyItem(atPath: source, toPath: temporary)) != nil,
            rename(temporary, target) == 0
        else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// The image service's name: the page file's number (`pages/0001.jpg` -> `0001`).
    static func pageID(_ page: LayoutReport.Page) -> String {
        let stem = ((page.files.page as NSString).lastPathComponent as NSString).deletingPathExtension
        let safe =
            !stem.isEmpty && !stem.hasPrefix(".")
            && stem.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)
            }
            && stem.allSatisfy(\.isASCII)
        return safe ? stem : String(format: "%04d", page.index + 1)
    }

    /// The manifest's thumbnail: the largest whole-page size whose long side is at most 400
    /// pixels, else the smallest one written.
    static func thumbnailSize(_ grid: IIIFTileGrid) -> (width: Int, height: Int) {
        let sizes = grid.fullSizes
        return sizes.last { max($0.width, $0.height) <= 400 } ?? sizes.first ?? (grid.width, grid.height)
    }

    struct TileStats: Equatable {
        var tiles = 0, renamed = 0, rendered = 0
    }

    /// Writes (or keeps) one page's folder; `stats` is nil when the folder was kept.
    static func writePage(
        path: String, id: String, root: String, base: String,
        options: IIIFExportOptions
    ) throws -> (grid: IIIFTileGrid, stats: TileStats?) {
        let fm = FileManager.default
        let final = root + "/" + id
        var stamp = ExportStamp.Builder(options: "iiif-tiles/\(formatVersion) \(options.tileSize) \(options.quality)")
        stamp.addFile(path)
        let fingerprint = stamp.finish()
        let service = "\(base)/\(id)"

        if !options.force, let old = try? String(contentsOfFile: final + "/" + stampName, encoding: .utf8),
            let line = old.split(separator: "\n").first, line.hasPrefix(fingerprint + " "),
            let size = line.split(separator: " ").dropFirst().first.map(String.init),
            let (w, h) = parseSize(size)
        {
            // Tiles are current; the base URL may have changed, and only info.json says it.
            let grid = IIIFTileGrid(width: w, height: h, tileSize: options.tileSize)
            try writeIfChanged(try IIIFImageInfo(id: service, grid: grid).encoded(), to: final + "/info.json")
            return (grid, nil)
        }

        let work = root + "/.\(id).partial-\(UInt32.random(in: 0 ... .max))"
        defer { try? fm.removeItem(atPath: work) }
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        let staged = work + "/" + id
        let image = try VIPSImage.load(file: path).autorotated().displayReady(keepGray: true)
        try image.saveIIIFTiles(to: staged, id: base, tileSize: options.tileSize, quality: options.quality)
        let grid = IIIFTileGrid(width: image.width, height: image.height, tileSize: options.tileSize)
        let stats = try complete(staged, grid: grid, page: path, quality: options.quality)
        try? fm.removeItem(atPath: staged + "/vips-properties.xml")
        try writeFullMax(staged, page: path, image: image, grid: grid, quality: options.quality)
        try IIIFImageInfo(id: service, grid: grid).encoded().write(to: URL(fileURLWithPath: staged + "/info.json"))
        try Data("\(fingerprint) \(grid.width)x\(grid.height)\n".utf8).write(
            to: URL(fileURLWithPath: staged + "/" + stampName))

        // Swap in: the old folder (if any) steps aside first, so the final name always holds a
        // complete folder or none.
        var aside: String?
        if fm.fileExists(atPath: final) {
            let moved = root + "/.\(id).old-\(UInt32.random(in: 0 ... .max))"
            guard rename(final, moved) == 0 else {
                throw ExportError(path: final, reason: "cannot be replaced (\(String(cString: strerror(errno))))")
            }
            aside = moved
        }
        guard rename(staged, final) == 0 else {
            throw ExportError(path: final, reason: "cannot be written (\(String(cString: strerror(errno))))")
        }
        if let aside { try? fm.removeItem(atPath: aside) }
        return (grid, stats)
    }

    /// Makes every tile `grid` advertises exist under its canonical path with its size: kept
    /// when dzsave wrote it there, renamed from dzsave's own name for it, else cut from the page.
    static func complete(_ folder: String, grid: IIIFTileGrid, page: String, quality: Int) throws -> TileStats {
        let fm = FileManager.default
        var stats = TileStats()
        var source: VIPSImage?
        for tile in grid.allTiles {
            stats.tiles += 1
            let target = folder + "/" + tile.path(imageWidth: grid.width, imageHeight: grid.height)
            if hasSize(target, tile.width, tile.height) { continue }
            try? fm.removeItem(atPath: target)
            try fm.createDirectory(
                atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let alternative = folder + "/" + tile.dzsavePath
            if alternative != target, hasSize(alternative, tile.width, tile.height), link(alternative, target) == 0 {
                stats.renamed += 1
                continue
            }
            if source == nil {
                source = try VIPSImage.load(file: page).autorotated().displayReady(keepGray: true).materialized()
            }
            try source!.cropped(x: tile.x, y: tile.y, width: tile.regionWidth, height: tile.regionHeight)
                .resized(toWidth: tile.width, height: tile.height)
                .save(to: target, options: .init(format: .jpeg, quality: quality))
            stats.rendered += 1
        }
        return stats
    }

    /// `full/max/0/default.jpg`: the page's own bytes (a hard link, else a copy) when it is an
    /// upright JPEG of the same size, else the page encoded as JPEG.
    static func writeFullMax(_ folder: String, page: String, image: VIPSImage, grid: IIIFTileGrid, quality: Int) throws
    {
        let target = folder + "/full/max/0/default.jpg"
        let fm = FileManager.default
        if hasSize(target, grid.width, grid.height) { return }
        try? fm.removeItem(atPath: target)
        try fm.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if let jpeg = JPEGFrameHeader.read(path: page), jpeg.embeddable, jpeg.width == grid.width,
            jpeg.height == grid.height
        {
            if link(page, target) == 0 { return }
            if (try? fm.copyItem(atPath: page, toPath: target)) != nil { return }
        }
        try image.save(to: target, options: .init(format: .jpeg, quality: quality))
    }

    /// Whether `path` is a JPEG of exactly `width` x `height` pixels.
    static func hasSize(_ path: String, _ width: Int, _ height: Int) -> Bool {
        guard let header = JPEGFrameHeader.read(path: path) else { return false }
        return header.width == width && header.height == height
    }

    static func parseSize(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        return (w, h)
    }

    /// Writes `data` atomically unless the file already holds exactly it.
    static func writeIfChanged(_ data: Data, to path: String) throws {
        if FileManager.default.contents(atPath: path) == data { return }
        try AtomicFile.write(data, to: path)
    }

    /// Temporary folders of an interrupted run.
    static func removeLeftovers(in root: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        where name.hasPrefix(".") && (name.contains(".partial-") || name.contains(".old-")) {
            try? FileManager.default.removeItem(atPath: root + "/" + name)
        }
    }

    /// Page folders of pages no longer in the batch (a rerun with fewer pages): only folders
    /// that hold a Quire stamp are removed, so nothing a person put there is touched.
    static func removeStalePages(in root: String, keeping kept: Set<String>) {
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: root)) ?? [] where !name.hasPrefix(".") && !kept.contains(name)
        {
            let folder = root + "/" + name
            if fm.fileExists(atPath: folder + "/" + stampName) { try? fm.removeItem(atPath: folder) }
        }
    }
}
