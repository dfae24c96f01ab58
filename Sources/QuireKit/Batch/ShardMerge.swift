import Foundation
import QuireImaging

/// `quire merge SHARD... -o OUT`: combines the outputs of `quire process --shard K/N` runs
/// (K = 1...N) into one OUT that is identical to a single run over the whole batch.
///
/// Each shard's pages and errors are put back at their place in the whole batch (recorded in
/// the shard's `.quire/shard.json`, see `ShardRun`), the files are renumbered 0001... in that
/// order (hard-linked when OUT is on the same file system, copied otherwise; either way
/// renamed into place atomically), the layout geometry is recomputed over all pages, and
/// layout.json is written last. Shards of different batches (other inputs, shard count,
/// viewport or mode) and missing or repeated shards are refused before anything is written.
public enum ShardMerge {
    /// - Throws: `ProcessError` naming the shard folder or file that is wrong, or OUT when
    ///   another quire process holds it.
    /// - Complexity: O(n log n) for n pages, plus one link or copy per output file.
    @discardableResult
    public static func merge(_ shardFolders: [String], into out: String) throws -> ProcessSummary {
        guard !shardFolders.isEmpty else { throw ProcessError(path: out, reason: "no shard outputs to merge") }
        let shards = try shardFolders.map { try readShard($0, mergingInto: out) }
        try checkCompatible(shards.map { ($0.folder, $0.run, $0.report) })
        // The same lock `quire process` holds: a merge into an OUT that a run is writing is
        // refused before anything is written there.
        let lock = try OutputLock(output: out)
        defer { lock.release() }
        Processor.removeTemporaryFiles(in: out)

        // Pages and errors at their place in the whole batch.
        var entries: [(position: ShardRun.Position, page: LayoutReport.Page, folder: String)] = []
        var errors: [(position: ShardRun.Position, error: LayoutReport.PageError)] = []
        for shard in shards {
            for (position, page) in zip(shard.run.pages, shard.report.pages) {
                entries.append((position, page, shard.folder))
            }
            for (position, error) in zip(shard.run.errors, shard.report.errors) { errors.append((position, error)) }
        }
        entries.sort { $0.position < $1.position }
        errors.sort { $0.position < $1.position }
        if let dup = zip(entries, entries.dropFirst()).first(where: { $0.0.position == $0.1.position }) {
            throw ProcessError(
                path: dup.1.folder, reason: "holds page \(dup.1.page.source) that another shard holds too")
        }

        // Files, renumbered in the merged order.
        let thumbnailsOnly = shards[0].run.thumbnailsOnly
        let folders =
            thumbnailsOnly
            ? [Processor.thumbnailsFolder]
            : [Processor.pagesFolder, Processor.previewsFolder, Processor.thumbnailsFolder]
        let needsMasks = entries.contains { $0.page.files.mask != nil }
        let needsText = entries.contains { $0.page.text != nil }
        let needsCaptures = entries.contains { $0.page.capture != nil }
        for folder in folders + (needsMasks ? ["masks"] : []) + (needsText ? [Processor.textFolder] : [])
            + (needsCaptures ? [Processor.capturesFolder] : [])
        {
            do {
                try FileManager.default.createDirectory(atPath: out + "/" + folder, withIntermediateDirectories: true)
            } catch {
                throw ProcessError(
                    path: out, reason: "cannot create the output folder (\((error as NSError).localizedDescription))")
            }
        }
        let digits = Processor.fileNumberDigits(pageCount: shards.reduce(0) { $0 + $1.run.pageCount })
        var pages: [LayoutReport.Page] = []
        pages.reserveCapacity(entries.count)
        // A split source's parts share one capture, named after the first part's new number.
        var captures: [String: String] = [:]
        for (rank, entry) in entries.enumerated() {
            pages.append(
                try placePage(
                    entry.page, from: entry.folder, number: rank, digits: digits,
                    thumbnailsOnly: thumbnailsOnly, into: out, captures: &captures))
        }
        let kept = Set(
            pages.flatMap {
                [$0.files.page, $0.files.preview, $0.files.thumbnail]
                    + [$0.files.mask, $0.text?.hocr, $0.text?.txt, $0.capture?.file].compactMap { $0 }
            })
        Processor.removeStaleOutputs(in: out, keeping: kept)

        var report = LayoutReport.relaidOut(
            viewport: shards[0].report.viewport, options: shards[0].report.options, pages: pages,
            errors: errors.map(\.error))
        // Pages each shard's corrections excluded (shards hold whole files, so none is listed twice).
        let excluded = shards.flatMap { $0.report.excluded ?? [] }.sorted {
            ($0.source, $0.sourcePage) < ($1.source, $1.sourcePage)
        }
        report.excluded = excluded.isEmpty ? nil : excluded
        let layoutPath = out + "/" + Processor.layoutFileName
        do {
            try AtomicFile.write(try report.encoded(), to: layoutPath)
        } catch {
            throw ProcessError(path: layoutPath, reason: "cannot be written (\(error))")
        }
        return ProcessSummary(report: report, layoutPath: layoutPath)
    }

