import Foundation
import QuireImaging

extension Processor.BatchRun {
    typealias PageErrorAt = (order: Int, page: Int, error: LayoutReport.PageError)

    /// The run's report, one path for complete and interrupted runs: the page list and the
    /// errors in input order. When every page was tried the written pages are numbered
    /// contiguously and placed into OUT (`commit`); after Ctrl-C the finished pages stay in the
    /// store and the manifest, and OUT (numbered files and layout.json) is left as the previous
    /// complete run left it.
    func finish(
        _ results: [Outcome?], errors initialErrors: [PageErrorAt],
        started: ContinuousClock.Instant
    ) throws -> ProcessSummary {
        let complete = !results.contains { $0 == nil }
        if !complete {
            do { try manifest.rewrite(manifest.allEntries) } catch {
                throw ProcessError(path: manifest.url.path, reason: "cannot be written (\(error))")
            }
            try? FileManager.default.removeItem(atPath: store.stagingDirectory)
        }
        // Pages written and tried: a split source counts its two pages (file names are wide
        // enough for all of them, as in one run over everything when shards are merged).
        let pageTotal = results.reduce(0) { sum, outcome in
            if case .success(let parts)? = outcome { return sum + parts.count }
            return sum + 1
        }
        var errors = initialErrors
        var placed = Placed()
        for (i, outcome) in results.enumerated() {
            guard let outcome else { continue }
            let unit = plan.units[i]
            switch outcome {
            case .success(let parts) where complete:
                try place(parts, of: i, total: pageTotal, into: &placed)
            case .success(let parts):
                for result in parts {
                    var input = LayoutReport.PageInput(
                        source: unit.source, result: result,
                        files: files(placed.pages.count, total: pageTotal))
                    input.correctionKey = CornersFile.key(source: unit.source, page: unit.page.page)
                    placed.pages.append(input)
                }
            case .failure(let error):
                errors.append((unit.order, unit.page.page, Processor.pageError(error, unit: unit)))
            }
        }
        errors.sort { ($0.order, $0.page) < ($1.order, $1.page) }
        var layout = LayoutReport(
            viewport: job.viewport, options: job.recordedOptions, pages: placed.pages,
            errors: errors.map(\.error))
        layout.excluded = plan.excluded.isEmpty ? nil : plan.excluded
        layout.corrections = job.recordedCorrections
        let layoutPath = job.outputDirectory + "/" + Processor.layoutFileName
        if complete { try commit(layout, placed: placed, errors: errors, pageTotal: pageTotal) }
        var summary = ProcessSummary(report: layout, layoutPath: layoutPath)
        summary.reusedCount = reusedCount.take(below: .max) ?? 0
        summary.interrupted = !complete
        summary.seconds = Processor.seconds(since: started)
        return summary
    }

    /// What a complete run placed into OUT, in page order.
    struct Placed {
        var pages: [LayoutReport.PageInput] = []
        var positions: [ShardRun.Position] = []
        var kept: [ResumeManifest.Entry] = []
    }

    /// The numbered file names of page `n` (from 0) of `total`.
    private func files(_ n: Int, total: Int) -> LayoutReport.Files {
        Processor.files(n, total: total, ext: job.renditions.format.fileExtension, thumbnailsOnly: job.thumbnailsOnly)
    }

    /// Places the pages of source page `i` into OUT under their numbers (each final file a link
    /// to its stored file), with the source's capture, masks and text.
    private func place(_ parts: [PageResult], of i: Int, total pageTotal: Int, into placed: inout Placed) throws {
        let out = job.outputDirectory, unit = plan.units[i], id = plan.ids[i]
        var results: [PageResult] = [], targets: [LayoutReport.Files] = []
        // The source's capture, named after its first page; its parts share it.
        var capture: String?
        if store.captures, parts.first?.captureSize != nil {
            let number = (Processor.files(placed.pages.count, total: pageTotal, ext: "jpg").page as NSString)
                .lastPathComponent
            let name = Processor.capturesFolder + "/" + number
            try store.place(store.storedCapture(id: id), at: out + "/" + name)
            capture = name
        }
        for (index, part) in parts.enumerated() {
            var result = part
            var target = files(placed.pages.count, total: pageTotal)
            let finals = [target.page, target.preview, target.thumbnail]
            for (stored, final) in zip(store.storedFiles(id: id, part: index + 1), finals) {
                try store.place(stored, at: out + "/" + final)
            }
            if job.masks {
                target.mask = try Processor.writeMask(of: result, number: placed.pages.count, total: pageTotal, in: out)
            }
            var text: (hocr: String, txt: String)?
            if result.text != nil, case let stored = store.storedTextFiles(id: id, part: index + 1), stored.count == 2 {
                let named = Processor.textFiles(of: target)
                try store.place(stored[0], at: out + "/" + named.hocr)
                try store.place(stored[1], at: out + "/" + named.txt)
                text = named
            }
            result.files = PageOutputPaths(
                page: out + "/" + target.page, preview: out + "/" + target.preview,
                thumbnail: out + "/" + target.thumbnail,
                hocr: text.map { out + "/" + $0.hocr }, txt: text.map { out + "/" + $0.txt })
            var input = LayoutReport.PageInput(source: unit.source, result: result, files: target, textFiles: text)
            input.captureFile = capture
            input.correctionKey = CornersFile.key(source: unit.source, page: unit.page.page)
            placed.pages.append(input)
            placed.positions.append(
                ShardRun.Position(order: unit.order, sourcePage: unit.page.page, part: result.split?.part))
            results.append(result)
            targets.append(target)
        }
        placed.kept.append(
            .init(
                key: plan.keys[i], inputHash: unit.hash, optionsHash: plan.optionsHashes[i], store: id,
                results: results, files: targets))
    }

    /// The end of a complete run: stale files removed, the shard record, layout.json, the
    /// manifest, the recorded job (what `quire view --serve` reruns) and the store's garbage.
    private func commit(_ layout: LayoutReport, placed: Placed, errors: [PageErrorAt], pageTotal: Int) throws {
        let out = job.outputDirectory
        Processor.removeStaleOutputs(
            in: out,
            keeping: Set(
                placed.pages.flatMap {
                    [$0.files.page, $0.files.preview, $0.files.thumbnail]
                        + [$0.files.mask, $0.textFiles?.hocr, $0.textFiles?.txt, $0.captureFile].compactMap { $0 }
                }))
        if let shard = job.shard {
            // What `quire merge` needs to put this shard's pages back in the whole batch's order.
            let run = ShardRun(
                shard: shard, inputs: job.inputs, pageCount: pageTotal, thumbnailsOnly: job.thumbnailsOnly,
                pages: placed.positions,
                errors: errors.map { ShardRun.Position(order: $0.order, sourcePage: $0.page) })
            try run.write(to: out)
        }
        let layoutPath = out + "/" + Processor.layoutFileName
        do {
            try AtomicFile.write(try layout.encoded(), to: layoutPath)
        } catch {
            if DiskFull.matches(error) { throw ProcessError.noSpace(in: out) }
            throw ProcessError(path: layoutPath, reason: "cannot be written (\(error))")
        }
        do { try manifest.rewrite(placed.kept) } catch {
            throw ProcessError(path: manifest.url.path, reason: "cannot be written (\(error))")
        }
        do { try RecordedBatch(job: job).write(to: out) } catch {
            throw ProcessError(path: out + "/.quire/" + RecordedBatch.fileName, reason: "cannot be written (\(error))")
        }
        store.collectGarbage(keeping: Set(placed.kept.map(\.store)))
    }
}
