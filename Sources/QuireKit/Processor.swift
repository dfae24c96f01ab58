import Foundation
import QuireImaging

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
    public static let pagesFolder = "pages", previewsFolder = "previews", thumbnailsFolder = "thumbs"
    public static let layoutFileName = "layout.json"

    /// - Parameter progress: called for each event, one call at a time, from worker threads.
    /// - Throws: `ProcessError` only when the output folder or layout.json cannot be written;
    ///   failures of inputs are in the summary's report.
    public static func run(_ job: ProcessJob,
                           progress: @escaping @Sendable (ProcessEvent) -> Void = { _ in }) throws -> ProcessSummary {
        let out = job.outputDirectory
        for folder in job.thumbnailsOnly ? [thumbnailsFolder] : [pagesFolder, previewsFolder, thumbnailsFolder] {
            do {
                try FileManager.default.createDirectory(atPath: out + "/" + folder, withIntermediateDirectories: true)
            } catch {
                throw ProcessError(path: out, reason: "cannot create the output folder (\((error as NSError).localizedDescription))")
            }
        }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let workers = max(1, job.jobs ?? cores)
        ImagingRuntime.configure(pagesInFlight: workers, cores: cores)
        let report = Reporter(progress)

        // 1. Inputs, in order; a folder with no image in it is an error of its own.
        var inputs: [DiscoveredInput] = []
        var errors: [(order: Int, page: Int, error: LayoutReport.PageError)] = []
        for input in job.inputs {
            let found = InputDiscovery.discover([input])
            // Errors of no single file are reported by shard 1 alone, so a merge has each once.
            if found.isEmpty, job.shard.map({ $0.index == 1 }) ?? true {
                let entry = LayoutReport.PageError(source: input, message: "no images found in this folder")
                errors.append((inputs.count, -1, entry))
                report.send(.failed(entry))
            }
            inputs += found
        }

        // 2. Headers: which files open, and how many pages each holds. With `--shard K/N` only
        // this shard's files, each keeping its position in the whole batch (`order`).
        let chosen = job.shard.map { ShardRun.select(inputs, shard: $0) } ?? Array(inputs.indices)
        let found = chosen.map { inputs[$0] }
        let probes = ParallelWork.map(count: found.count, workers: workers) { i -> Result<SourceInfo, ImagingError> in
            do { return .success(try SourceProbe.probe(found[i].path, dpi: job.dpi)) } catch let error as ImagingError {
                return .failure(error)
            } catch {
                return .failure(ImagingError(.decodeFailed, path: found[i].path, reason: "\(error)"))
            }
        }
        var units: [Unit] = []
        for (position, probe) in probes.enumerated() {
            let order = chosen[position]
            switch probe {
            case .success(let info):
                for page in 0..<info.pageCount {
                    units.append(Unit(order: order, source: inputs[order].source, multiPage: info.format.isMultiPage,
                                      page: PageSource(path: inputs[order].path, page: page, dpi: job.dpi)))
                }
            case .failure(let error):
                let entry = LayoutReport.PageError(source: inputs[order].source, message: error.reason)
                errors.append((order, -1, entry))
                report.send(.failed(entry))
            }
        }
        report.send(.started(pageCount: units.count))

        // 3. Pages, `workers` at a time, each written under its position's number.
        let pipeline = PagePipeline(renditions: job.renditions, correction: job.correction, maxPixels: job.maxPixels)
        let digits = Processor.fileNumberDigits(pageCount: units.count)
        let ext = job.renditions.format.fileExtension
        let thumbnailsOnly = job.thumbnailsOnly
        @Sendable func files(_ n: Int) -> LayoutReport.Files {
            Processor.files(number: n, digits: digits, extension: ext, thumbnailsOnly: thumbnailsOnly)
        }
        @Sendable func absolute(_ f: LayoutReport.Files) -> PageOutputPaths {
            PageOutputPaths(page: out + "/" + f.page, preview: out + "/" + f.preview, thumbnail: out + "/" + f.thumbnail)
        }
        let done = Counter()
        let work = units
        let retried: Set<ImagingError.Kind> = [.truncated, .decodeFailed, .writeFailed]
        @Sendable func processPage(_ page: PageSource, to outputs: PageOutputPaths) throws -> PageResult {
            thumbnailsOnly ? try pipeline.processThumbnailOnly(page, to: outputs.thumbnail)
                           : try pipeline.process(page, to: outputs)
        }
        let firstPass = ParallelWork.map(count: work.count, workers: workers) { i -> Result<PageResult, ImagingError> in
            let unit = work[i]
            let outcome: Result<PageResult, ImagingError>
            do {
                outcome = .success(try processPage(unit.page, to: absolute(files(i))))
            } catch let error as ImagingError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(ImagingError(.decodeFailed, path: unit.page.path, reason: "\(error)"))
            }
            let finished = (done.take(below: .max) ?? 0) + 1
            switch outcome {
            case .success:
                report.send(.pageWritten(source: unit.source, sourcePage: unit.page.page, done: finished, total: work.count))
            case .failure(let error):
                // Failures that are retried below are reported after the retry.
                if !(workers > 1 && retried.contains(error.kind)) { report.send(.failed(pageError(error, unit: unit))) }
            }
            return outcome
        }

        // libvips keeps one error buffer per process: when pages fail at the same time, one
        // page's message can be cleared or taken by another. Decode failures are rare, so run
        // them again one at a time for a faithful reason (a page that now succeeds is kept).
        var results = firstPass
        if workers > 1 {
            for (i, outcome) in results.enumerated() {
                guard case .failure(let error) = outcome, retried.contains(error.kind) else { continue }
                do {
                    results[i] = .success(try processPage(work[i].page, to: absolute(files(i))))
                    report.send(.pageWritten(source: work[i].source, sourcePage: work[i].page.page, done: work.count, total: work.count))
                } catch {
                    let final = (error as? ImagingError) ?? ImagingError(.decodeFailed, path: work[i].page.path, reason: "\(error)")
                    results[i] = .failure(final)
                    report.send(.failed(pageError(final, unit: work[i])))
                }
            }
        }

        // 4. Number the written pages contiguously: a page after a failed one moves down.
        var pages: [LayoutReport.PageInput] = []
        var positions: [ShardRun.Position] = []
        for (i, outcome) in results.enumerated() {
            switch outcome {
            case .success(var result):
                let rank = pages.count
                let target = files(rank)
                if rank != i {
                    let from = absolute(files(i)), to = absolute(target)
                    var moved = Set<String>()
                    for (a, b) in [(from.page, to.page), (from.preview, to.preview), (from.thumbnail, to.thumbnail)]
                    where moved.insert(a).inserted {
                        if rename(a, b) != 0 {
                            throw ProcessError(path: b, reason: "cannot be renamed into place (\(String(cString: strerror(errno))))")
                        }
                    }
                    result.files = to
                }
                pages.append(LayoutReport.PageInput(source: units[i].source, result: result, files: target))
                positions.append(ShardRun.Position(order: units[i].order, sourcePage: units[i].page.page))
            case .failure(let error):
                errors.append((units[i].order, units[i].page.page, pageError(error, unit: units[i])))
            }
        }
        removeStaleOutputs(in: out, keeping: Set(pages.flatMap { [$0.files.page, $0.files.preview, $0.files.thumbnail] }))

        // 5. layout.json, atomically.
        errors.sort { ($0.order, $0.page) < ($1.order, $1.page) }
        let layout = LayoutReport(viewport: job.viewport, pages: pages, errors: errors.map(\.error))
        let layoutPath = out + "/" + layoutFileName
        if let shard = job.shard {
            // What `quire merge` needs to put this shard's pages back in the whole batch's order.
            let run = ShardRun(shard: shard, inputs: job.inputs, pageCount: units.count, thumbnailsOnly: job.thumbnailsOnly,
                               pages: positions, errors: errors.map { ShardRun.Position(order: $0.order, sourcePage: $0.page) })
            try run.write(to: out)
        }
        do {
            try AtomicFile.write(try layout.encoded(), to: layoutPath)
        } catch {
            throw ProcessError(path: layoutPath, reason: "cannot be written (\(error))")
        }
        return ProcessSummary(report: layout, layoutPath: layoutPath)
    }

    /// One page to process: where it comes from and where its input stands in the batch.
    struct Unit: Sendable {
        var order: Int
        var source: String
        var multiPage: Bool
        var page: PageSource
    }

    /// The report entry for a failed page; `sourcePage` only for multi-page files.
    static func pageError(_ error: ImagingError, unit: Unit) -> LayoutReport.PageError {
        LayoutReport.PageError(source: unit.source, sourcePage: unit.multiPage ? unit.page.page : nil, message: error.reason)
    }

    /// Removes numbered outputs a previous run left (more pages, another format) and
    /// temporary files of an interrupted run, so OUT matches layout.json.
    static func removeStaleOutputs(in out: String, keeping kept: Set<String>) {
        for folder in [pagesFolder, previewsFolder, thumbnailsFolder] {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: out + "/" + folder) else { continue }
            for name in names {
                let relative = folder + "/" + name
                let stem = (name as NSString).deletingPathExtension
                let ext = (name as NSString).pathExtension
                let numbered = !stem.isEmpty && stem.allSatisfy(\.isASCIIDigit) && OutputFormat.allCases.contains { $0.fileExtension == ext }
                let partial = name.hasPrefix(".") && name.contains(".partial-")
                if (numbered && !kept.contains(relative)) || partial {
                    unlink(out + "/" + relative)
                }
            }
        }
    }
}

/// Serialises progress callbacks from worker threads.
final class Reporter: @unchecked Sendable {
    private let lock = NSLock()
    private let body: @Sendable (ProcessEvent) -> Void

    init(_ body: @escaping @Sendable (ProcessEvent) -> Void) { self.body = body }

    func send(_ event: ProcessEvent) {
        lock.lock(); defer { lock.unlock() }
        body(event)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
