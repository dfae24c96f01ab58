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

    /// `keepPageSizedBlocksInHeap`'s threshold: above the page-sized buffers Tesseract allocates
    /// and frees while it reads a page (grey and binary copies, thresholds, line images), from a
    /// megabyte to a 300 dpi A4 page in colour.
    public static let pageSizedMmapThreshold = 32 << 20

    /// Raises `limitAllocatorGrowth`'s threshold to `mmapThreshold` (the arenas stay bounded, the
    /// threshold fixed). Under the default one each of Tesseract's page-sized buffers is a fresh
    /// mapping whose every page the kernel zero-fills on first touch, and unmaps when freed, page
    /// after page; above it they are reused from the heap. For runs that read text: the heap
    /// then keeps up to a page's worth of freed blocks (docs/benchmarks.md has the figures).
    /// - Returns: false where the C library is not glibc (nothing changed).
    @discardableResult
    public static func keepPageSizedBlocksInHeap(mmapThreshold: Int = pageSizedMmapThreshold) -> Bool {
        cvips_limit_allocator_growth(Int32(clamping: mmapThreshold), 0) == 0
    }

    /// `keepPageBuffersInHeap`'s threshold: above the buffers one page goes through between its
    /// decode and its files (the warped page, its preview, the resampler's rows, the detector's
    /// and orientation's copies: each a few megabytes), below the decoded frame's planes, which
    /// are mapped on their own either way.
    public static let pageBufferThreshold = 8 << 20

    /// For runs that write corrected pages: blocks below `threshold` bytes come from the heap,
    /// and up to `threshold` bytes freed at a heap's top stay there (glibc's trim threshold,
    /// 128 KiB by default, hands each one back when freed). Under `limitAllocatorGrowth` alone
    /// every such block is a fresh mapping whose pages the kernel faults in and zero-fills,
    /// page after page. The arenas stay bounded, the thresholds fixed, so memory stays flat
    /// with the batch (docs/benchmarks.md has the figures).
    /// - Returns: false where the C library is not glibc (nothing changed).
    @discardableResult
    public static func keepPageBuffersInHeap(threshold: Int = pageBufferThreshold) -> Bool {
        cvips_limit_allocator_growth(Int32(clamping: threshold), 0) == 0
            && cvips_set_heap_trim_threshold(Int32(clamping: threshold)) == 0
    }
}
