import Foundation
import QuireSync

/// The lock one `quire process` run holds on its output folder, so that a second run on the
/// same OUT is refused instead of interleaving its files with the first one's.
///
/// It is an advisory `flock` on `OUT/.quire/lock`, held for as long as the lock value lives.
/// The kernel drops a `flock` when its process ends, however it ends (SIGKILL included), so a
/// lock file left behind by a dead run never blocks the next one. The file holds the owner's
/// pid only to name it in the refusal.
public final class OutputLock: Sendable {
    /// The lock file's path inside an output folder.
    public static func path(in out: String) -> String { out + "/" + InputDiscovery.stateFolderName + "/lock" }

    /// The lock file's descriptor, -1 once released.
    private let descriptor: LockedValue<Int32>

    /// Takes the lock on `out`, creating `out/.quire/` when missing.
    /// - Throws: `ProcessError` when another live process holds the lock (naming its pid) or
    ///   when the lock file cannot be created.
    public init(output out: String) throws {
        let path = Self.path(in: out)
        do {
            try FileManager.default.createDirectory(
                atPath: out + "/" + InputDiscovery.stateFolderName,
                withIntermediateDirectories: true)
        } catch {
            throw ProcessError(
                path: out, reason: "cannot create the output folder (\((error as NSError).localizedDescription))")
        }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw ProcessError(path: path, reason: "cannot be opened (\(String(cString: strerror(errno))))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(fd, &buffer, buffer.count, 0)
            close(fd)
            guard code == EWOULDBLOCK else {
                throw ProcessError(path: path, reason: "cannot be locked (\(String(cString: strerror(code))))")
            }
            let pid = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
            throw ProcessError(
                path: out,
                reason: "is in use by another quire process\(pid.isEmpty ? "" : " (pid \(pid))"); "
                    + "wait for it to finish or write to another folder")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, pid, pid.count, 0)
        descriptor = LockedValue(fd)
    }

    /// Releases the lock now (it is also released when the value is freed or the process ends).
    public func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            close(fd)
            fd = -1
        }
    }

    deinit { release() }
}
