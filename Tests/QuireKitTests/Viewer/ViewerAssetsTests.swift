import Foundation
import Testing
import QuireKit

/// The viewer embedded in the binary must be the one in Viewer/ (rerun Scripts/embed_viewer.py).
@Suite struct ViewerAssetsTests {
    static var repoRoot: URL {
        TestSupport.repoRoot
    }

    @Test func embeddedFilesEqualViewerFolder() throws {
        let viewer = Self.repoRoot.appendingPathComponent("Viewer")
        var onDisk: [String: String] = [:]
        let walker = FileManager.default.enumerator(at: viewer, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard ["html", "css", "js"].contains(url.pathExtension) else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(viewer.standardizedFileURL.path.count + 1))
            onDisk[relative == "index.html" ? relative : "quire-viewer/" + relative] = try String(
                contentsOf: url, encoding: .utf8)
        }
        let embedded = Dictionary(uniqueKeysWithValues: ViewerAssets.files.map { ($0.path, $0.text) })
        #expect(Set(embedded.keys) == Set(onDisk.keys), "run Scripts/embed_viewer.py")
        for (path, text) in onDisk { #expect(embedded[path] == text, "\(path) differs: run Scripts/embed_viewer.py") }
    }

    @Test func writerNeedsALayoutAndWritesEveryFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-viewer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: ViewerWriterError.self) { try ViewerWriter.write(into: dir) }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("index.html").path))
        try Data(#"{"pages":[]}"#.utf8).write(to: dir.appendingPathComponent("layout.json"))
        try ViewerWriter.write(into: dir)
        for path in ViewerWriter.paths {
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent(path).path), "\(path)")
        }
        let script = try String(contentsOf: dir.appendingPathComponent("layout.js"), encoding: .utf8)
        #expect(script.contains(#"window.QUIRE_LAYOUT = {"pages":[]};"#))
    }
}
