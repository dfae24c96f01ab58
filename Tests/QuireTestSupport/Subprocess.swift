import Foundation

/// A child process that tests await instead of block on. Swift Testing runs tests on the
/// cooperative pool, one thread per core (two here): `waitUntilExit()`, `usleep` and
/// `readDataToEndOfFile()` on that pool held a thread idle for the whole child run, so the
/// other tests queued behind it. Here the pipes are drained by threads of their own and the
/// waits are `Task.sleep` polls, which give the pool thread back while the child works.
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

    private let process = Process()
    private let lock = NSLock()
    private var outData = Data(), errData = Data()
    private var openStreams = 0

    /// Starts `executable` with `arguments`; output is captured unless told otherwise.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                stdout: Output = .capture, stderr: Output = .capture) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let outPipe = stdout == .capture ? Pipe() : nil, errPipe = stderr == .capture ? Pipe() : nil
        process.standardOutput = outPipe ?? FileHandle.nullDevice
        process.standardError = errPipe ?? FileHandle.nullDevice
        try process.run()
        if let outPipe { drain(outPipe.fileHandleForReading) { $0.outData.append($1) } }
        if let errPipe { drain(errPipe.fileHandleForReading) { $0.errData.append($1) } }
    }

    /// Reads `handle` to its end on a thread of its own (blocking reads, off the pool).
    private func drain(_ handle: FileHandle, _ append: @escaping @Sendable (Subprocess, Data) -> Void) {
        lock.withLock { openStreams += 1 }
        let thread = Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { append(self, chunk) }
            }
            lock.withLock { openStreams -= 1 }
        }
        thread.start()
    }

    /// The child's process id.
    public var pid: Int32 { process.processIdentifier }

    /// True until the child exits.
    public var isRunning: Bool { process.isRunning }

    /// Complete lines the child wrote to stdout so far.
    public var stdoutLines: Int { lock.withLock { outData.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } } }

    /// Sends `signal` to the child if it still runs.
    public func signal(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
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
        let exited = await wait(upTo: limit) { !$0.process.isRunning }
        if !exited {
            kill(process.processIdentifier, SIGKILL)
            _ = await wait(upTo: Self.outputGrace) { !$0.process.isRunning }
        }
        _ = await wait(upTo: Self.outputGrace) { me in me.lock.withLock { me.openStreams == 0 } }
        let (out, err) = lock.withLock { (outData, errData) }
        let signalled = !process.isRunning && process.terminationReason == .uncaughtSignal
        return Result(status: process.isRunning ? -1 : process.terminationStatus, signalled: signalled,
                      timedOut: !exited, stdout: out, stderr: err)
    }

    /// Runs `executable` to its end and returns what became of it.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           stdout: Output = .capture, stderr: Output = .capture, limit: Double = 600) async throws -> Result {
        try await Subprocess(executable, arguments, environment: environment, stdout: stdout, stderr: stderr)
            .finish(limit: limit)
    }
}
