import Foundation
import Synchronization
import VipsBridge

/// The process-wide imaging settings a batch needs, without exposing libvips.
public enum ImagingRuntime {
    /// Shares the cores between pages processed at once and libvips's own worker threads,
    /// so `pagesInFlight` x threads-per-page stays near the core count instead of
    /// oversubscribing it.
    /// - Returns: the libvips threads each page now gets.
    @discardableResult
    public static func configure(pagesInFlight: Int, cores: Int) -> Int {
        let threads = max(1, cores / max(1, pagesInFlight))
        VIPSRuntime.concurrency = threads
        return threads
    }

    /// Whether a page's own loops (warp, resampling) should split across the cores: true when
    /// a page has more than one (`configure` gave libvips several threads a page); false when
    /// the pages in flight already fill them, where handing work to other threads only adds
    /// wake-ups.
    static var pageSplitsAcrossCores: Bool { VIPSRuntime.concurrency > 1 }

    /// Silences libvips's warnings on stderr (the batch reports every failure itself).
    public static func silenceDecoderWarnings(_ silenced: Bool = true) {
        VIPSRuntime.setWarningsSilenced(silenced)
    }

    /// Lets SVG and the ImageMagick fallback decode files (`--allow-untrusted-formats`); they
    /// are refused by default because a scanner never makes them and they have hung or run
    /// external programs on hostile input.
    public static func allowUntrustedFormats(_ allowed: Bool) {
        untrusted.set(allowed)
        VIPSRuntime.allowUntrustedLoaders(allowed)
    }

    /// Whether `allowUntrustedFormats(true)` is in effect.
    public static var untrustedFormatsAllowed: Bool { untrusted.value }

    private static let untrusted = Flag()

    /// A process-wide switch.
    private final class Flag: Sendable {
        private let state = Mutex(false)
        func set(_ v: Bool) { state.withLock { $0 = v } }
        var value: Bool { state.withLock { $0 } }
    }

    /// libvips images alive in the process (leak checks).
    public static var liveImageCount: Int { VIPSRuntime.liveImageCount }

    /// Bytes of pixel memory libvips tracks now and at most so far.
    public static var trackedMemory: (current: Int, highWater: Int) { VIPSRuntime.trackedMemory }
}

extension ImagingRuntime {
    /// Keeps the process's memory flat over long batches (see `VIPSRuntime.limitAllocatorGrowth`;
    /// without it RSS grows with the batch: docs/benchmarks.md#figures-behind-design-choices).
    /// Call once at start-up, before worker threads.
    @discardableResult
    public static func limitAllocatorGrowth() -> Bool { VIPSRuntime.limitAllocatorGrowth() }

    /// For runs that read text (`--ocr`): Tesseract's page-sized buffers are reused from the heap
    /// instead of mapped and zero-filled afresh for every page (see
    /// `VIPSRuntime.keepPageSizedBlocksInHeap`).
    @discardableResult
    public static func keepOCRBuffersInHeap() -> Bool { VIPSRuntime.keepPageSizedBlocksInHeap() }

    /// For runs that write corrected pages without reading their text: a page's buffers are
    /// reused by the next page instead of mapped and zero-filled afresh (see
    /// `VIPSRuntime.keepPageBuffersInHeap`).
    @discardableResult
    public static func keepPageBuffersInHeap() -> Bool { VIPSRuntime.keepPageBuffersInHeap() }
}
