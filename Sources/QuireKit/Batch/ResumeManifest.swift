import Foundation

/// `OUT/.quire/manifest`: one JSON line per finished page, so a rerun of the same command skips
/// what is done and redoes only the rest.
///
/// A page counts as finished only when its line was appended *after* all its files were renamed
/// into place, and a rerun reuses it only when the input bytes, the options that shape it and its
/// position in the batch are unchanged and its files still exist. A process killed mid-append
/// leaves at most one torn last line, which is ignored; appends of one short line are atomic
/// with `O_APPEND` on local file systems.
public final class ResumeManifest: @unchecked Sendable {
    /// One finished page.
    public struct Entry: Codable, Sendable, Equatable {
        /// `source#page`: which page of which input.
        public var key: String
        /// Hash of the input file's bytes (`ContentHash`).
        public var inputHash: String
        /// Hash of every option that shapes this page's outputs.
        public var optionsHash: String
        /// The page as recorded in layout.json (its layout geometry is recomputed per run).
        public var page: LayoutReport.Page

        public init(key: String, inputHash: String, optionsHash: String, page: LayoutReport.Page) {
            self.key = key
            self.inputHash = inputHash
            self.optionsHash = optionsHash
            self.page = page
        }
    }

    /// The manifest's location inside an output folder.
    public static func url(in outputDirectory: URL) -> URL {
        outputDirectory.appendingPathComponent(".quire", isDirectory: true).appendingPathComponent("manifest")
    }

    /// The key of one page of one input.
    public static func key(source: String, page: Int) -> String { "\(source)#\(page)" }

    public let url: URL
    private let lock = NSLock()
    private var entries: [String: Entry]
    private var handle: FileHandle?

    /// Opens (creating when needed) the manifest of `outputDirectory`.
    /// - Parameter discardExisting: start empty (`--force`), truncating the file.
    /// - Throws: when `.quire/` cannot be created or the file cannot be opened.
    public init(outputDirectory: URL, discardExisting: Bool = false) throws {
        url = Self.url(in: outputDirectory)
        let fm = FileManager.default
        try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if discardExisting { try? fm.removeItem(at: url) }
        entries = discardExisting ? [:] : Self.load(url)
        let fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    deinit { try? handle?.close() }

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
    /// options, same batch position, and every output file still present.
    public func reusable(key: String, inputHash: String, optionsHash: String, index: Int,
                        outputDirectory: URL) -> Entry? {
        lock.lock()
        let entry = entries[key]
        lock.unlock()
        guard let entry, entry.inputHash == inputHash, entry.optionsHash == optionsHash,
              entry.page.index == index else { return nil }
        let files = [entry.page.files.page, entry.page.files.preview, entry.page.files.thumbnail]
            + (entry.page.files.mask.map { [$0] } ?? [])
        let fm = FileManager.default
        for file in files where !fm.fileExists(atPath: outputDirectory.appendingPathComponent(file).path) {
            return nil
        }
        return entry
    }

    /// Records a finished page (call after its files are in place).
    public func record(_ entry: Entry) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = try encoder.encode(entry)
        line.append(0x0A)
        lock.lock()
        defer { lock.unlock() }
        try handle?.write(contentsOf: line)
        entries[entry.key] = entry
    }

    /// Number of entries known (loaded or recorded).
    public var count: Int {
        lock.lock(); defer { lock.unlock() }
        return entries.count
    }
}
