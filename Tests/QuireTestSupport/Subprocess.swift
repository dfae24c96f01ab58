import Foundation

/// A child process that tests await instead of block on. Swift Testing runs tests on the
/// cooperative pool, one thread per core (two here): `waitUntilExit()`, `usleep` and
/// `readDataToEndOfFile()` on that pool held a thread idle for the whole child run, so the
/// other tests queued behind it. Here the pipes are drained by threads of their own and the
/// waits are `Task.sleep` polls, which give the pool thread back while the child works; the
/// child is reaped by a thread of its own (see `init`).
public final class Subprocess: @unchecked Sendable {
    /// How long one poll sleeps: short beside any child run, long enough to cost no CPU.
    public static let pollInterval: UInt64 = 5_000_000

    /// How long the output may stay open after the child exited or was killed (a grandchild
    /// holding the pipe) before the wait gives up on it.
    public static let outputGrace: Double = 10

    /// What became of the child.
    public struct Result: Sendable {
        /// The exit status, or the signal's number when `signalled`.
        public var status: Int32
        /// True when a signal ended the child (a crash, or a kill by the test).
        public var signalled: Bool
        /// True when the child outlived the wait's limit and was killed with SIGKILL.
        public var timedOut: Bool
        public var stdout: Data
        public var stderr: Data
        public var out: String { String(decoding: stdout, as: UTF8.self) }
        public var err: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Where a child's output stream goes.
    public enum Output: Sendable { case capture, discard }

    private let lock = NSLock()
    private var outData = Data(), errData = Data()
    private var openStreams = 0
    /// The wait status once the reaper thread collected the child.
    private var waitStatus: Int32?
    /// The child's process id.
    public let pid: pid_t

    /// Starts `executable` with `arguments`; output is captured unless told otherwise.
    ///
    /// Spawned with `posix_spawn` and reaped by a thread of its own (`waitpid`), not with
    /// Foundation's `Process`: on Linux a `Process` learns of its child's exit from a dispatch
    /// source, which never runs while the tests hold libdispatch's threads (two here), so a
    /// test awaiting `isRunning` could wait forever.
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        stdout: Output = .capture, stderr: Output = .capture
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipes: [(read: Int32, target: Int32)] = []
        for (output, target) in [(stdout, STDOUT_FILENO), (stderr, STDERR_FILENO)] {
            if output == .capture {
                var fds: [Int32] = [0, 0]
                guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
                posix_spawn_file_actions_adddup2(&actions, fds[1], target)
                posix_spawn_file_actions_addclose(&actions, fds[0])
                posix_spawn_file_actions_addclose(&actions, fds[1])
                pipes.append((fds[0], target))
                pipes.append((fds[1], -1))
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            }
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        let env = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { env?.forEach { free($0) } }
        var child: pid_t = 0
        let spawned =
            env.map { posix_spawn(&child, executable, &actions, nil, argv, $0) }
            ?? posix_spawn(&child, executable, &actions, nil, argv, environ)
        for fd in pipes where fd.target == -1 { close(fd.read) }  // the write ends stay with the child
        guard spawned == 0 else {
            for fd in pipes where fd.target != -1 { close(fd.read) }
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT)
        }
        pid = child
        for fd in pipes where fd.target != -1 {
            drain(fd.read) { me, chunk in
                if fd.target == STDOUT_FILENO { me.outData.append(chunk) } else { me.errData.append(chunk) }
            }
        }
        let reaped = child
        let reaper = Thread { [self] in
            var status: Int32 = 0
            while waitpid(reaped, &status, 0) == -1 && errno == EINTR {}
            lock.withLock { waitStatus = status }
        }
        reaper.start()
    }

    /// Reads `fd` to its end on a thread of its own (blocking reads, off the pool), then closes it.
    private func drain(_ fd: Int32, _ append: @escaping @Sendable (Subprocess, Data) -> Void) {
        lock.withLock { openStreams += 1 }
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                let chunk = Data(buffer[0..<n])
                lock.withLock { append(self, chunk) }
            }
            close(fd)
            lock.withLock { openStreams -= 1 }
        }
        thread.start()
    }

    /// True until the child exits.
    public var isRunning: Bool { lock.withLock { waitStatus == nil } }

    /// Complete lines the child wrote to stdout so far.
    public var stdoutLines: Int { lock.withLock { outData.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } } }

    /// Sends `signal` to the child if it still runs.
    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Suspends until `condition` holds or `limit` seconds pass; true when it held.
    public func wait(upTo limit: Double, until condition: @Sendable (Subprocess) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(limit)
        while !condition(self) {
            if Date() >= deadline { return false }
            try? await Task.sleep(nanoseconds: Self.pollInterval)
        }
        return true
    }

    /// Suspends until the child exits and its output is read. A child still running after
    /// `limit` seconds (a hang guard, not a measurement) is killed and reported `timedOut`.
    public func finish(limit: Double = 600) async -> Result {
        let exited = await wait(upTo: limit) { !$0.isRunning }
        if !exited {
            kill(pid, SIGKILL)
            _ = await wait(upTo: Self.outputGrace) { !$0.isRunning }
        }
        _ = await wait(upTo: Self.outputGrace) { me in me.lock.withLock { me.openStreams == 0 } }
        let (out, err, status) = lock.withLock { (outData, errData, waitStatus) }
        guard let status else {
            return Result(status: -1, signalled: false, timedOut: true, stdout: out, stderr: err)
        }
        // The wait status: the low 7 bits are the signal that ended the child, or 0 when it exited.
        let signal = status & 0x7F
        return Result(
            status: signal != 0 ? signal : (status >> 8) & 0xFF, signalled: signal != 0,
            timedOut: !exited, stdout: out, stderr: err)
    }

    /// Runs `executable` to its end and returns what became of it.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        stdout: Output = .capture, stderr: Output = .capture, limit: Double = 600
    ) async throws -> Result {
        try await Subprocess(executable, arguments, environment: environment, stdout: stdout, stderr: stderr)
            .finish(limit: limit)
    }
}
