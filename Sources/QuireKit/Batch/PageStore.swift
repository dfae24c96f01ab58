import Foundation
import QuireImaging

/// The finished pages of an output folder, kept under `OUT/.quire/` so that a batch can be
/// killed at any moment and resumed without ever mixing old and new files.
///
/// A page is processed into a fresh staging folder (`.quire/staging/<id>.<random>/`) and
/// committed by renaming that folder to `.quire/store/<id>/` (one atomic rename). Its id is a
/// hash of the page's key, input bytes and options, never of its position, so reused and new
/// pages cannot collide. The final `pages/NNNN`, `previews/NNNN` and `thumbs/NNNN` files are hard
/// links to the stored files, each put in place by link-to-temporary + rename (no extra disk, no
/// half-written final file); the numbering is redone from the store at the end of every run, so
/// a kill during numbering is repaired by the rerun.
struct PageStore: Sendable {
    static let pageName = "page", previewName = "preview", thumbnailName = "thumb"

    let output: String
    let ext: String
    /// `--thumbnails-only`: a page is its thumbnail alone.
    var thumbnailsOnly = false
    /// `--ocr`: a page also has its hOCR and text files.
    var readsText = false
    static let hocrName = "text.hocr", txtName = "text.txt"
    /// A page also has its source's capture for the review (`PagePipeline.writeCapture`).
    var captures = false
    static let captureName = "capture.jpg"

    var root: String { output + "/.quire" }
    var storeDirectory: String { root + "/store" }
    var stagingDirectory: String { root + "/staging" }

    /// The stored file names of a page: page, preview and thumbnail (the thumbnail alone in a
    /// thumbnails-only run).
    var fileNames: [String] { fileNames(part: 1) }

    /// The stored file names of page `part` of a source split into pages (`page-2.jpg` ... for
    /// the second; the names `PageOutputPaths.part` gives).
    func fileNames(part: Int) -> [String] {
        let suffix = part > 1 ? "-\(part)" : ""
        return (thumbnailsOnly ? [Self.thumbnailName] : [Self.pageName, Self.previewName, Self.thumbnailName])
            .map { $0 + suffix + "." + ext }
    }

    /// The stored text file names (hOCR, plain text) of page `part`; none when text is not read.
    func textFileNames(part: Int) -> [String] {
        guard readsText else { return [] }
        let suffix = part > 1 ? "-\(part)" : ""
        return [Self.hocrName, Self.txtName].map { name in
            let dot = name.firstIndex(of: ".")!
            return name[..<dot] + suffix + name[dot...]
        }
    }

    /// Every stored file of page `part`: its renditions, then its text files.
    func allFileNames(part: Int) -> [String] {
        fileNames(part: part) + textFileNames(part: part) + (captures && part == 1 ? [Self.captureName] : [])
    }

    /// The stored capture of page `id`.
    func storedCapture(id: String) -> String { storeDirectory + "/" + id + "/" + Self.captureName }

    /// The stored text files (hOCR, plain text) of page `id` (its page `part`).
    func storedTextFiles(id: String, part: Int = 1) -> [String] {
        textFileNames(part: part).map { storeDirectory + "/" + id + "/" + $0 }
    }

    /// The id of a page: a hash of what it depends on.
    static func id(key: String, inputHash: String, optionsHash: String) -> String {
        ContentHash.of(key + "\n" + inputHash + "\n" + optionsHash)
    }

    /// Creates `.quire/store` and an empty `.quire/staging` (staging folders of a killed run are
    /// removed: they were never committed).
    func prepare() throws {
        let fm = FileManager.default
        try? fm.removeItem(atPath: stagingDirectory)
        try fm.createDirectory(atPath: storeDirectory, withIntermediateDirectories: true)
        try fm.createDirectory(atPath: stagingDirectory, withIntermediateDirectories: true)
    }

    /// A new staging folder for page `id` and the paths the pipeline writes there.
    func stage(id: String) throws -> (folder: String, paths: PageOutputPaths) {
        let folder = stagingDirectory + "/" + id + "." + String(UInt64.random(in: 0 ... .max), radix: 36)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let names = fileNames.map { folder + "/" + $0 }
        let text = textFileNames(part: 1).map { folder + "/" + $0 }
        return (
            folder,
            PageOutputPaths(
                page: names[0], preview: names[names.count > 1 ? 1 : 0], thumbnail: names[names.count - 1],
                hocr: text.first, txt: text.last, capture: captures ? folder + "/" + Self.captureName : nil)
        )
    }

    /// Commits a staged page (`parts` pages of one source): renames its folder to `store/<id>`.
    /// When a killed run already committed the same id (same key, bytes and options), the stored
    /// copy is kept.
    func commit(staged folder: String, id: String, parts: Int = 1) throws {
        let target = storeDirectory + "/" + id
        if rename(folder, target) != 0 {
            let code = errno
            let names = (1...max(1, parts)).flatMap { allFileNames(part: $0) }
            if code == ENOTEMPTY || code == EEXIST,
                names.allSatisfy({ FileManager.default.fileExists(atPath: target + "/" + $0) })
            {
                try? FileManager.default.removeItem(atPath: folder)
                return
            }
            // An incomplete target cannot exist (it is only ever made by rename); replace anything odd.
            try? FileManager.default.removeItem(atPath: target)
            guard rename(folder, target) == 0 else {
                throw ProcessError(path: target, reason: "cannot be committed (\(String(cString: strerror(errno))))")
            }
        }
    }

    /// Removes a staging folder of a page that failed or timed out.
    func discard(staged folder: String) {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The stored files of page `id` (its page `part` when it was split), in page, preview,
    /// thumbnail order.
    func storedFiles(id: String, part: Int = 1) -> [String] {
        fileNames(part: part).map { storeDirectory + "/" + id + "/" + $0 }
    }

    /// Makes `final` (absolute) the same file as `stored`: nothing when it already is (same
    /// inode), else a hard link (or a copy where links are not supported) to a temporary name in
    /// the same folder, renamed over `final`.
    func place(_ stored: String, at final: String) throws {
        var a = stat(), b = stat()
        if stat(stored, &a) == 0, stat(final, &b) == 0, a.st_ino == b.st_ino, a.st_dev == b.st_dev { return }
        let url = URL(fileURLWithPath: final)
        let temporary =
            url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".partial-"
            + String(UInt64.random(in: 0 ... .max), radix: 36)
        unlink(temporary)
        if link(stored, temporary) != 0 {
            do {
                try FileManager.default.copyItem(atPath: stored, toPath: temporary)
            } catch {
                throw ProcessError(
                    path: final, reason: "cannot be written (\((error as NSError).localizedDescription))")
            }
        }
        guard rename(temporary, final) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ProcessError(path: final, reason: "cannot be renamed into place (\(reason))")
        }
    }

    /// Removes stored pages whose id is not in `kept` (pages of inputs or options no longer in
    /// the batch) and the staging folder.
    func collectGarbage(keeping kept: Set<String>) {
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: storeDirectory)) ?? [] where !kept.contains(name) {
            try? fm.removeItem(atPath: storeDirectory + "/" + name)
        }
        try? fm.removeItem(atPath: stagingDirectory)
    }
}
