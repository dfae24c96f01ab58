import Foundation
import Synchronization
import VipsBridge

/// Where each page's directory (IFD) starts in a multi-page TIFF, read once per file, so each
/// page is opened straight at its directory.
///
/// libvips counts a TIFF's pages on every load by walking all its directories, so opening page
/// k of an N-page file costs O(N), and a batch of its pages O(N^2) (figures in
/// docs/benchmarks.md). Reading the chain of directory offsets once (two small reads a
/// directory) and opening each page as a one-page TIFF (`VIPSImage.loadTIFFPage`) makes a
/// page's cost flat.
enum TIFFDirectories {
    /// The most directories read from one file: far more pages than any scan batch, and a
    /// bound on a hostile chain that does not loop but never ends either.
    static let maxDirectories = 1_000_000

    private struct Entry { var size: Int64; var modified: Int; var offsets: [UInt64] }
    /// Offsets by path, with the file's size and modification time they were read at.
    private static let cache = Mutex<[String: Entry]>([:])

    /// The directory offsets of the TIFF at `path`, in page order, from the cache while the
    /// file's size and modification time are unchanged; nil when it is no TIFF or its chain
    /// is broken (the caller then lets libvips open it and word the error).
    static func offsets(of path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let size = Int64(info.st_size), modified = info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
        if let entry = cache.withLock({ $0[path] }), entry.size == size, entry.modified == modified {
            return entry.offsets
        }
        guard let offsets = read(path) else { return nil }
        cache.withLock { $0[path] = Entry(size: size, modified: modified, offsets: offsets) }
        return offsets
    }

    /// Walks the chain of directories of the TIFF (or BigTIFF) at `path`.
    static func read(_ path: String) -> [UInt64]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        func bytes(_ count: Int, at offset: UInt64) -> [UInt8]? {
            guard offset < UInt64(Int64.max) else { return nil }
            var buffer = [UInt8](repeating: 0, count: count)
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
            return n == count ? buffer : nil
        }
        guard let header = bytes(16, at: 0) ?? bytes(8, at: 0) else { return nil }
        let little: Bool
        switch (header[0], header[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func number(_ b: [UInt8]) -> UInt64 {
            (little ? b.reversed() : b).reduce(0) { $0 << 8 | UInt64($1) }
        }
        let version = number(Array(header[2..<4]))
        guard version == 42 || (version == 43 && header.count == 16) else { return nil }
        let big = version == 43
        let (offsetBytes, countBytes, entryBytes) = big ? (8, 8, 20) : (4, 2, 12)
        var next = number(Array(header[(big ? 8 : 4)..<(big ? 16 : 8)]))
        var offsets: [UInt64] = []
        var seen: Set<UInt64> = []
        while next != 0 {
            guard offsets.count < maxDirectories, seen.insert(next).inserted,
                let count = bytes(countBytes, at: next).map(number), count <= 65_535
            else { return nil }
            offsets.append(next)
            guard let link = bytes(offsetBytes, at: next + UInt64(countBytes) + count * UInt64(entryBytes)) else {
                return nil
            }
            next = number(link)
        }
        return offsets.isEmpty ? nil : offsets
    }

    /// Opens page `source.page` of a TIFF at its directory when the file has several, else
    /// through `VIPSImage.load(file:options:)` (other formats, one-page TIFFs, a broken chain).
    /// - Returns: the image, and whether it was opened at its directory (then its `pageCount`
    ///   is 1, and the page is known to exist).
    static func load(_ source: PageSource, format: SourceFormat, options: VIPSImage.LoadOptions) throws -> (
        VIPSImage, atDirectory: Bool
    ) {
        if format == .tiff, let offsets = offsets(of: source.path), offsets.count > 1, source.page >= 0,
            source.page < offsets.count
        {
            return (
                try VIPSImage.loadTIFFPage(file: source.path, ifdOffset: offsets[source.page], options: options), true
            )
        }
        return (try VIPSImage.load(file: source.path, options: options), false)
    }
}
