import Dispatch
import VipsBridge

extension ScanDeskew {
    /// Canvas rows a core makes at a time when a page's rows are split across the cores: a
    /// few hundred KB of output, enough to keep the split's overhead out of the figures.
    static let turnRowsPerChunk = 64

    /// `image` turned clockwise by `degrees` as `rotated(degrees:background:interpolation:
    /// .bilinear)` turns it (same canvas, fill and pixels, see `PageTurn`), cut to `crop`
    /// (canvas pixels; nil for the whole canvas), computed now into memory. Only the crop is
    /// made. Images with alpha or not 8-bit are turned by libvips (which premultiplies alpha).
    /// - Throws: `VIPSError` when the pixels cannot be computed or the crop is outside the canvas.
    /// - Complexity: O(crop pixels), split across the cores when a page has them to itself.
    /// - Parameter releasing: called with source rows no later canvas row reads, as the rows are
    ///   made top to bottom (the caller's frame hands them back to the kernel, so the source and
    ///   the turned page are not both held whole); nil to keep the source as it is.
    /// - Parameter stage: the profile stage the turn is counted in.
    static func turned(
        _ image: VIPSImage, degrees: Double, fill colour: [Double],
        crop: (x: Int, y: Int, width: Int, height: Int)? = nil, releasing: ((Range<Int>) -> Void)? = nil,
        stage: String = "2i deskew turn"
    ) throws -> VIPSImage {
        let background = fill(colour, forBands: image.bands, alpha: image.hasAlpha)
        guard image.format == .uchar, !image.hasAlpha, (1...4).contains(image.bands) else {
            let turned = try image.rotated(degrees: degrees, background: background, interpolation: .bilinear)
            guard let crop else { return turned }
            return try turned.cropped(x: crop.x, y: crop.y, width: crop.width, height: crop.height)
        }
        let canvas = PageTurn.canvas(width: image.width, height: image.height, degrees: degrees)
        let region = crop ?? (0, 0, canvas.width, canvas.height)
        guard region.x >= 0, region.y >= 0, region.width > 0, region.height > 0,
            region.x + region.width <= canvas.width, region.y + region.height <= canvas.height
        else {
            throw VIPSError(operation: "rotate", message: "crop \(region) is outside the \(canvas) canvas")
        }
        let frame = try VIPSFrame(width: region.width, height: region.height, bands: image.bands)
        let ink = PageTurn.ink(background, bands: image.bands)
        let chunks = (region.height + turnRowsPerChunk - 1) / turnRowsPerChunk
        // Its own profile stage: the turn was libvips's, lazy, inside "2h deskew into memory".
        let made = try StageProfile.measure(stage) {
            try turn(image, degrees, ink, region, into: frame, chunks, releasing: releasing)
        }
        guard made else {
            throw VIPSError(operation: "rotate", message: "the rotation kernel refused \(region) of \(canvas)")
        }
        return frame.image
    }

    /// Makes `region`'s rows in `frame`, in `chunks` chunks; false when the kernel refused one.
    private static func turn(
        _ image: VIPSImage, _ degrees: Double, _ ink: [UInt8], _ region: (x: Int, y: Int, width: Int, height: Int),
        into frame: VIPSFrame, _ chunks: Int, releasing: ((Range<Int>) -> Void)?
    ) throws -> Bool {
        try image.withPixels { source in
            let job = TurnJob(
                source: source, width: image.width, height: image.height, bands: image.bands, degrees: degrees,
                ink: ink, region: region, dst: frame.pixels.baseAddress!)
            let split = ImagingRuntime.pageSplitsAcrossCores
            // Chunks made in waves, top to bottom, each followed by handing back the source rows
            // above what the rest reads; one wave of all chunks when nothing is handed back.
            let wave = releasing == nil ? chunks : split ? turnChunksPerRelease : 1
            for start in stride(from: 0, to: chunks, by: wave) {
                let end = min(chunks, start + wave)
                guard make(job, chunks: start..<end, split: split) else { return false }
                if let releasing, end < chunks { releasing(0..<job.sourceRows(fromChunk: end).lowerBound) }
            }
            return true
        }
    }

    /// Chunks a split turn makes between two hand-backs of source rows (a few MB of canvas rows
    /// for the cores to share): fewer waits for the slowest chunk than handing back after each.
    static let turnChunksPerRelease = 8

    /// Makes `job`'s `chunks`, split across the cores when `split`; false when one was refused.
    private static func make(_ job: TurnJob, chunks: Range<Int>, split: Bool) -> Bool {
        guard split, chunks.count > 1 else { return chunks.allSatisfy { job.make(chunk: $0) } }
        // The arguments were checked by the caller; a refused chunk is still reported.
        let refused = RefusedChunks(count: chunks.count)
        DispatchQueue.concurrentPerform(iterations: chunks.count) {
            if !job.make(chunk: chunks.lowerBound + $0) { refused.mark($0) }
        }
        return !refused.any
    }
}

/// One page turn split into chunks of canvas rows (`ScanDeskew.turnRowsPerChunk` each).
private struct TurnJob: @unchecked Sendable {
    let source: UnsafeBufferPointer<UInt8>
    let width: Int, height: Int, bands: Int
    let degrees: Double
    let ink: [UInt8]
    let region: (x: Int, y: Int, width: Int, height: Int)
    let dst: UnsafeMutablePointer<UInt8>

    /// Makes chunk `chunk`'s rows; false when the kernel refused them.
    func make(chunk: Int) -> Bool {
        let first = chunk * ScanDeskew.turnRowsPerChunk
        let last = min(region.height, first + ScanDeskew.turnRowsPerChunk)
        return PageTurn.rows(
            source: source, width: width, height: height, bands: bands, degrees: degrees, ink: ink,
            x0: region.x, rows: (region.y + first)..<(region.y + last), outputWidth: region.width,
            into: dst + first * region.width * bands)
    }

    /// The source rows chunks `chunk...` (to the region's end) read.
    func sourceRows(fromChunk chunk: Int) -> Range<Int> {
        let first = min(region.height, chunk * ScanDeskew.turnRowsPerChunk)
        return PageTurn.sourceRows(
            width: width, height: height, degrees: degrees, x0: region.x,
            rows: (region.y + first)..<(region.y + region.height), outputWidth: region.width)
    }
}

/// Which chunks of a split turn the kernel refused (written from several threads, one slot each).
private final class RefusedChunks: @unchecked Sendable {
    private var flags: UnsafeMutableBufferPointer<Bool>
    init(count: Int) { flags = .allocate(capacity: count); flags.initialize(repeating: false) }
    deinit { flags.deallocate() }
    func mark(_ chunk: Int) { flags[chunk] = true }
    var any: Bool { flags.contains(true) }
}
