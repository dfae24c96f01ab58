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
    static func probe(
        _ path: String, job: ProcessJob, reader: ContentHash.FileReader
    ) -> (Result<SourceInfo, ImagingError>, String) {
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
            return (outcome, try reader.hash(atPath: path))
        } catch {
            return (.failure(ImagingError(.unreadable, path: path, reason: "cannot be read")), "")
        }
    }

    static func timedOut(path: String, job: ProcessJob, what: String) -> ImagingError {
        let limit = job.pageTimeout.map { $0 == $0.rounded() ? String(Int($0)) : String($0) } ?? "?"
        return ImagingError(.timedOut, path: path, reason: "gave up after \(limit) s \(what) (--page-timeout)")
    }

    /// The page phase: plan the pages (`BatchPlan`), run them (`BatchRun.schedule`, then
    /// `retry`) and report or commit them (`BatchRun.finish`). A full disk stops the batch like
    /// Ctrl-C, but throws: OUT keeps the previous complete run.
    static func processPages(
        _ units: [Unit], job: ProcessJob, workers: Int, hashes: [String],
        errors initialErrors: [(order: Int, page: Int, error: LayoutReport.PageError)],
        stop: BatchStop?, report: Reporter, started: ContinuousClock.Instant
    ) throws -> ProcessSummary {
        let out = job.outputDirectory
        let plan = BatchPlan(units: units, job: job)
        let store = PageStore(
            output: out, ext: job.renditions.format.fileExtension, thumbnailsOnly: job.thumbnailsOnly,
            readsText: plan.ocr != nil, captures: job.captures && !job.thumbnailsOnly)
        let manifest: ResumeManifest
        do {
            if job.force { try? FileManager.default.removeItem(atPath: store.storeDirectory) }
            try store.prepare()
            manifest = try ResumeManifest(outputDirectory: URL(fileURLWithPath: out), discardExisting: job.force)
        } catch {
            throw ProcessError(
                path: out + "/.quire", reason: "cannot be written (\((error as NSError).localizedDescription))")
        }
        removeTemporaryFiles(in: out)
        // Whole decoded frames within a byte budget per two pages in flight: the peak-memory
        // bound (FrameGate).
        let pipeline = PagePipeline(
            renditions: job.renditions, correction: job.correction, clean: job.clean, split: plan.split,
            maxPixels: job.maxPixels,
            frameGate: FrameGate.forBatch(pagesInFlight: workers), ocr: plan.ocr)
        let run = BatchRun(
            plan: plan, job: job, store: store, manifest: manifest, pipeline: pipeline, workers: workers,
            report: report)
        var results = run.schedule(stop: stop)
        if run.diskFull.isRequested {
            // Pages already committed stay in the store for the rerun; OUT's numbered files and
            // layout.json are left as the previous complete run left them. Writing the manifest
            // may itself fail on the full disk: the rerun then redoes those pages.
            try? manifest.rewrite(manifest.allEntries)
            try? FileManager.default.removeItem(atPath: store.stagingDirectory)
            throw ProcessError.noSpace(in: out)
        }
        run.retry(&results, stop: stop)
        return try run.finish(results, errors: initialErrors, started: started)
    }

    /// `--masks`: writes `masks/NNNN.png` for a page whose correction used a quad (255 inside
    /// it, in the oriented source's pixels), atomically; nil for pages without a quad. Masks
    /// are cheap next to decoding, so they are redrawn at every commit rather than stored.
    static func writeMask(of result: PageResult, number: Int, total: Int, in out: String) throws -> String? {
        guard let quad = result.correction.quad, let size = result.sourceSize else { return nil }
        let name =
            files(number, total: total, ext: "png").page.split(separator: "/").last.map(String.init) ?? "mask.png"
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

    /// Temporary files a killed run can leave in OUT itself or in its `.quire` folder: any
    /// abandoned atomic write (`.layout.json.partial-*`, `.pages.pdf.partial-*`, the resume
    /// manifest's `.manifest.partial-*`, ...), or `.layout.json.*.tmp` from Quire 0.1.
    static func removeTemporaryFiles(in out: String) {
        AtomicFile.removeAbandoned(in: out)
        let manifestFolder = ResumeManifest.url(in: URL(fileURLWithPath: out)).deletingLastPathComponent()
        AtomicFile.removeAbandoned(in: manifestFolder.path)
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
