import Foundation
import QuireImaging
import Synchronization

/// `OUT/.quire/manifest`: one JSON line per finished page, so a rerun of the same command skips
/// what is done and redoes only the rest.
///
/// A finished page lives in the page store (`OUT/.quire/store/<id>/`, see `PageStore`), whose
/// directory is renamed into place before its line is appended, so a line always names complete
/// files. A rerun reuses a page only when the input bytes and the options that shape it are
/// unchanged and its stored files still exist. A process killed mid-append leaves at most one torn
/// last line, which is ignored; appends of one short line are atomic with `O_APPEND` on local
/// file systems. At the end of a run the file is rewritten atomically, in a deterministic order.
public final class ResumeManifest: Sendable {
    /// One finished page.
    public struct Entry: Codable, Sendable, Equatable {
        /// `source#page`: which page of which input.
        public var key: String
        /// Hash of the input file's bytes (`ContentHash`).
        public var inputHash: String
        /// Hash of every option that shapes this page's outputs.
        public var optionsHash: String
        /// The page store directory holding its files (`.quire/store/<store>`).
        public var store: String
        /// What processing the page produced (its layout.json records are rebuilt from it): one
        /// page, or two when the source was an open book split in two.
        public var results: [PageResult]
        /// The final files in OUT of each page, relative to OUT, once committed.
        public var files: [LayoutReport.Files]?

        /// A manifest line: the source page's key, the hashes it was made from, its store id, the
        /// records of the pages it produced and their final files.
        public init(
            key: String, inputHash: String, optionsHash: String, store: String, results: [PageResult],
            files: [LayoutReport.Files]? = nil
        ) {
            self.key = key
            self.inputHash = inputHash
            self.optionsHash = optionsHash
            self.store = store
            self.results = results
            self.files = files
        }
    }

    /// The manifest's location inside an output folder.
    public static func url(in outputDirectory: URL) -> URL {
        outputDirectory.appendingPathComponent(".quire", isDirectory: true).appendingPathComponent("manifest")
    }

    /// The key of one page of one input.
    public static func key(source: String, page: Int) -> String { "\(source)#\(page)" }

    public let url: URL
    /// The entries known and the open append handle, behind one lock (pages finish on several
    /// threads).
    private struct State {
        var entries: [String: Entry]
        var handle: FileHandle?
    }
    private let state: Mutex<State>

    /// Opens (creating when needed) the manifest of `outputDirectory`.
    /// - Parameters:
    ///   - outputDirectory: OUT; the manifest is `OUT/.quire/manifest`.
    ///   - discardExisting: start empty (`--force`), truncating the file.
    /// - Throws: when `.quire/` cannot be created or the file cannot be opened.
    public init(outputDirectory: URL, discardExisting: Bool = false) throws {
        url = Self.url(in: outputDirectory)
        let fm = FileManager.default
        try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if discardExisting { try? fm.removeItem(at: url) }
        let entries = discardExisting ? [:] : Self.load(url)
        state = Mutex(State(entries: entries, handle: try Self.appendHandle(url)))
    }

    deinit { state.withLock { try? $0.handle?.close() } }

    /// The manifest opened for appending.
    private static func appendHandle(_ url: URL) throws -> FileHandle {
        let fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// Reads every well-formed line; the last entry for a key wins, torn lines are skipped.
    static func load(_ url: URL) -> [String: Entry] {
        guard let data = try? Data(contentsOf: url) else { return [:] }
        var result: [String: Entry] = [:]
        let decoder = JSONDecoder()
        for line in data.split(separator: 0x0A) where !line.isEmpty {
            if let entry = try? decoder.decode(Entry.self, from: Data(line)) {
                result[entry.key] = entry
            }
        }
        return result
    }

    /// The finished entry for a page when it can be reused as is: same input bytes, same
    /// options, and every stored file of each of its pages (`fileNames(part)`, parts from 1)
    /// still present under `storeDirectory`.
    public func reusable(
        key: String, inputHash: String, optionsHash: String, storeDirectory: URL,
        fileNames: (Int) -> [String]
    ) -> Entry? {
        let entry = state.withLock { $0.entries[key] }
        guard let entry, entry.inputHash == inputHash, entry.optionsHash == optionsHash, !entry.results.isEmpty else {
            return nil
        }
        let folder = storeDirectory.appendingPathComponent(entry.store)
        for part in 1...entry.results.count {
            for name in fileNames(part)
            where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
                return nil
            }
        }
        return entry
    }

    /// Records a finished page (call after its files are in the store).
    public func record(_ entry: Entry) throws {
        var line = try Self.encoder.encode(entry)
        line.append(0x0A)
        try state.withLock { state in
            try state.handle?.write(contentsOf: line)
            state.entries[entry.key] = entry
        }
    }

    /// Replaces the whole file atomically with `entries` in the order given (the end of a run:
    /// the same batch always leaves the same manifest, and dropped pages are forgotten).
    public func rewrite(_ kept: [Entry]) throws {
        var data = Data()
        for entry in kept {
            data.append(try Self.encoder.encode(entry))
            data.append(0x0A)
        }
        let url = self.url
        try state.withLock { state in
            try AtomicFile.write(data, to: url.path)
            state.entries = Dictionary(kept.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
            try? state.handle?.close()
            state.handle = nil
            state.handle = try Self.appendHandle(url)
        }
    }

    /// Every entry known (loaded or recorded), sorted by key.
    public var allEntries: [Entry] {
        state.withLock { $0.entries.values.sorted { $0.key < $1.key } }
    }

    /// Number of entries known (loaded or recorded).
    public var count: Int { state.withLock { $0.entries.count } }

    private static var encoder: JSONEncoder { JSONOutput.encoder(.line) }
}
