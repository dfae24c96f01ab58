import Foundation
import QuireImaging

extension Processor {
    /// Which pages a run processes and under which names: the plan part of the page phase
    /// (`processPages`), made from the units, the corrections file and the options, before any
    /// pixel is touched.
    struct BatchPlan: Sendable {
        /// The pages to process, in input order (those the corrections file excludes left out).
        let units: [Unit]
        /// Each page's corrections-file entry, or nil.
        let entries: [CorrectionEntry?]
        /// The pages the corrections file excludes, listed in layout.json so they can be undone.
        let excluded: [LayoutReport.ExcludedPage]
        /// Each page's manifest key: `source#page`, made unique when an input is given twice.
        let keys: [String]
        /// Each page's options hash: the batch's shaping options, plus its correction when it has one.
        let optionsHashes: [String]
        /// Each page's folder in the page store.
        let ids: [String]
        /// The split options in effect (thumbnails-only runs never split).
        let split: SplitOptions
        /// `--ocr` when it can run.
        let ocr: OCROptions?
        /// The order in which the workers take the pages (`largestFirst`); the pages keep their
        /// positions in `units`, so numbering and layout.json do not depend on it.
        let workOrder: [Int]

        init(units allUnits: [Unit], job: ProcessJob) {
            let allEntries = allUnits.map { job.correction(for: $0.page) }
            let kept = allUnits.indices.filter { allEntries[$0]?.exclude != true }
            excluded = allUnits.indices.filter { allEntries[$0]?.exclude == true }.map { i in
                LayoutReport.ExcludedPage(
                    source: allUnits[i].source, sourcePage: allUnits[i].page.page,
                    correctionKey: CornersFile.key(source: allUnits[i].source, page: allUnits[i].page.page))
            }
            let units = kept.map { allUnits[$0] }
            let entries = kept.map { allEntries[$0] }
            let ocr = job.effectiveOCR
            let split = job.thumbnailsOnly ? SplitOptions(mode: .none) : job.split
            let shaping = ShapingOptions(
                renditions: job.renditions, correction: job.correction, clean: job.clean, split: split,
                dpi: job.dpi, maxPixels: job.maxPixels,
                thumbnailsOnly: job.thumbnailsOnly, ocr: ocr)
            let batchHash = ContentHash.of(
                String(decoding: (try? JSONOutput.encoder(.hashInput).encode(shaping)) ?? Data(), as: UTF8.self))
            var seen: [String: Int] = [:]
            let keys = units.map { unit -> String in
                let key = ResumeManifest.key(source: unit.source, page: unit.page.page)
                let n = seen[key, default: 0]
                seen[key] = n + 1
                return n == 0 ? key : key + "#\(n)"
            }
            let hashes = entries.map { Self.optionsHash(batchHash, entry: $0) }
            self.units = units
            self.entries = entries
            self.keys = keys
            self.optionsHashes = hashes
            self.ids = units.indices.map {
                PageStore.id(key: keys[$0], inputHash: units[$0].hash, optionsHash: hashes[$0])
            }
            self.split = split
            self.ocr = ocr
            self.workOrder = Self.largestFirst(units.map(\.pixels))
        }

        /// The positions of `sizes`, largest first, equal sizes in their own order.
        ///
        /// Why: the workers take the next page as they finish one, so a batch ends when its last
        /// page does. A large page started last (a batch in name order often ends on one) leaves
        /// the other workers idle while it runs alone; started first, the small pages that come
        /// after it fill the other workers until all end close together (longest-first list
        /// scheduling). Pixel count is the estimate of a page's work its header gives for free.
        static func largestFirst(_ sizes: [Int]) -> [Int] {
            sizes.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
        }

        /// A page the user corrected is shaped by the correction too: its hash includes the entry
        /// (a corners-only entry as corners files always hashed), so a changed, added or removed
        /// entry redoes the page and an unchanged one reuses it.
        static func optionsHash(_ batch: String, entry: CorrectionEntry?) -> String {
            guard let entry else { return batch }
            if let quad = entry.corners, entry == CorrectionEntry(corners: quad) {
                return ContentHash.of(
                    batch + "|corners:" + quad.corners.map { "\($0.x),\($0.y)" }.joined(separator: ";"))
            }
            return ContentHash.of(batch + "|correction:" + entry.jsonText)
        }
    }
}
