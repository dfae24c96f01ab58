import Foundation
import QuireImaging

/// The page phase of `Processor.run`: resume, per-page time limit, Ctrl-C, and the commit.
///
/// Every page is either reused (the manifest says the same input bytes and options produced it
/// and its files are in the store) or processed into a staging folder and committed to the store
/// (`PageStore`). Only when every page has been tried are the final numbered files linked into
/// place, stale files removed, layout.json written and the manifest rewritten, so a SIGKILL at
/// any moment leaves OUT as either the previous run's result or a partial commit that the rerun
/// finishes, byte for byte the same as an uninterrupted run.
extension Processor {
    /// The options that shape a page's pixels and record (viewport only shapes layout geometry,
    /// recomputed every run, so it is left out).
    struct ShapingOptions: Codable {
        /// Bumped whenever Quire itself writes different pages for the same options, so a rerun
        /// after an upgrade redoes the pages instead of mixing old and new ones. What each
        /// version changed: CHANGELOG.md, "Page pipeline versions".
        static let pipelineVersion = 6
        var pipelineVersion = Self.pipelineVersion
        var renditions: RenditionOptions
        var correction: CorrectionOptions
        var clean: CleanOptions
        var split: SplitOptions
        var dpi: Double
        var maxPixels: Int
        var thumbnailsOnly: Bool
        /// `--ocr` and its languages; absent from the hash's JSON when off, so runs without
        /// it keep the hash they had before OCR existed.
        var ocr: OCROptions?
    }

    /// Opens one file's header (within the page time limit) and hashes its bytes.
    static func probe(_ path: String, job: ProcessJob) -> (Result<SourceInfo, ImagingError>, String) {
        let outcome = PageTimeLimit.run(seconds: job.pageTimeout) { () -> Result<SourceInfo, ImagingError> in
            do { return .success(try SourceProbe.probe(path, dpi: job.dpi)) } catch let error as ImagingError {
                return .failure(error)
            } catch {
                return .failure(ImagingError(.decodeFailed, path: path, reason: "\(error)"))
            }
        }
        guard let outcome else {
            return (.failure(timedOut(path: path, job: job, what: "reading the header")), "")
        }
        guard case .success = outcome else { return (outcome, "") }
        do {
            return (outcome, try ContentHash.ofFile(atPath: path))
        } catch {
            return (.failure(ImagingError(.unreadable, path: path, reason: "cannot be read")), "")
        }
    }

    static func timedOut(path: String, job: ProcessJob, what: String) -> ImagingError {
        let limit = job.pageTimeout.map { $0 == $0.rounded() ? String(Int($0)) : String($0) } ?? "?"
        return ImagingError(.timedOut, path: path, reason: "gave up after \(limit) s \(what) (--page-timeout)")
    }

