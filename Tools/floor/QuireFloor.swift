import ArgumentParser
import Foundation
import Synchronization
import VipsBridge

/// `quire-floor`: the benchmark's floor, the least work that produces the same three files per
/// capture as `quire process` (full page, preview, thumbnail) with no detection and no correction.
///
/// It uses the same library (VipsBridge over libvips) and the same encoder settings as Quire
/// (JPEG Q 85, metadata stripped, optimised Huffman tables only with `--optimize-coding`, as
/// `quire process`), runs `--jobs` pages at once (both
/// cores busy by default), and writes `OUT/pages|previews|thumbs/NNNN.jpg` under temporary names
/// renamed into place, so `quire process` can be judged against it in the same run: whatever
/// Quire spends above this figure is detection, correction, layout and overhead.
@main
struct QuireFloor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quire-floor",
        abstract: "Decode captures and encode page, preview and thumbnail with no correction (the benchmark floor).")

    /// How the three outputs are derived from one capture.
    enum Strategy: String, ExpressibleByArgument, CaseIterable {
        /// Stream the decode, keep only the page region (cropped in stored orientation, then
        /// turned upright); preview resized from it, thumbnail from the preview.
        case stream
        /// Decode once into memory; preview resized from it; thumbnail resized from the preview.
        case cascade
        /// Decode once into memory; preview and thumbnail each resized from the full image.
        case decodeOnce = "decode-once"
        /// Page streamed from the file; preview and thumbnail by shrink-on-load from the file.
        case shrinkOnLoad = "shrink-on-load"
    }

    @Argument(help: "Image files or folders of images (not recursive).")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Output folder.")
    var output: String

    @Option(help: "Pages processed at once (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "libvips worker threads per pipeline (default: 1, the pages themselves fill the cores).")
    var vipsThreads: Int = 1

    @Option(help: "Longest side of the preview.")
    var previewSize: Int = 1600

    @Option(help: "Longest side of the thumbnail.")
    var thumbSize: Int = 256

    @Option(help: "JPEG quality.")
    var quality: Int = 85

    @Flag(help: "Optimised Huffman tables (as quire process --optimize-coding).")
    var optimizeCoding = false

    @Option(help: "How outputs are derived: \(Strategy.allCases.map(\.rawValue).joined(separator: ", ")).")
    var strategy: Strategy = .stream

    @Option(
        help: ArgumentHelp(
            "JSON object: file name -> [width, height] or [width, height, centreX, centreY] of the page Quire writes for it.",
            discussion:
                "The floor then encodes a crop of that size (no correction), so its page costs what Quire's corrected page costs to encode. Without it, or for files it does not name, the page is the whole frame."
        ))
    var pageSizes: String?

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard previewSize >= 1, thumbSize >= 1 else { throw ValidationError("sizes must be positive") }
    }

    func run() throws {
        let files = try FloorInputs.list(inputs)
        guard !files.isEmpty else { throw ValidationError("no images in \(inputs.joined(separator: " "))") }
        let fm = FileManager.default
        for sub in ["pages", "previews", "thumbs"] {
            try fm.createDirectory(atPath: "\(output)/\(sub)", withIntermediateDirectories: true)
        }
        try VIPSRuntime.start()
        VIPSRuntime.concurrency = vipsThreads

        let sizes = try pageSizes.map(FloorInputs.pageSizes(from:)) ?? [:]
        let work = FloorWork(
            output: output, previewSize: previewSize, thumbSize: thumbSize,
            save: VIPSImage.SaveOptions(
                format: .jpeg, quality: quality, stripMetadata: true,
                optimizeCoding: optimizeCoding),
            strategy: strategy, pageSizes: sizes)
        let next = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
        let started = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: min(jobs, files.count)) { _ in
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < files.count else { return }
                do {
                    try work.process(files[i], number: i + 1)
                } catch {
                    failures.withLock { $0.append("\(files[i]): \(error)") }
                }
            }
        }
        let elapsed = ContinuousClock.now - started
        let failed = failures.withLock { $0 }
        for line in failed { FileHandle.standardError.write(Data("quire-floor: \(line)\n".utf8)) }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        FileHandle.standardError.write(
            Data(
                String(
                    format: "quire-floor: %d pages (%d failed) in %.2f s, %.2f pages/s, strategy %@, jobs %d\n",
                    files.count - failed.count, failed.count, seconds,
                    Double(files.count - failed.count) / max(seconds, 1e-9), strategy.rawValue, jobs
                ).utf8))
        if !failed.isEmpty { throw ExitCode(1) }
    }
}

/// The per-page work, shared read-only by the workers.
struct FloorWork: Sendable {
    let output: String
    let previewSize: Int
    let thumbSize: Int
    let save: VIPSImage.SaveOptions
    let strategy: QuireFloor.Strategy
    /// Page size (and optional centre) by file name; see `--page-sizes`.
    let pageSizes: [String: [Double]]