    /// One shard's record and layout.json, checked against each other.
    static func readShard(_ folder: String, mergingInto out: String) throws -> (
        folder: String, run: ShardRun, report: LayoutReport
    ) {
        if URL(fileURLWithPath: folder).standardizedFileURL.path == URL(fileURLWithPath: out).standardizedFileURL.path {
            throw ProcessError(path: folder, reason: "is the merge's own output folder; merge into a new folder")
        }
        let run = try ShardRun.read(from: folder)
        let report: LayoutReport
        do {
            report = try LayoutReport.read(from: URL(fileURLWithPath: folder + "/" + Processor.layoutFileName))
        } catch {
            throw ProcessError(path: folder, reason: "\(error)")
        }
        guard run.pages.count == report.pages.count, run.errors.count == report.errors.count else {
            throw ProcessError(
                path: folder, reason: "layout.json and \(ShardRun.fileName) disagree (was the folder edited?)")
        }
        return (folder, run, report)
    }

    /// Places one shard page's files into OUT under its number in the merged batch and returns
    /// its record with the new names. A split source's parts share one capture (`captures`: the
    /// shard's capture -> its new name), named after the first part's new number.
    static func placePage(
        _ source: LayoutReport.Page, from folder: String, number rank: Int, digits: Int,
        thumbnailsOnly: Bool, into out: String, captures: inout [String: String]
    ) throws -> LayoutReport.Page {
        let old = source.files
        let ext = (old.thumbnail as NSString).pathExtension
        var new = Processor.files(number: rank, digits: digits, extension: ext, thumbnailsOnly: thumbnailsOnly)
        if let mask = old.mask {
            new.mask =
                "masks/" + ((new.thumbnail as NSString).lastPathComponent as NSString).deletingPathExtension + ".png"
            try place(folder + "/" + mask, at: out + "/" + new.mask!)
        }
        var placed = Set<String>()
        for (from, to) in [(old.page, new.page), (old.preview, new.preview), (old.thumbnail, new.thumbnail)]
        where placed.insert(to).inserted {
            try place(folder + "/" + from, at: out + "/" + to)
        }
        var page = source
        page.files = new
        if var text = page.text {
            let named = Processor.textFiles(of: new)
            try place(folder + "/" + text.hocr, at: out + "/" + named.hocr)
            try place(folder + "/" + text.txt, at: out + "/" + named.txt)
            (text.hocr, text.txt) = (named.hocr, named.txt)
            page.text = text
        }
        if var capture = page.capture {
            let shared = folder + "\u{0}" + capture.file
            let name =
                captures[shared] ?? Processor.capturesFolder + "/"
                + ((new.thumbnail as NSString).lastPathComponent as NSString).deletingPathExtension + ".jpg"
            if captures[shared] == nil {
                try place(folder + "/" + capture.file, at: out + "/" + name)
                captures[shared] = name
            }
            capture.file = name
            page.capture = capture
        }
        return page
    }

    /// Refuses shards that are not the N shards of one batch.
    static func checkCompatible(_ shards: [(folder: String, run: ShardRun, report: LayoutReport)]) throws {
        let first = shards[0]
        for shard in shards.dropFirst() {
            let reason: String? =
                shard.run.shardCount != first.run.shardCount
                ? "was cut into \(shard.run.shardCount) shards, \(first.folder) into \(first.run.shardCount)"
                : shard.run.inputs != first.run.inputs
                    ? "was made from other inputs than \(first.folder)"
                    : shard.run.thumbnailsOnly != first.run.thumbnailsOnly
                        ? "is \(shard.run.thumbnailsOnly ? "" : "not ")thumbnails-only, unlike \(first.folder)"
                        : shard.report.viewport != first.report.viewport
                            ? "has another --viewport or --strip-height than \(first.folder)"
                            : nil
            if let reason { throw ProcessError(path: shard.folder, reason: reason) }
        }
        var seen: [Int: String] = [:]
        for shard in shards {
            if let other = seen[shard.run.shardIndex] {
                throw ProcessError(
                    path: shard.folder,
                    reason: "is shard \(shard.run.shardIndex)/\(shard.run.shardCount), as is \(other)")
            }
            seen[shard.run.shardIndex] = shard.folder
        }
        let missing = (1...first.run.shardCount).filter { seen[$0] == nil }
        if !missing.isEmpty {
            throw ProcessError(
                path: first.folder,
                reason: "shard\(missing.count == 1 ? "" : "s") "
                    + missing.map { "\($0)/\(first.run.shardCount)" }.joined(separator: ", ")
                    + " missing from the merge")
        }
    }

    /// Puts a copy of `source` at `destination` atomically: a hard link when both are on one
    /// file system (no bytes copied), else a byte copy.
    static func place(_ source: String, at destination: String) throws {
        do {
            try AtomicFile.write(to: destination) { temporary in
                if link(source, temporary) == 0 { return }
                try FileManager.default.copyItem(atPath: source, toPath: temporary)
            }
        } catch {
            throw ProcessError(path: destination, reason: "cannot be made from \(source) (\(error))")
        }
    }
}
