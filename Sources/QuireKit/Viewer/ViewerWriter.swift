import Foundation
import QuireImaging

/// Writes the web viewer into an output folder: `index.html`, `quire-viewer/…` (style and one
/// script per layout, embedded in the binary by `Scripts/embed_viewer.py`) and `layout.js`.
///
/// `layout.js` is `OUT/layout.json` wrapped as `window.QUIRE_LAYOUT = …;`: browsers refuse
/// `fetch()` of a sibling file on `file://`, but load a classic `<script src>`, so the same
/// folder opens by double-click and from any static server. (The viewer falls back to
/// fetching layout.json when layout.js is missing.) With text (`--ocr`), `text/search.js` too
/// (`SearchIndexWriter`). Every file is written atomically.
public enum ViewerWriter {
    /// The files written besides `layout.js`, relative to the folder.
    public static var paths: [String] { ViewerAssets.files.map(\.path) + ["layout.js"] }

    /// Writes the viewer into `folder`, which must hold a `layout.json`.
    /// - Returns: one line per page left out of the search index (its hOCR missing or unreadable).
    /// - Throws: `OutputFolderError`-style errors naming the file when layout.json is missing or a write fails.
    @discardableResult
    public static func write(into folder: URL) throws -> [String] {
        let layoutURL = folder.appendingPathComponent("layout.json")
        guard let layout = try? Data(contentsOf: layoutURL) else {
            throw ViewerWriterError(path: layoutURL.path, reason: "no layout.json to show (run quire process first)")
        }
        // A read-only or foreign folder is one plain line, before anything is tried.
        guard access(folder.path, W_OK) == 0 else {
            throw ViewerWriterError(
                path: folder.path, reason: "cannot write the viewer here (\(String(cString: strerror(errno))))")
        }
        // A run killed while it wrote the viewer left `.NAME.partial-PID-RANDOM` beside its files
        // (`quire-viewer/`, `quire-viewer/layouts/`): the batch sweeps OUT itself, not these.
        let assetFolders = Set(
            ViewerAssets.files.map { folder.appendingPathComponent($0.path).deletingLastPathComponent().path })
        for assetFolder in assetFolders.sorted() { AtomicFile.removeAbandoned(in: assetFolder) }
        for file in ViewerAssets.files {
            try write(Data(file.text.utf8), to: folder.appendingPathComponent(file.path))
        }
        var script = Data(
            "/* Written by quire from layout.json, for the viewer opened from file:// */\nwindow.QUIRE_LAYOUT = ".utf8)
        script.append(layout)
        script.append(Data(";\n".utf8))
        try write(script, to: folder.appendingPathComponent("layout.js"))
        return try SearchIndexWriter.write(into: folder)
    }

    /// Writes one file atomically; any failure becomes one line naming the file and the reason.
    private static func write(_ data: Data, to url: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.writeUnsynced(data, to: url.path)
        } catch let error as AtomicFileError {
            throw ViewerWriterError(path: url.path, reason: "cannot be written (\(error.reason))")
        } catch {
            let posix = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
            let reason = posix.map { String(cString: strerror(Int32($0))) } ?? "write failed"
            throw ViewerWriterError(path: url.path, reason: "cannot be written (\(reason))")
        }
    }
}

/// The viewer could not be written.
public struct ViewerWriterError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
