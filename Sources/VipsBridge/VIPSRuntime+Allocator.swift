internal import CVipsShim

extension VIPSRuntime {
    /// `limitAllocatorGrowth`'s threshold: decoded pages (megabytes) go back to the kernel when
    /// freed; read buffers meant to be reused per file must stay below it.
    public static let defaultMmapThreshold = 1 << 20

    /// Keeps RSS flat over long batches of large images: glibc's malloc otherwise keeps freed
    /// decode buffers in per-thread arenas and raises its mmap threshold as it sees them, so
    /// memory grows with the number of pages although every page's pixels are freed. A fixed
    /// threshold hands every buffer of at least `mmapThreshold` bytes back to the kernel when
    /// freed; `arenas` bounds the fragmentation of the small allocations.
    /// Call once at start-up, before worker threads exist.
    /// - Returns: false where the C library is not glibc (nothing changed).
    @discardableResult
    public static func limitAllocatorGrowth(mmapThreshold: Int = defaultMmapThreshold, arenas: Int = 2) -> Bool {
        cvips_limit_allocator_growth(Int32(clamping: mmapThreshold), Int32(clamping: arenas)) == 0
    }
}
