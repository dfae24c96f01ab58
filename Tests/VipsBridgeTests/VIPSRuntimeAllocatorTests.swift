import Foundation
import Testing
import VipsBridge

/// The allocator as `quire process` sets it (with `--ocr`, and for corrected pages): page-sized
/// blocks freed between pages are reused from the heap, not mapped and zero-filled afresh.
/// Serialized: each test moves the process's thresholds.
@Suite(.serialized) struct VIPSRuntimeAllocatorTests {
    /// Minor page faults of this thread (RUSAGE_THREAD), so other tests do not count.
    static func faults() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)
        return usage.ru_minflt
    }

    /// Faults per block of allocating, filling and freeing a `bytes` block, over the second to
    /// fifth of five rounds (the first may grow the heap). Each block is freed below a live one
    /// (as Tesseract's page buffers are freed below what it keeps), so it is not the heap's top
    /// that glibc trims; the live block is larger than any free chunk a test thread's heap is
    /// likely to hold, so it comes from above.
    static func faultsPerBlock(bytes: Int) -> Int {
        var pins: [UnsafeMutableRawPointer?] = []
        defer { for pin in pins { free(pin) } }
        var before = 0
        for round in 0..<5 {
            if round == 1 { before = faults() }
            guard let block = malloc(bytes) else { return -1 }
            memset(block, 1, bytes)
            pins.append(malloc(512 << 10))
            free(block)
        }
        return (faults() - before) / 4
    }

    /// Other suites running alongside share the heap (a big block another thread freed may serve
    /// the default case from the heap) and set the threshold at start-up (`limitAllocatorGrowth`),
    /// so the kept-in-heap figure is the best of three tries; under the 1 MB threshold every try
    /// costs a fresh mapping, about 1024 faults.
    @Test func pageSizedBlocksAreReusedOnceKeptInHeap() {
        let bytes = 4 << 20
        #expect(bytes >= VIPSRuntime.defaultMmapThreshold && bytes < VIPSRuntime.pageSizedMmapThreshold)
        defer { VIPSRuntime.limitAllocatorGrowth() }  // the threshold as `quire` sets it at start-up
        var reused = Int.max
        for _ in 0..<3 where reused >= 64 {
            #expect(VIPSRuntime.keepPageSizedBlocksInHeap())  // as `quire process --ocr` does
            reused = min(reused, Self.faultsPerBlock(bytes: bytes))
        }
        #expect(reused < 64, "\(reused) faults a block kept in the heap (a fresh 4 MiB mapping costs 1024)")
    }

    /// Faults per block of allocating, filling and freeing a `bytes` block with nothing
    /// allocated after it (freed at the heap's top, which glibc trims beyond its trim
    /// threshold), over the second to fifth of five rounds.
    static func faultsPerTopBlock(bytes: Int) -> Int {
        var before = 0
        for round in 0..<5 {
            if round == 1 { before = faults() }
            guard let block = malloc(bytes) else { return -1 }
            memset(block, 1, bytes)
            free(block)
        }
        return (faults() - before) / 4
    }

    /// Under `keepPageBuffersInHeap` a block freed at the top stays: the next one reuses its
    /// pages. Under the mmap threshold alone it would be trimmed (or be a mapping of its own)
    /// and fault all its 1024 pages in again; best of three tries, as above.
    @Test func pageBuffersFreedAtTheTopStayInTheHeap() {
        let bytes = 4 << 20
        #expect(bytes >= VIPSRuntime.defaultMmapThreshold && bytes < VIPSRuntime.pageBufferThreshold)
        defer { VIPSRuntime.limitAllocatorGrowth() }  // the threshold as `quire` sets it at start-up
        var reused = Int.max
        for _ in 0..<3 where reused >= 64 {
            #expect(VIPSRuntime.keepPageBuffersInHeap())  // as `quire process` does for photos
            reused = min(reused, Self.faultsPerTopBlock(bytes: bytes))
        }
        #expect(reused < 64, "\(reused) faults a block freed at the top (a fresh 4 MiB costs 1024)")
    }
}
