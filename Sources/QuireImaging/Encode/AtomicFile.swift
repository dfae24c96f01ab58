import Foundation

/// Writes files under a temporary name in the destination folder and renames them into
/// place, so a crash or a failed encode never leaves a half-written file under a final name.
public enum AtomicFile {
    /// Calls `write` with a temporary path beside `path` (`.NAME.partial-PID-RANDOM`, which
    /// clean-ups recognise), then renames it to `path`, replacing an older file and creating
    /// the folder when needed. The temporary file is removed when `write` throws.
    public static func write(to path: String, _ write: (String) throws -> Void) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = folder + "/." + url.lastPathComponent + ".partial-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        do {
            try write(temporary)
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw AtomicFileError(path: path, reason: reason)
        }
    }

    /// Removes the temporary files that runs killed mid-write left in `folder`
    /// (`.NAME.partial-PID-RANDOM` whose PID is no longer a live process), so a SIGKILL never
    /// leaves them there for good. A live process's files are never touched, so a run that is
    /// writing beside this one keeps its own.
    /// - Returns: the names removed.
    @discardableResult
    public static func removeAbandoned(in folder: String) -> [String] {
        var removed: [String] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let pid = writerPID(ofTemporary: name), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else {
                continue
            }
            if unlink(folder + "/" + name) == 0 { removed.append(name) }
        }
        return removed
    }

    /// The PID in a temporary name `.NAME.partial-PID-RANDOM`, or nil for any other name.
    static func writerPID(ofTemporary name: String) -> pid_t? {
        guard name.hasPrefix("."), let marker = name.range(of: ".partial-", options: .backwards) else { return nil }
        let parts = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, UInt32(parts[1]) != nil, let pid = pid_t(parts[0]), pid > 0 else { return nil }
        return pid
    }

    /// Writes bytes atomically.
    public static func write(_ data: Data, to path: String) throws {
        try write(to: path) { temporary in
            try data.write(to: URL(fileURLWithPath: temporary))
        }
    }

    /// Writes bytes atomically without waiting for them to reach the disk (`write` then
    /// `rename`, no `fsync`), for files that are rebuilt whole at every run from files already
    /// committed (the viewer from layout.json). Foundation's `Data.write` syncs every file, and
    /// a run ends on those syncs with every core idle: each waits for the file system's journal,
    /// the longer the busier the disk. A killed run still leaves the old file or the new one
    /// (the rename is atomic); a power cut may lose one, and the next run writes it again.
    public static func writeUnsynced(_ data: Data, to path: String) throws {
        try write(to: path) { temporary in
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            guard fd >= 0 else { throw AtomicFileError(path: path, reason: String(cString: strerror(errno))) }
            defer { close(fd) }
            try data.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { throw AtomicFileError(path: path, reason: String(cString: strerror(errno))) }
                    offset += n
                }
            }
        }
    }
}

/// A rename into place failed.
public struct AtomicFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): cannot be written (\(reason))" }
}
