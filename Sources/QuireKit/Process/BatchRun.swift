import Foundation
import QuireImaging

extension Processor {
    /// The page phase of one run, in named parts: `schedule` (every planned page, reused from the
    /// manifest or processed into staging and committed to the store, on `workers` threads),
    /// `retry` (decode failures again one at a time) and `finish` (the page list and errors,
    /// placed into OUT only when every page was tried).
    struct BatchRun: Sendable {
        let plan: BatchPlan
        let job: ProcessJob
        let store: PageStore
        let manifest: ResumeManifest
        let pipeline: PagePipeline
        let workers: Int
        let report: Reporter
        /// Pages finished so far (for progress), and how many were reused from the manifest.
        let done = Counter()
        let reusedCount = Counter()
        /// Set when a page met a full disk: no new page is started after it, as after Ctrl-C.
        let diskFull = BatchStop()

        /// Failures worth a second try one page at a time (libvips keeps one error buffer per
        /// process, so pages failing at the same time can lose each other's reason).
        static let retried: Set<ImagingError.Kind> = [.truncated, .decodeFailed, .writeFailed]

        typealias Outcome = Result<[PageResult], ImagingError>

        /// Page `i`: reused, or processed into staging and committed to the store.
        func attempt(_ i: Int) -> (Outcome, reused: Bool) {
            let unit = plan.units[i]
            if let entry = manifest.reusable(
                key: plan.keys[i], inputHash: unit.hash, optionsHash: plan.optionsHashes[i],
                storeDirectory: URL(fileURLWithPath: store.storeDirectory),
                fileNames: { store.allFileNames(part: $0) }),
                entry.store == plan.ids[i]
            {
                return (.success(entry.results), true)
            }
            let staged: (folder: String, paths: PageOutputPaths)
            do { staged = try store.stage(id: plan.ids[i]) } catch {
                return (
                    .failure(
                        ImagingError(.writeFailed, path: store.stagingDirectory, reason: Processor.writeReason(error))),
                    false
                )
            }
            let (job, pipeline, entry) = (job, pipeline, plan.entries[i])
            let outcome = PageTimeLimit.run(seconds: job.pageTimeout) { () -> Outcome in
                do {
                    return .success(
                        try
                            (job.thumbnailsOnly
                            ? [pipeline.processThumbnailOnly(unit.page, to: staged.paths.thumbnail)]
                            : pipeline.process(unit.page, to: staged.paths, entry: entry)))
                } catch let error as ImagingError {
                    return .failure(error)
                } catch {
                    return .failure(ImagingError(.decodeFailed, path: unit.page.path, reason: "\(error)"))
                }
            }
            guard let outcome else {
                // The page's thread may still be writing: its staging folder goes with the next prepare().
                return (.failure(Processor.timedOut(path: unit.page.path, job: job, what: "on this page")), false)
            }
            guard case .success(let result) = outcome else {
                store.discard(staged: staged.folder)
                return (outcome, false)
            }
            do {
                try store.commit(staged: staged.folder, id: plan.ids[i], parts: result.count)
                try manifest.record(
                    .init(
                        key: plan.keys[i], inputHash: unit.hash, optionsHash: plan.optionsHashes[i],
                        store: plan.ids[i], results: result))
            } catch {
                store.discard(staged: staged.folder)
                return (
                    .failure(
                        ImagingError(.writeFailed, path: store.storeDirectory, reason: Processor.writeReason(error))),
                    false
                )
            }
            return (.success(result), false)
        }

        /// Every page on `workers` threads, each taking the next in `plan.workOrder` when done,
        /// until all are tried, Ctrl-C (`stop`) or a full disk. Indexed as `plan.units`; nil for a
        /// page never started.
        func schedule(stop: BatchStop?) -> [Outcome?] {
            let total = plan.units.count
            let slots = Slots<Outcome>(count: total)
            let next = Counter()
            ParallelWork.forEach(count: max(0, min(workers, total)), workers: workers) { _ in
                while stop?.isRequested != true, !diskFull.isRequested, let k = next.take(below: total) {
                    let i = plan.workOrder[k]
                    let (outcome, reused) = attempt(i)
                    if case .failure(let error) = outcome, DiskFull.matches(error) {
                        diskFull.request()
                        continue
                    }
                    slots.set(i, outcome)
                    switch outcome {
                    case .success:
                        let finished = (done.take(below: .max) ?? 0) + 1
                        if reused { _ = reusedCount.take(below: .max) }
                        let unit = plan.units[i]
                        report.send(
                            reused
                                ? .pageReused(
                                    source: unit.source, sourcePage: unit.page.page, done: finished, total: total)
                                : .pageWritten(
                                    source: unit.source, sourcePage: unit.page.page, done: finished, total: total))
                    case .failure(let error):
                        // Failures that are retried are reported after the retry.
                        if !(workers > 1 && Self.retried.contains(error.kind)) {
                            _ = done.take(below: .max)
                            report.send(.failed(Processor.pageError(error, unit: plan.units[i])))
                        }
                    }
                }
            }
            return slots.values
        }

        /// Pages that failed for a reason worth retrying, run again one at a time for a faithful
        /// reason (a page that now succeeds is kept). Only needed when pages ran in parallel.
        func retry(_ results: inout [Outcome?], stop: BatchStop?) {
            guard workers > 1 else { return }
            let total = plan.units.count
            for (i, outcome) in results.enumerated() {
                guard case .failure(let error)? = outcome, Self.retried.contains(error.kind) else { continue }
                let unit = plan.units[i]
                if stop?.isRequested == true || error.kind == .timedOut {
                    report.send(.failed(Processor.pageError(error, unit: unit)))
                    continue
                }
                let (again, _) = attempt(i)
                results[i] = again
                switch again {
                case .success:
                    report.send(
                        .pageWritten(source: unit.source, sourcePage: unit.page.page, done: total, total: total))
                case .failure(let final):
                    report.send(.failed(Processor.pageError(final, unit: unit)))
                }
            }
        }
    }
}
