import Foundation

/// XXH64 (xxHash, 64-bit): a fast non-cryptographic hash used to notice that an input file or
/// the options that shape a page have changed since the last run (resume manifest, shards).
///
/// Not for security: an attacker who controls inputs gains nothing from a collision except
/// making Quire skip re-processing their own file.
public struct ContentHash: Sendable {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    private var v1: UInt64, v2: UInt64, v3: UInt64, v4: UInt64
    private var buffer: [UInt8] = []
    private var total: UInt64 = 0
    private let seed: UInt64

    /// An empty XXH64 state with `seed`.
    public init(seed: UInt64 = 0) {
        self.seed = seed
        v1 = seed &+ Self.p1 &+ Self.p2
        v2 = seed &+ Self.p2
        v3 = seed
        v4 = seed &- Self.p1
        buffer.reserveCapacity(32)
    }

    @inline(__always) private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        var a = acc &+ input &* p2
        a = (a << 31) | (a >> 33)
        return a &* p1
    }

    @inline(__always) private static func merge(_ acc: UInt64, _ v: UInt64) -> UInt64 {
        let a = acc ^ round(0, v)
        return a &* p1 &+ p4
    }

    @inline(__always) private static func read64(_ p: UnsafeRawBufferPointer, _ i: Int) -> UInt64 {
        UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i, as: UInt64.self))
    }

    @inline(__always) private static func read32(_ p: UnsafeRawBufferPointer, _ i: Int) -> UInt64 {
        UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i, as: UInt32.self)))
    }

    /// Feeds bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        total &+= UInt64(bytes.count)
        var offset = 0
        if !buffer.isEmpty {
            let take = min(32 - buffer.count, bytes.count)
            buffer.append(contentsOf: bytes[0..<take])
            offset = take
            if buffer.count < 32 { return }
            buffer.withUnsafeBytes { consumeStripe($0, 0) }
            buffer.removeAll(keepingCapacity: true)
        }
        while offset + 32 <= bytes.count {
            consumeStripe(bytes, offset)
            offset += 32
        }
        if offset < bytes.count { buffer.append(contentsOf: bytes[offset...]) }
    }

    /// Adds `data`'s bytes to the hash.
    public mutating func update<D: ContiguousBytes>(_ data: D) {
        data.withUnsafeBytes { update($0) }
    }

    /// Adds `string`'s UTF-8 bytes to the hash.
    public mutating func update(_ string: String) {
        var s = string
        s.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always) private mutating func consumeStripe(_ p: UnsafeRawBufferPointer, _ i: Int) {
        v1 = Self.round(v1, Self.read64(p, i))
        v2 = Self.round(v2, Self.read64(p, i + 8))
        v3 = Self.round(v3, Self.read64(p, i + 16))
        v4 = Self.round(v4, Self.read64(p, i + 24))
    }

    /// The digest of everything fed so far.
    public func finalize() -> UInt64 {
        var h: UInt64
        if total >= 32 {
            h =
                ((v1 << 1) | (v1 >> 63)) &+ ((v2 << 7) | (v2 >> 57))
                &+ ((v3 << 12) | (v3 >> 52)) &+ ((v4 << 18) | (v4 >> 46))
            h = Self.merge(h, v1); h = Self.merge(h, v2); h = Self.merge(h, v3); h = Self.merge(h, v4)
        } else {
            h = seed &+ Self.p5
        }
        h &+= total
        buffer.withUnsafeBytes { p in
            var i = 0
            while i + 8 <= p.count {
                h ^= Self.round(0, Self.read64(p, i))
                h = ((h << 27) | (h >> 37)) &* Self.p1 &+ Self.p4
                i += 8
            }
            if i + 4 <= p.count {
                h ^= Self.read32(p, i) &* Self.p1
                h = ((h << 23) | (h >> 41)) &* Self.p2 &+ Self.p3
                i += 4
            }
            while i < p.count {
                h ^= UInt64(p[i]) &* Self.p5
                h = ((h << 11) | (h >> 53)) &* Self.p1
                i += 1
            }
        }
        h ^= h >> 33; h = h &* Self.p2
        h ^= h >> 29; h = h &* Self.p3
        h ^= h >> 32
        return h
    }

    /// The digest as 16 lowercase hex digits.
    public func hexDigest() -> String {
        let value = finalize()
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The read size of `FileReader`: below the 1 MiB mmap threshold the batch fixes
    /// (`VIPSRuntime.defaultMmapThreshold`), so the buffer stays in the heap, warm, where a
    /// 1 MiB one was a fresh mapping per file whose pages all faulted in and were zeroed.
    public static let readChunkBytes = 256 << 10

    /// Hashes a whole file with a read buffer of its own; for many files use one `FileReader`.
    /// - Throws: when the file cannot be opened or read.
    public static func ofFile(atPath path: String) throws -> String {
        try FileReader().hash(atPath: path)
    }

    /// Hashes files through one `readChunkBytes` buffer, kept for all of them.
    ///
    /// One buffer per file fragmented the heap: a heap-sized buffer freed after each file had
    /// the batch's small, long-lived allocations carved from its hole, so the next file's buffer
    /// came from fresh heap, and planning a large batch left freed memory that glibc could not
    /// return (docs/benchmarks.md, "Planning memory"). Not thread-safe: one per thread.
    public final class FileReader {
        private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: readChunkBytes, alignment: 64)

        /// A reader with its buffer allocated once.
        public init() {}

        deinit { chunk.deallocate() }

        /// Hashes a whole file, reading it in `readChunkBytes` chunks (memory stays flat for any size).
        ///
        /// Plain `read(2)`: `FileHandle.read(upToCount:)` reads 4 KiB a call on Linux, hundreds
        /// of system calls for one capture where this makes a few.
        /// - Throws: when the file cannot be opened or read.
        public func hash(atPath path: String) throws -> String {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
            }
            defer { close(fd) }
            var hash = ContentHash()
            while true {
                let n = read(fd, chunk.baseAddress, chunk.count)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])
                }
                if n == 0 { break }
                hash.update(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
            }
            return hash.hexDigest()
        }
    }

    /// Hashes a string (UTF-8).
    public static func of(_ string: String) -> String {
        var hash = ContentHash()
        hash.update(string)
        return hash.hexDigest()
    }
}
