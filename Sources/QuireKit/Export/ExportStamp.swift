import Foundation
import QuireImaging

/// What an export was made from, so a rerun can tell that nothing changed and skip the work.
///
/// A stamp hashes the export's options with, for each page file it read, the file's path, size,
/// modification time and inode: a page that `quire process` rewrote (always to a new file,
/// renamed into place) changes its inode and time, and a page left alone keeps them. Reading
/// `stat` costs microseconds per page where hashing the bytes would read the whole batch.
public struct ExportStamp: Codable, Sendable, Equatable {
    /// The hash of the inputs and options.
    public var inputs: String
    /// The size and modification time (ns) of the file the export wrote, to notice that it was
    /// since removed or replaced.
    public var outputSize: Int64?
    public var outputModified: Int64?

    /// Starts a fingerprint of `options` (any stable text, e.g. encoded options).
    public struct Builder {
        private var hash = ContentHash(seed: 18)

        public init(options: String) { hash.update(options); hash.update("\u{0}") }

        /// Adds a file by its identity (path, size, mtime, inode); a missing file adds its path only.
        public mutating func addFile(_ path: String) {
            hash.update(path)
            if let s = ExportStamp.fileIdentity(path) { hash.update("\u{0}\(s.size):\(s.modified):\(s.inode)") }
            hash.update("\u{1}")
        }

        /// Adds a file by its bytes (for small files such as layout.json).
        public mutating func addContents(_ path: String) {
            hash.update(path)
            if let data = FileManager.default.contents(atPath: path) { hash.update(data) }
            hash.update("\u{1}")
        }

        public mutating func add(_ text: String) { hash.update(text); hash.update("\u{1}") }

        public func finish() -> String { hash.hexDigest() }
    }

    /// The identity of the file at `path`: size, modification time in nanoseconds, inode.
    public static func fileIdentity(_ path: String) -> (size: Int64, modified: Int64, inode: UInt64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return (Int64(info.st_size), modified, UInt64(info.st_ino))
    }

    /// A stamp of `inputs` for the output file at `output` as it is now.
    public init(inputs: String, output: String?) {
        self.inputs = inputs
        if let output, let s = Self.fileIdentity(output) {
            outputSize = s.size
            outputModified = s.modified
        }
    }

    /// Whether `stored` says the export at `output` was made from `inputs` and is still there untouched.
    public static func isCurrent(_ stored: ExportStamp?, inputs: String, output: String?) -> Bool {
        guard let stored, stored.inputs == inputs else { return false }
        guard let output else { return true }
        return stored == ExportStamp(inputs: inputs, output: output)
    }

    /// Reads a stamp file; nil when missing or unreadable.
    public static func read(_ path: String) -> ExportStamp? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(ExportStamp.self, from: data)
    }

    /// Writes a stamp file atomically.
    public func write(to path: String) throws {
        try AtomicFile.write(try JSONOutput.encode(self, .hashInput), to: path)
    }
}