    static func processPages(_ units: [Unit], job: ProcessJob, workers: Int, hashes: [String],
                             errors initialErrors: [(order: Int, page: Int, error: LayoutReport.PageError)],
                             stop: BatchStop?, report: Reporter, started: ContinuousClock.Instant) throws -> ProcessSummary {
        let out = job.outputDirectory
        let outURL = URL(fileURLWithPath: out)
        let ext = job.renditions.format.fileExtension
        let ocr = job.effectiveOCR
        // The corrections file's entries; pages it excludes are not processed at all, only listed.
        let allUnits = units
        let allEntries = allUnits.map { job.correction(for: $0.page) }
        let excluded = allUnits.indices.filter { allEntries[$0]?.exclude == true }.map { i in
            LayoutReport.ExcludedPage(source: allUnits[i].source, sourcePage: allUnits[i].page.page,
                                      correctionKey: CornersFile.key(source: allUnits[i].source, page: allUnits[i].page.page))
        }
        let units = allUnits.indices.filter { allEntries[$0]?.exclude != true }.map { allUnits[$0] }
        let entries = allUnits.indices.filter { allEntries[$0]?.exclude != true }.map { allEntries[$0] }
        let store = PageStore(output: out, ext: ext, thumbnailsOnly: job.thumbnailsOnly, readsText: ocr != nil,
                              captures: job.captures && !job.thumbnailsOnly)
        let manifest: ResumeManifest
        do {
            if job.force { try? FileManager.default.removeItem(atPath: store.storeDirectory) }
            try store.prepare()
            manifest = try ResumeManifest(outputDirectory: outURL, discardExisting: job.force)
        } catch {
            throw ProcessError(path: out + "/.quire", reason: "cannot be written (\((error as NSError).localizedDescription))")
        }
        removeTemporaryFiles(in: out)

        let encoder = JSONOutput.encoder(.hashInput)
        // Thumbnails-only runs never split (pages are not corrected there).
        let split = job.thumbnailsOnly ? SplitOptions(mode: .none) : job.split
        let shaping = ShapingOptions(renditions: job.renditions, correction: job.correction, clean: job.clean, split: split,
                                     dpi: job.dpi, maxPixels: job.maxPixels,
                                     thumbnailsOnly: job.thumbnailsOnly, ocr: ocr)
        let optionsHash = ContentHash.of(String(decoding: (try? encoder.encode(shaping)) ?? Data(), as: UTF8.self))

        // Keys: `source#page`, made unique when the same input is given twice.
        var seen: [String: Int] = [:]
        let keys = units.map { unit -> String in
            let key = ResumeManifest.key(source: unit.source, page: unit.page.page)
            let n = seen[key, default: 0]
            seen[key] = n + 1
            return n == 0 ? key : key + "#\(n)"
        }
        // A page the user corrected is shaped by the correction too: its hash includes the
        // entry (a corners-only entry as corners files always hashed), so a changed, added or
        // removed entry redoes the page and an unchanged one reuses it.
        let pageOptionsHashes = units.indices.map { i -> String in
            guard let entry = entries[i] else { return optionsHash }
            if let quad = entry.corners, entry == CorrectionEntry(corners: quad) {
                return ContentHash.of(optionsHash + "|corners:" + quad.corners.map { "\($0.x),\($0.y)" }.joined(separator: ";"))
            }
            return ContentHash.of(optionsHash + "|correction:" + entry.jsonText)
        }
        let ids = units.indices.map { PageStore.id(key: keys[$0], inputHash: units[$0].hash, optionsHash: pageOptionsHashes[$0]) }

        // Whole decoded frames within a byte budget per two pages in flight: the peak-memory
        // bound (FrameGate).
        let pipeline = PagePipeline(renditions: job.renditions, correction: job.correction, clean: job.clean, split: split,
                                    maxPixels: job.maxPixels,
                                    frameGate: FrameGate.forBatch(pagesInFlight: workers), ocr: ocr)
        let done = Counter()
        let reusedCount = Counter()
        let retried: Set<ImagingError.Kind> = [.truncated, .decodeFailed, .writeFailed]
        let total = units.count

        /// One source page (one or two written pages): reuse, or process into staging and commit to the store.
        @Sendable func attempt(_ i: Int) -> (Result<[PageResult], ImagingError>, reused: Bool) {
            let unit = units[i]
            if let entry = manifest.reusable(key: keys[i], inputHash: unit.hash, optionsHash: pageOptionsHashes[i],
                                             storeDirectory: URL(fileURLWithPath: store.storeDirectory),
                                             fileNames: { store.allFileNames(part: $0) }),
               entry.store == ids[i] {
                return (.success(entry.results), true)
            }
            let staged: (folder: String, paths: PageOutputPaths)
            do { staged = try store.stage(id: ids[i]) } catch {
                return (.failure(ImagingError(.writeFailed, path: store.stagingDirectory, reason: writeReason(error))), false)
            }
            let outcome = PageTimeLimit.run(seconds: job.pageTimeout) { () -> Result<[PageResult], ImagingError> in
                do { return .success(try (job.thumbnailsOnly
                    ? [pipeline.processThumbnailOnly(unit.page, to: staged.paths.thumbnail)]
                    : pipeline.process(unit.page, to: staged.paths, entry: entries[i]))) } catch let error as ImagingError {
                    return .failure(error)
                } catch {
                    return .failure(ImagingError(.decodeFailed, path: unit.page.path, reason: "\(error)"))
                }
            }
            guard let outcome else {
                // The page's thread may still be writing: its staging folder goes with the next prepare().
                return (.failure(timedOut(path: unit.page.path, job: job, what: "on this page")), false)
            }
            switch outcome {
            case .success(let result):
                do {
                    try store.commit(staged: staged.folder, id: ids[i], parts: result.count)
                    try manifest.record(.init(key: keys[i], inputHash: unit.hash, optionsHash: pageOptionsHashes[i], store: ids[i], results: result))
                } catch {
                    store.discard(staged: staged.folder)
                    return (.failure(ImagingError(.writeFailed, path: store.storeDirectory, reason: writeReason(error))), false)
                }
                return (.success(result), false)
            case .failure:
                store.discard(staged: staged.folder)
                return (outcome, false)
            }
        }

        let slots = Slots<Result<[PageResult], ImagingError>>(count: total)
        let next = Counter()
        // A full disk stops the batch like Ctrl-C: no new page is started once one page met it.
        let diskFull = BatchStop()
        ParallelWork.forEach(count: max(0, min(workers, total)), workers: workers) { _ in
            while stop?.isRequested != true, !diskFull.isRequested, let i = next.take(below: total) {
                let (outcome, reused) = attempt(i)
                if case .failure(let error) = outcome, DiskFull.matches(error) {
                    diskFull.request()
                    continue
                }
                slots.set(i, outcome)
                switch outcome {
                case .success:
                    let finished = (done.take(below: .max) ?? 0) + 1
                    if reused {
                        _ = reusedCount.take(below: .max)
                        report.send(.pageReused(source: units[i].source, sourcePage: units[i].page.page, done: finished, total: total))
                    } else {
                        report.send(.pageWritten(source: units[i].source, sourcePage: units[i].page.page, done: finished, total: total))
                    }
                case .failure(let error):
                    // Failures that are retried below are reported after the retry.
                    if !(workers > 1 && retried.contains(error.kind)) {
                        _ = done.take(below: .max)
                        report.send(.failed(pageError(error, unit: units[i])))
                    }
                }
            }
        }

        // libvips keeps one error buffer per process: when pages fail at the same time, one
        // page's message can be cleared or taken by another. Decode failures are rare, so run
        // them again one at a time for a faithful reason (a page that now succeeds is kept).
        var results = slots.values
        if diskFull.isRequested {
            // Pages already committed stay in the store for the rerun; OUT's numbered files and
            // layout.json are left as the previous complete run left them. Writing the manifest
            // may itself fail on the full disk: the rerun then redoes those pages.
            try? manifest.rewrite(manifest.allEntries)
            try? FileManager.default.removeItem(atPath: store.stagingDirectory)
            throw ProcessError.noSpace(in: out)
        }
        if workers > 1 {
            for (i, outcome) in results.enumerated() {
                guard case .failure(let error)? = outcome, retried.contains(error.kind) else { continue }
                if stop?.isRequested == true || error.kind == .timedOut {
                    report.send(.failed(pageError(error, unit: units[i])))
                    continue
                }
                let (again, _) = attempt(i)
                results[i] = again
                switch again {
                case .success:
                    report.send(.pageWritten(source: units[i].source, sourcePage: units[i].page.page, done: total, total: total))
                case .failure(let final):
                    report.send(.failed(pageError(final, unit: units[i])))
                }
            }
        }
        let seconds = Self.seconds(since: started)
        var errors = initialErrors
        // Pages written and tried: a split source counts its two pages (file names are wide
        // enough for all of them, as in one run over everything when shards are merged).
        let pageTotal = results.reduce(0) { sum, outcome in
            if case .success(let parts)? = outcome { return sum + parts.count }
            return sum + 1
        }

        // Ctrl-C: the finished pages are in the store and the manifest; OUT itself (numbered
        // files and layout.json) is left as the previous complete run left it.
        if results.contains(where: { $0 == nil }) {
            do { try manifest.rewrite(manifest.allEntries) } catch {
                throw ProcessError(path: manifest.url.path, reason: "cannot be written (\(error))")
            }
            try? FileManager.default.removeItem(atPath: store.stagingDirectory)
            var pages: [LayoutReport.PageInput] = []
            for (i, outcome) in results.enumerated() {
                guard let outcome else { continue }
                switch outcome {
                case .success(let parts):
                    for result in parts {
                        var input = LayoutReport.PageInput(source: units[i].source, result: result,
                                                       files: files(pages.count, total: pageTotal, ext: ext, thumbnailsOnly: job.thumbnailsOnly))
                    input.correctionKey = CornersFile.key(source: units[i].source, page: units[i].page.page)
                    pages.append(input)
                    }
                case .failure(let error):
                    errors.append((units[i].order, units[i].page.page, pageError(error, unit: units[i])))
                }
            }
            errors.sort { ($0.order, $0.page) < ($1.order, $1.page) }
            var report = LayoutReport(viewport: job.viewport, options: job.recordedOptions, pages: pages, errors: errors.map(\.error))
            report.excluded = excluded.isEmpty ? nil : excluded
            report.corrections = job.recordedCorrections
            var summary = ProcessSummary(report: report, layoutPath: out + "/" + layoutFileName)
            summary.reusedCount = reusedCount.take(below: .max) ?? 0
            summary.interrupted = true
            summary.seconds = seconds
            return summary
        }

        // The commit: number the written pages contiguously in input order, each final file a
        // link to its stored file.
        var pages: [LayoutReport.PageInput] = []
        var positions: [ShardRun.Position] = []
        var kept: [ResumeManifest.Entry] = []
        for (i, outcome) in results.enumerated() {
            switch outcome! {
            case .success(let parts):
                var placed: [PageResult] = [], targets: [LayoutReport.Files] = []
                // The source's capture, named after its first page; its parts share it.
                var capture: String?
                if store.captures, parts.first?.captureSize != nil {
                    let name = capturesFolder + "/" + ((files(pages.count, total: pageTotal, ext: "jpg").page as NSString).lastPathComponent)
                    try store.place(store.storedCapture(id: ids[i]), at: out + "/" + name)
                    capture = name
                }
                for (index, part) in parts.enumerated() {
                    var result = part
                    var target = files(pages.count, total: pageTotal, ext: ext, thumbnailsOnly: job.thumbnailsOnly)
                    let finals = [target.page, target.preview, target.thumbnail]
                    for (stored, final) in zip(store.storedFiles(id: ids[i], part: index + 1), finals) {
                        try store.place(stored, at: out + "/" + final)
                    }
                    if job.masks { target.mask = try writeMask(of: result, number: pages.count, total: pageTotal, in: out) }
                    var text: (hocr: String, txt: String)?
                    if result.text != nil, case let stored = store.storedTextFiles(id: ids[i], part: index + 1), stored.count == 2 {
                        let named = textFiles(of: target)
                        try store.place(stored[0], at: out + "/" + named.hocr)
                        try store.place(stored[1], at: out + "/" + named.txt)
                        text = named
                    }
                    result.files = PageOutputPaths(page: out + "/" + target.page, preview: out + "/" + target.preview,
                                                   thumbnail: out + "/" + target.thumbnail,
                                                   hocr: text.map { out + "/" + $0.hocr }, txt: text.map { out + "/" + $0.txt })
                    var input = LayoutReport.PageInput(source: units[i].source, result: result, files: target, textFiles: text)
                    input.captureFile = capture
                    input.correctionKey = CornersFile.key(source: units[i].source, page: units[i].page.page)
                    pages.append(input)
                    positions.append(ShardRun.Position(order: units[i].order, sourcePage: units[i].page.page, part: result.split?.part))
                    placed.append(result)
                    targets.append(target)
                }
                kept.append(.init(key: keys[i], inputHash: units[i].hash, optionsHash: pageOptionsHashes[i], store: ids[i],
                                  results: placed, files: targets))
            case .failure(let error):
                errors.append((units[i].order, units[i].page.page, pageError(error, unit: units[i])))
            }
        }
        removeStaleOutputs(in: out, keeping: Set(pages.flatMap {
            [$0.files.page, $0.files.preview, $0.files.thumbnail]
                + [$0.files.mask, $0.textFiles?.hocr, $0.textFiles?.txt, $0.captureFile].compactMap { $0 }
        }))

        errors.sort { ($0.order, $0.page) < ($1.order, $1.page) }
        var layout = LayoutReport(viewport: job.viewport, options: job.recordedOptions, pages: pages, errors: errors.map(\.error))
        layout.excluded = excluded.isEmpty ? nil : excluded
        layout.corrections = job.recordedCorrections
        let layoutPath = out + "/" + layoutFileName
        if let shard = job.shard {
            // What `quire merge` needs to put this shard's pages back in the whole batch's order.
            let run = ShardRun(shard: shard, inputs: job.inputs, pageCount: pageTotal, thumbnailsOnly: job.thumbnailsOnly,
                               pages: positions, errors: errors.map { ShardRun.Position(order: $0.order, sourcePage: $0.page) })
            try run.write(to: out)
        }
        do {
            try AtomicFile.write(try layout.encoded(), to: layoutPath)
        } catch {
            if DiskFull.matches(error) { throw ProcessError.noSpace(in: out) }
            throw ProcessError(path: layoutPath, reason: "cannot be written (\(error))")
        }
        do { try manifest.rewrite(kept) } catch {
            throw ProcessError(path: manifest.url.path, reason: "cannot be written (\(error))")
        }
        // What `quire view --serve` reruns with the review's corrections.
        do { try RecordedBatch(job: job).write(to: out) } catch {
            throw ProcessError(path: out + "/.quire/" + RecordedBatch.fileName, reason: "cannot be written (\(error))")
        }
        store.collectGarbage(keeping: Set(kept.map(\.store)))
        var summary = ProcessSummary(report: layout, layoutPath: layoutPath)
        summary.reusedCount = reusedCount.take(below: .max) ?? 0
        summary.seconds = Self.seconds(since: started)
        return summary
    }

