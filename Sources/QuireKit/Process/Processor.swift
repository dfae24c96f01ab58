import Foundation
import QuireImaging
import Synchronization

/// Runs a `ProcessJob`: the batch behind `quire process`.
///
/// In order: discover the inputs; open every file's header to count its pages (and report the
/// files that cannot be opened); process the pages on `jobs` threads through `PagePipeline`,
/// each page written as soon as it is done; number the written pages 0001... in input order;
/// write `layout.json`. A failing file or page is reported and skipped, never stopping the
/// batch. Memory is bounded by the pages in flight: a page's pixels are released as soon as
/// its three files are written, and only small records are kept.
public enum Processor {
    /// Output subfolders of OUT.
    public static let pagesFolder = "pages", previewsFolder = "previews", thumbnailsFolder = "thumbs",
        masksFolder = "masks"
    /// `--ocr`: `text/NNNN.hocr` and `text/NNNN.txt`.
    public static let textFolder = "text"
    /// `captures/NNNN.jpg`: each source as it came, small, for the review (the detection copy, `PagePipeline.writeCapture`).
    public static let capturesFolder = "captures"
    /// The extensions of the files in `textFolder`.
    static let textExtensions = ["hocr", "txt"]
    public static let layoutFileName = "layout.json"

    /// - Parameters:
    ///   - job: what to process and how.
    ///   - stop: set it (Ctrl-C) to stop starting pages; the run then returns an interrupted
    ///     summary after the pages in flight are recorded.
    ///   - progress: called for each event, one call at a time, from worker threads.
    /// - Returns: the summary, with the report written to `OUT/layout.json`.
    /// - Throws: `ProcessError` when the output folder or layout.json cannot be written, when
    ///   the disk fills up (`cannot write OUT: no space left on device`; OUT is then left as the
    ///   previous complete run left it) or when another run holds OUT's lock; failures of inputs
    ///   are in the summary's report.
    public static func run(
        _ job: ProcessJob, stop: BatchStop? = nil,
        progress: @escaping @Sendable (ProcessEvent) -> Void = { _ in }
    ) throws -> ProcessSummary {
        let started = ContinuousClock.now
        let out = job.outputDirectory
        // One run per OUT at a time; released when this run returns (or its process dies).
        let lock = try OutputLock(output: out)
        defer { lock.release() }
        for folder in job.thumbnailsOnly
            ? [thumbnailsFolder]
            : [pagesFolder, previewsFolder, thumbnailsFolder] + (job.masks ? [masksFolder] : [])
                + (job.effectiveOCR != nil ? [textFolder] : [])
                + (job.captures && !job.thumbnailsOnly ? [capturesFolder] : [])
        {
            do {
                try FileManager.default.createDirectory(atPath: out + "/" + folder, withIntermediateDirectories: true)
            } catch {
                throw ProcessError(
                    path: out, reason: "cannot create the output folder (\((error as NSError).localizedDescription))")
            }
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let workers = max(1, job.jobs ?? cores)
        ImagingRuntime.configure(pagesInFlight: workers, cores: cores)
        ImagingRuntime.allowUntrustedFormats(job.allowUntrustedFormats)
        let report = Reporter(progress)

        // 1. Inputs, in order; a folder with no image in it is an error of its own.
        var inputs: [DiscoveredInput] = []
        var errors: [(order: Int, page: Int, error: LayoutReport.PageError)] = []
        for input in job.inputs {
            let found = InputDiscovery.discover([input], excluding: [out])
            // Errors of no single file are reported by shard 1 alone, so a merge has each once.
            if found.isEmpty, job.shard.map({ $0.index == 1 }) ?? true {
                let entry = LayoutReport.PageError(
                    source: input, code: LayoutReport.PageError.noImagesCode,
                    message: "no images found in this folder")
                errors.append((inputs.count, -1, entry))
                report.send(.failed(entry))
            }
            inputs += found
        }

        // 2. Headers: which files open, and how many pages each holds. With `--shard K/N` only
        // this shard's files, each keeping its position in the whole batch (`order`).
        let chosen = job.shard.map { ShardRun.select(inputs, shard: $0) } ?? Array(inputs.indices)
        let found = chosen.map { inputs[$0] }
        // One hash read buffer per worker, not per file (ContentHash.FileReader).
        let probed = ParallelWork.map(count: found.count, workers: workers, state: { ContentHash.FileReader() }) {
            reader, i -> (Result<SourceInfo, ImagingError>, String) in
            probe(found[i].path, job: job, reader: reader)
        }
        let probes = probed.map(\.0)
        let hashes = probed.map(\.1)
        var units: [Unit] = []
        for (position, probe) in probes.enumerated() {
            let order = chosen[position]
            switch probe {
            case .success(let info):
                for page in 0..<info.pageCount {
                    units.append(
                        Unit(
                            order: order, source: inputs[order].source, multiPage: info.format.isMultiPage,
                            hash: hashes[position], pixels: info.pixelCount,
                            page: PageSource(path: inputs[order].path, page: page, dpi: job.dpi)))
                }
            case .failure(let error):
                let entry = LayoutReport.PageError(
                    source: inputs[order].source, code: error.kind.code, message: error.reason)
                errors.append((order, -1, entry))
                report.send(.failed(entry))
            }
        }
        report.send(.started(pageCount: units.count))

        // 3-5. Pages (reused from the manifest or processed into the store), then the commit:
        // final numbered files, layout.json, manifest (Processor+Resume.swift).
        return try processPages(
            units, job: job, workers: workers, hashes: hashes, errors: errors,
            stop: stop, report: report, started: started)
    }

    /// One page to process: where it comes from and where its input stands in the batch.
    struct Unit: Sendable {
        var order: Int
        var source: String
        var multiPage: Bool
        /// Hash of the input file's bytes.
        var hash: String
        /// The page's pixels as its file's header gives them (`SourceInfo.pixelCount`): the
        /// estimate of its work that orders the batch's work (`BatchPlan.workOrder`).
        var pixels: Int = 0
        var page: PageSource
    }

    /// The report entry for a failed page; `sourcePage` only for multi-page files.
    static func pageError(_ error: ImagingError, unit: Unit) -> LayoutReport.PageError {
        LayoutReport.PageError(
            source: unit.source, sourcePage: unit.multiPage ? unit.page.page : nil,
            code: error.kind.code, message: error.reason)
    }

    /// Removes numbered outputs a previous run left (more pages, another format) and
    /// temporary files of an interrupted run, so OUT matches layout.json.
    static func removeStaleOutputs(in out: String, keeping kept: Set<String>) {
        for folder in [pagesFolder, previewsFolder, thumbnailsFolder, masksFolder, textFolder, capturesFolder] {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: out + "/" + folder) else { continue }
            for name in names {
                let relative = folder + "/" + name
                let stem = (name as NSString).deletingPathExtension
                let ext = (name as NSString).pathExtension
                let numbered =
                    !stem.isEmpty && stem.allSatisfy(\.isASCIIDigit)
                    && (OutputFormat.allCases.contains { $0.fileExtension == ext }
                        || (folder == masksFolder && ext == "png")
                        || (folder == textFolder && textExtensions.contains(ext)))
                let partial = name.hasPrefix(".") && name.contains(".partial-")
                if (numbered && !kept.contains(relative)) || partial {
                    unlink(out + "/" + relative)
                }
            }
        }
    }
}

/// Serialises progress callbacks from worker threads.
final class Reporter: Sendable {
    private let lock = Mutex(())
    private let body: @Sendable (ProcessEvent) -> Void

    init(_ body: @escaping @Sendable (ProcessEvent) -> Void) { self.body = body }

    func send(_ event: ProcessEvent) {
        lock.withLock { _ in body(event) }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
