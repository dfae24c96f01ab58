import Foundation
import Testing
import QuireImaging
import VipsBridge
@testable import QuireKit

/// `--ocr`: each page's text in `text/NNNN.hocr` and `.txt`, its record in layout.json, reused
/// on resume, redone when OCR is turned on, removed when it is turned off, and merged from
/// shards as one run writes it. Pages are synthesised here (libvips renders the words);
/// skipped where Tesseract cannot read English.
@Suite(.serialized) struct ProcessorOCRTests {
    static var readsEnglish: Bool { TesseractEngines.readableLanguages.contains("eng") }

    /// The words written on page `i` of a batch: three lines a reader can check.
    static func lines(_ i: Int) -> [String] {
        ["Quire page \(i + 1) searchable", "Invoice number \(48213 + i)", "Thank you for reading"]
    }

    /// Writes `count` white pages of rendered text (PNG at 300 dpi, 1700 x 2200 px) into a new folder.
    static func makePages(count: Int) throws -> String {
        let dir = try TestSupport.temporaryFolder("ocrpages")
        for i in 0..<count {
            var layers: [(image: VIPSImage, x: Int, y: Int)] = []
            for (n, line) in lines(i).enumerated() {
                layers.append((try VIPSImage.text(line, font: "serif 14", dpi: 300), 200, 300 + 260 * n))
            }
            let page = try VIPSImage.solid(width: 1700, height: 2200, color: [255, 255, 255]).rgba()
                .compositing(layers).flattened(onto: [255, 255, 255]).extractBands(1)
            try page.save(to: "\(dir)/page\(i + 1).png", options: .init(format: .png))
        }
        return dir
    }

    static func job(_ inputs: [String], out: String, ocr: Bool) -> ProcessJob {
        var job = ProcessJob(inputs: inputs, outputDirectory: out, correction: CorrectionOptions(mode: .none), jobs: 2)
        job.ocr = ocr ? OCROptions() : nil
        return job
    }

    static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// The text and `bbox` of each `ocrx_word` of an hOCR file.
    static func words(_ hocr: String) -> [(text: String, box: [Int])] {
        let pattern = try! NSRegularExpression(
            pattern: "class='ocrx_word'[^>]*title='bbox (\\d+) (\\d+) (\\d+) (\\d+)[^']*'[^>]*>([^<]*)<")
        let ns = hocr as NSString
        return pattern.matches(in: hocr, range: NSRange(location: 0, length: ns.length)).map { m in
            (ns.substring(with: m.range(at: 5)), (1...4).map { Int(ns.substring(with: m.range(at: $0)))! })
        }
    }