    /// `--masks`: writes `masks/NNNN.png` for a page whose correction used a quad (255 inside
    /// it, in the oriented source's pixels), atomically; nil for pages without a quad. Masks
    /// are cheap next to decoding, so they are redrawn at every commit rather than stored.
    static func writeMask(of result: PageResult, number: Int, total: Int, in out: String) throws -> String? {
        guard let quad = result.correction.quad, let size = result.sourceSize else { return nil }
        let name = files(number, total: total, ext: "png").page.split(separator: "/").last.map(String.init) ?? "mask.png"
        let relative = masksFolder + "/" + name
        do {
            try AtomicFile.write(to: out + "/" + relative) { temporary in
                try PageMask.write(quad: quad, width: size.width, height: size.height, to: temporary)
            }
        } catch {
            throw ProcessError(path: out + "/" + relative, reason: "cannot be written (\(error))")
        }
        return relative
    }

    /// The text files of the page whose files are `files`: `text/0001.hocr` and `text/0001.txt`,
    /// numbered as its page.
    static func textFiles(of files: LayoutReport.Files) -> (hocr: String, txt: String) {
        let stem = ((files.thumbnail as NSString).lastPathComponent as NSString).deletingPathExtension
        return (textFolder + "/" + stem + ".hocr", textFolder + "/" + stem + ".txt")
    }

    /// The final file names of the page at position `n`: `pages/0001.jpg` ...
    static func files(_ n: Int, total: Int, ext: String, thumbnailsOnly: Bool = false) -> LayoutReport.Files {
        files(number: n, digits: fileNumberDigits(pageCount: total), extension: ext, thumbnailsOnly: thumbnailsOnly)
    }


    /// Temporary files a killed run can leave in OUT itself: any abandoned atomic write
    /// (`.layout.json.partial-*`, `.pages.pdf.partial-*`, ...), or `.layout.json.*.tmp` from Quire 0.1.
    static func removeTemporaryFiles(in out: String) {
        AtomicFile.removeAbandoned(in: out)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        where name.hasPrefix("." + layoutFileName + ".") && name.hasSuffix(".tmp") {
            unlink(out + "/" + name)
        }
    }

    /// The reason of a failed write of Quire's own (staging, store, manifest), naming a full
    /// disk plainly so the batch can stop on it.
    static func writeReason(_ error: any Error) -> String {
        DiskFull.matches(error) ? "cannot be written (no space left on device)" : "cannot be written (\(error))"
    }

    static func seconds(since instant: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - instant
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