    /// The largest size with the image's aspect ratio inside a `box` x `box` square, never enlarged.
    static func fit(_ width: Int, _ height: Int, inside box: Int) -> (Int, Int) {
        let scale = min(1, Double(box) / Double(max(width, height)))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// The page region for `file` in an upright `width` x `height` frame: the size Quire's
    /// page has, centred where the page is (or in the frame), clamped to the frame.
    func pageRegion(for file: String, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: file))
            .map { ($0 as NSString).lastPathComponent }
        guard let entry = resolved.flatMap({ pageSizes[$0] }) ?? pageSizes[(file as NSString).lastPathComponent],
            entry.count >= 2
        else { return nil }
        let w = min(width, max(1, Int(entry[0].rounded()))), h = min(height, max(1, Int(entry[1].rounded())))
        let cx = entry.count >= 4 ? entry[2] : Double(width) / 2
        let cy = entry.count >= 4 ? entry[3] : Double(height) / 2
        let x = min(max(0, Int((cx - Double(w) / 2).rounded())), width - w)
        let y = min(max(0, Int((cy - Double(h) / 2).rounded())), height - h)
        return (x, y, w, h)
    }

    /// The stored-pixel rectangle that becomes display rectangle `r` once EXIF orientation `o`
    /// is applied; nil for the mirrored orientations (2, 4, 5, 7), which take the full decode.
    static func storedRect(
        _ r: (x: Int, y: Int, width: Int, height: Int), orientation o: Int,
        storedWidth W: Int, storedHeight H: Int
    ) -> (x: Int, y: Int, width: Int, height: Int)? {
        switch o {
        case 1: return r
        case 3: return (W - r.x - r.width, H - r.y - r.height, r.width, r.height)
        case 6: return (r.y, H - r.x - r.width, r.height, r.width)  // shown turned 90 degrees clockwise
        case 8: return (W - r.y - r.height, r.x, r.height, r.width)  // shown turned 90 degrees anticlockwise
        default: return nil
        }
    }

    func process(_ file: String, number: Int) throws {
        let name = String(format: "%04d.jpg", number)
        switch strategy {
        case .stream:
            let source = try VIPSImage.load(file: file, options: .init(sequential: true))
            let o = source.orientation
            let sideways = (5...8).contains(o)
            let (dw, dh) = sideways ? (source.height, source.width) : (source.width, source.height)
            var page: VIPSImage
            if let r = pageRegion(for: file, width: dw, height: dh),
                let s = Self.storedRect(r, orientation: o, storedWidth: source.width, storedHeight: source.height)
            {
                page = try source.cropped(x: s.x, y: s.y, width: s.width, height: s.height).materialized()
            } else {
                page = try source.materialized()
            }
            if o != 1 { page = try page.autorotated().materialized() }
            try write(page, "pages", name)
            let (pw, ph) = Self.fit(page.width, page.height, inside: previewSize)
            let preview = try page.resized(toWidth: pw, height: ph).materialized()
            try write(preview, "previews", name)
            try write(preview.thumbnail(width: thumbSize, height: thumbSize), "thumbs", name)
        case .cascade, .decodeOnce:
            // One full decode, upright, held in memory while the three files are written.
            var decoded = try VIPSImage.load(file: file).autorotated()
            if let r = pageRegion(for: file, width: decoded.width, height: decoded.height) {
                decoded = try decoded.cropped(x: r.x, y: r.y, width: r.width, height: r.height)
            }
            decoded = try decoded.materialized()
            try write(decoded, "pages", name)
            let (pw, ph) = Self.fit(decoded.width, decoded.height, inside: previewSize)
            let preview = try decoded.resized(toWidth: pw, height: ph)
            if strategy == .cascade {
                let small = try preview.materialized()
                try write(small, "previews", name)
                try write(small.thumbnail(width: thumbSize, height: thumbSize), "thumbs", name)
            } else {
                try write(preview, "previews", name)
                try write(decoded.thumbnail(width: thumbSize, height: thumbSize), "thumbs", name)
            }
        case .shrinkOnLoad:
            let source = try VIPSImage.load(file: file)
            var upright =
                source.orientation == 1
                ? try VIPSImage.load(file: file, options: .init(sequential: true))
                : try source.autorotated()
            if let r = pageRegion(for: file, width: upright.width, height: upright.height) {
                upright = try upright.cropped(x: r.x, y: r.y, width: r.width, height: r.height)
            }
            try write(upright, "pages", name)
            try write(VIPSImage.thumbnail(file: file, width: previewSize, height: previewSize), "previews", name)
            try write(VIPSImage.thumbnail(file: file, width: thumbSize, height: thumbSize), "thumbs", name)
        }
    }

    private func write(_ image: VIPSImage, _ folder: String, _ name: String) throws {
        let final = "\(output)/\(folder)/\(name)"
        let temporary = "\(output)/\(folder)/.tmp-\(name)"
        try image.save(to: temporary, options: save)
        guard rename(temporary, final) == 0 else {
            throw VIPSError(operation: "rename", message: "cannot rename \(temporary): errno \(errno)")
        }
    }
}

/// The floor's input list: files as given, folders' image files (symlinks followed) sorted by name.
enum FloorInputs {
    static let extensions: Set<String> = ["jpg", "jpeg", "png", "tif", "tiff", "webp", "heic", "heif"]

    /// Reads `--page-sizes`: `{"name.jpg": [w, h] or [w, h, cx, cy], ...}`.
    static func pageSizes(from path: String) throws -> [String: [Double]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: [Any]] else {
            throw ValidationError("\(path): expected an object of file name -> [width, height, ...]")
        }
        return object.mapValues { $0.compactMap { ($0 as? NSNumber)?.doubleValue } }
    }

    static func list(_ inputs: [String]) throws -> [String] {
        var files: [String] = []
        let fm = FileManager.default
        for input in inputs {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: input, isDirectory: &isDir) else {
                throw ValidationError("no such file or folder: \(input)")
            }
            if isDir.boolValue {
                let names = try fm.contentsOfDirectory(atPath: input)
                    .filter { !$0.hasPrefix(".") && extensions.contains(($0 as NSString).pathExtension.lowercased()) }
                    .sorted()
                files += names.map { "\(input)/\($0)" }
            } else {
                files.append(input)
            }
        }
        return files
    }
}