    @Test func ocrWritesTextFilesAndTheirRecord() throws {
        guard Self.readsEnglish else { return }
        let dir = try Self.makePages(count: 2)
        let out = try TestSupport.temporaryFolder("ocrout")
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        let summary = try Processor.run(Self.job([dir], out: out, ocr: true))
        #expect(summary.pageCount == 2 && summary.failureCount == 0)
        let report = try LayoutReport.read(from: URL(fileURLWithPath: out + "/layout.json"))
        for (i, page) in report.pages.enumerated() {
            let text = try #require(page.text)
            let number = String(format: "%04d", i + 1)
            #expect(text.hocr == "text/\(number).hocr" && text.txt == "text/\(number).txt")
            #expect(text.language == "eng")
            let txt = Self.text(out + "/" + text.txt)
            for line in Self.lines(i) { #expect(txt.contains(line), "page \(i + 1) reads: \(txt)") }
            let words = Self.words(Self.text(out + "/" + text.hocr))
            #expect(text.words == words.count && words.count == 11)
            #expect((text.meanConfidence ?? 0) > 80 && (text.meanConfidence ?? 0) <= 100)
            // Boxes in the written page's pixels: the first word where its line was drawn.
            #expect(Self.text(out + "/" + text.hocr).contains("bbox 0 0 \(page.width) \(page.height)"))
            let first = try #require(words.first)
            #expect(first.text == "Quire" && abs(first.box[0] - 200) < 15 && abs(first.box[1] - 300) < 40, "\(first)")
            let invoice = try #require(words.first { $0.text == "Invoice" })
            #expect(abs(invoice.box[0] - 200) < 15 && abs(invoice.box[1] - 560) < 40, "\(invoice)")
        }
        // The encoded record has every key of the file contract.
        let json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/layout.json")))
            as? [String: Any]
        let first = ((json?["pages"] as? [[String: Any]])?.first?["text"] as? [String: Any]) ?? [:]
        #expect(first.keys.sorted() == ["hocr", "language", "meanConfidence", "txt", "words"])
        #expect(first["hocr"] as? String == "text/0001.hocr" && first["words"] as? Int == 11)
        // No temporary file is left in text/.
        let names = try FileManager.default.contentsOfDirectory(atPath: out + "/text").sorted()
        #expect(names == ["0001.hocr", "0001.txt", "0002.hocr", "0002.txt"])
    }

    @Test func resumeReusesTextAndOCRChangesTheFingerprint() throws {
        guard Self.readsEnglish else { return }
        let dir = try Self.makePages(count: 2)
        let out = try TestSupport.temporaryFolder("ocrresume")
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        // Without --ocr: no text.
        let plain = try Processor.run(Self.job([dir], out: out, ocr: false))
        #expect(plain.report.pages.allSatisfy { $0.text == nil })
        #expect(!FileManager.default.fileExists(atPath: out + "/text/0001.hocr"))
        // With --ocr over it: the pages are read (not reused from the run without text).
        let read = try Processor.run(Self.job([dir], out: out, ocr: true))
        #expect(read.reusedCount == 0)
        #expect(read.report.pages.allSatisfy { ($0.text?.words ?? 0) > 0 })
        let hocr = Self.text(out + "/text/0002.hocr")
        #expect(hocr.contains("48214"))
        // The same again: every page reused, text and record unchanged.
        let again = try Processor.run(Self.job([dir], out: out, ocr: true))
        #expect(again.reusedCount == 2)
        #expect(again.report == read.report)
        #expect(Self.text(out + "/text/0002.hocr") == hocr)
        // A reused page whose stored text is gone is read again.
        let store = out + "/.quire/store"
        for id in try FileManager.default.contentsOfDirectory(atPath: store) { unlink(store + "/" + id + "/text.hocr") }
        let redone = try Processor.run(Self.job([dir], out: out, ocr: true))
        #expect(redone.reusedCount == 0 && Self.text(out + "/text/0002.hocr") == hocr)
        // OCR off again: the text files go, as layout.json no longer names them.
        let off = try Processor.run(Self.job([dir], out: out, ocr: false))
        #expect(off.report.pages.allSatisfy { $0.text == nil })
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out + "/text")) ?? []).isEmpty)
    }

    /// An open book split in two: each page gets the text of its own half.
    @Test func eachPageOfASplitBookHasItsOwnText() throws {
        guard Self.readsEnglish else { return }
        let dir = try TestSupport.temporaryFolder("ocrspread")
        let out = try TestSupport.temporaryFolder("ocrspreadout")
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        var layers: [(image: VIPSImage, x: Int, y: Int)] = []
        for (side, x) in [("left", 150), ("right", 1550)] {
            for n in 0..<5 {
                layers.append(
                    (try VIPSImage.text("The \(side) page line \(n + 1)", font: "serif 14", dpi: 300), x, 200 + 200 * n)
                )
            }
        }
        try VIPSImage.solid(width: 2800, height: 2000, color: [255, 255, 255]).rgba().compositing(layers)
            .flattened(onto: [255, 255, 255]).extractBands(1).save(
                to: dir + "/spread.png", options: .init(format: .png))
        var job = ProcessJob(inputs: [dir + "/spread.png"], outputDirectory: out, jobs: 2)
        job.ocr = OCROptions()
        let report = try Processor.run(job).report
        #expect(report.pages.map { $0.split?.side } == [.left, .right])
        #expect(Self.text(out + "/text/0001.txt").contains("The left page line 3"))
        #expect(Self.text(out + "/text/0002.txt").contains("The right page line 3"))
        #expect(
            !Self.text(out + "/text/0001.txt").contains("right") && !Self.text(out + "/text/0002.txt").contains("left"))
        #expect(report.pages.map { $0.text?.words } == [25, 25])
    }

    /// The languages join the options fingerprint (a page read in English is redone when German
    /// is asked for), and a run without `--ocr` keeps the fingerprint it had before OCR existed,
    /// so upgrading does not redo every page.
    @Test func theLanguagesAreInTheFingerprintOnlyWhenReading() throws {
        func shaping(_ ocr: OCROptions?) throws -> String {
            let options = Processor.ShapingOptions(
                renditions: RenditionOptions(), correction: CorrectionOptions(), clean: CleanOptions(),
                split: SplitOptions(), dpi: 200, maxPixels: 1000, thumbnailsOnly: false, ocr: ocr)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return String(decoding: try encoder.encode(options), as: UTF8.self)
        }
        let off = try shaping(nil), eng = try shaping(OCROptions()), deu = try shaping(OCROptions(languages: ["deu"]))
        #expect(Set([off, eng, deu]).count == 3)
        #expect(try shaping(OCROptions(languages: ["eng", "deu"])) != shaping(OCROptions(languages: ["deu", "eng"])))
        #expect(!off.contains("ocr"), "no trace of OCR when it is off: \(off)")
    }

    @Test func shardsWithTextMergeIntoOneRun() throws {
        guard Self.readsEnglish else { return }
        let dir = try Self.makePages(count: 4)
        let single = try TestSupport.temporaryFolder("ocrsingle"), merged = try TestSupport.temporaryFolder("ocrmerged")
        let inputs = (1...4).map { "\(dir)/page\($0).png" }
        _ = try Processor.run(Self.job(inputs, out: single, ocr: true))
        let shards = try (1...2).map { k -> String in
            let out = try TestSupport.temporaryFolder("ocrshard\(k)")
            var job = Self.job(inputs, out: out, ocr: true)
            job.shard = ShardSelector(index: k, count: 2)
            _ = try Processor.run(job)
            return out
        }
        defer { for p in [dir, single, merged] + shards { try? FileManager.default.removeItem(atPath: p) } }
        try ShardMerge.merge(shards.reversed(), into: merged)
        let a = try ShardMergeTests.tree(single), b = try ShardMergeTests.tree(merged)
        #expect(a.keys.contains("text/0004.hocr") && a.keys.contains("text/0004.txt"))
        #expect(a.keys.sorted() == b.keys.sorted())
        for (path, bytes) in a { #expect(b[path] == bytes, "\(path) identical") }
        // Each text file is the one of its own page, renumbered with it.
        #expect(Self.text(merged + "/text/0003.txt").contains("Invoice number 48215"))
    }
}
