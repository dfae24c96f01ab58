internal import CVips
internal import CVipsShim

/// Process-wide libvips state: start-up, thread pool size, operation cache and blocking.
///
/// `vips_init` must run once per process before any other call; `VIPSRuntime.start()` is
/// idempotent and thread-safe (a Swift `static let` runs its initialiser exactly once), and
/// every `VIPSImage` entry point calls it, so callers never have to remember.
public enum VIPSRuntime {
    private static let started: Bool = {
        // libvips's loadable modules (PDF, HEIF, JPEG XL, ImageMagick, OpenSlide) and their
        // libraries are opened when a file first needs one, not at start-up: most batches are
        // JPEG, PNG and TIFF, which libvips reads itself (docs/benchmarks.md, "Start-up: the second
        // start and libvips's modules").
        guard cvips_init("quire", 1) == 0 else { return false }
        // Pages are processed concurrently by Quire itself; keep libvips's own operation
        // cache small so memory stays bounded by the pages in flight.
        cvips_cache_set_max(0)
        // Formats a scanner never produces and that have a record of hanging or of running
        // external delegates stay off unless `allowUntrustedLoaders(true)` is called.
        for name in untrustedLoaders { cvips_operation_block(name, 1) }
        return true
    }()

    /// Loader classes blocked by default: SVG (a truncated .svgz spins forever in 8.14) and
    /// the ImageMagick fallback for unknown formats.
    public static let untrustedLoaders = ["VipsForeignLoadSvg", "VipsForeignLoadMagick"]

    /// Whether libvips's loadable modules are open: false until a file needs one of them (or
    /// always true when `VIPSHOME` is set, where libvips opens them at start-up).
    public static var modulesOpen: Bool {
        _ = try? start()
        return cvips_modules_open() != 0
    }

    /// Starts libvips if it is not running yet.
    /// - Throws: `VIPSError` when libvips cannot start (missing modules, bad install).
    public static func start() throws {
        guard started else {
            throw VIPSError(operation: "init", message: takeErrorMessage())
        }
    }

    /// Unblocks (or re-blocks) the loaders in `untrustedLoaders`.
    public static func allowUntrustedLoaders(_ allowed: Bool) {
        _ = try? start()
        for name in untrustedLoaders { cvips_operation_block(name, allowed ? 0 : 1) }
    }

    /// The number of worker threads libvips uses per pipeline.
    public static var concurrency: Int {
        get { _ = try? start(); return Int(cvips_concurrency_get()) }
        set { _ = try? start(); cvips_concurrency_set(Int32(max(1, newValue))) }
    }

    /// The number of libvips images alive in this process (leak checks in tests).
    public static var liveImageCount: Int {
        _ = try? start()
        // The operation cache is off (max 0), so no cached operation holds images here.
        // (vips_cache_drop_all frees the cache table itself: it is for shutdown only.)
        return Int(cvips_live_image_count())
    }

    /// Bytes of pixel memory libvips tracks now, and its high-water mark.
    public static var trackedMemory: (current: Int, highWater: Int) {
        (Int(cvips_tracked_mem()), Int(cvips_tracked_mem_highwater()))
    }

    /// Starts the calling thread's error messages afresh: libvips keeps one buffer for the
    /// process, and a file that loaded despite a warning (or a decoder's first try that fell
    /// back to libvips) leaves its message there. Call when work on a new file begins, so that
    /// the next failure on this thread reports only what was said since.
    public static func beginFileErrors() {
        _ = try? start()
        cvips_error_begin()
    }

    /// Copies and clears libvips's error buffer; returns a readable single line of what was
    /// said since the thread's `beginFileErrors()`.
    static func takeErrorMessage() -> String {
        guard let raw = cvips_error_take() else { return VIPSError.unknownMessage }
        defer { cvips_free(raw) }
        let text = String(cString: raw)
        let lines = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: " \t") }
            .filter { !$0.isEmpty }
        var unique: [Substring] = []
        for line in lines where !unique.contains(line) { unique.append(line) }
        return unique.isEmpty ? VIPSError.unknownMessage : unique.prefix(3).joined(separator: "; ")
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return s
    }
}
