import Foundation
import QuireImaging

/// Writes the web viewer into an output folder: `index.html`, `quire-viewer/…` (style and one
/// script per layout, embedded in the binary by `Scripts/embed_viewer.py`) and `layout.js`.
///
/// `layout.js` is `OUT/layout.json` wrapped as `window.QUIRE_LAYOUT = …;`: browsers refuse
/// `fetch()` of a sibling file on `file://`, but load a classic `<script src>`, so the same
/// folder opens by double-click and from any static server. (The viewer falls back to
/// fetching layout.json when layout.js is missing.) Every file is written atomically.
public enum ViewerWriter {
    /// The files written besides `layout.js`, relative to the folder.
    public static var paths: [String] { ViewerAssets.files.map(\.path) + ["layout.js"] }

    /// Writes the viewer into `folder`, which must hold a `layout.json`.
    /// - Throws: `OutputFolderError`-style errors naming the file when layout.json is missing or a write fails.
    public static func write(into folder: URL) throws {
        let layoutURL = folder.appendingPathComponent("layout.json")
        guard let layout = try? Data(contentsOf: layoutURL) else {
            throw ViewerWriterError(path: layoutURL.path, reason: "no layout.json to show (run quire process first)")
        }
        for file in ViewerAssets.files {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(Data(file.text.utf8), to: url.path)
        }
        var script = Data("/* Written by quire from layout.json, for the viewer opened from file:// */\nwindow.QUIRE_LAYOUT = ".utf8)
        script.append(layout)
        script.append(Data(";\n".utf8))
        try AtomicFile.write(script, to: folder.appendingPathComponent("layout.js").path)
    }
}

/// The viewer could not be written.
public struct ViewerWriterError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
