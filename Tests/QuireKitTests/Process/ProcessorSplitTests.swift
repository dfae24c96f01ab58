import Foundation
import Testing
import QuireImaging
import VipsBridge
@testable import QuireKit

/// A batch with an open book in it: the spread's two pages take two numbers in reading order,
/// layout.json says which half of which source each came from, a rerun reuses both, and
/// sharding then merging gives the same output as one run.
@Suite struct ProcessorSplitTests {
    /// A scanned spread 1400 x 1000: two blocks of text lines and an ink-free gutter.
    static func writeSpread(_ path: String) throws {
        var gray = [UInt8](repeating: 250, count: 1400 * 1000)
        for y in 60..<940 where y % 14 < 4 {
            for x in 0..<1400 {
                let u = Double(x) / 1400
                if ((0.06...0.44).contains(u) || (0.56...0.94).contains(u)) && (x / 9) % 6 != 5 {
                    gray[y * 1400 + x] = 30
                }
            }
        }
        try VIPSImage.fromPixels(gray, width: 1400, height: 1000, bands: 1).save(to: path, options: .init(format: .png))
    }

    static func batch() throws -> (dir: String, inputs: [String]) {
        let dir = try TestSupport.temporaryFolder("splitbatch")
        try TestSupport.writeImage("\(dir)/a.jpg", width: 160, height: 220, level: 200)
        try writeSpread("\(dir)/b-spread.png")
        try TestSupport.writeImage("\(dir)/c.jpg", width: 170, height: 230, level: 180)
        return (dir, ["\(dir)/a.jpg", "\(dir)/b-spread.png", "\(dir)/c.jpg"])
    }

    static func job(_ inputs: [String], out: String, split: SplitOptions = SplitOptions()) -> ProcessJob {
        var job = ProcessJob(
            inputs: inputs, outputDirectory: out, renditions: RenditionOptions(previewSize: 300, thumbnailSize: 64),
            correction: CorrectionOptions(rotate: .none), jobs: 2)
        job.split = split
        return job
    }

    @Test func aSpreadTakesTwoNumbersAndIsReusedWhole() throws {
        let batch = try Self.batch()
        let out = try TestSupport.temporaryFolder("splitout")
        defer { for p in [batch.dir, out] { try? FileManager.default.removeItem(atPath: p) } }

        let first = try Processor.run(Self.job(batch.inputs, out: out))
        let pages = first.report.pages
        #expect(
            pages.map { ($0.source as NSString).lastPathComponent } == [
                "a.jpg", "b-spread.png", "b-spread.png", "c.jpg"
            ])
        #expect(pages.map(\.files.page) == ["pages/0001.jpg", "pages/0002.jpg", "pages/0003.jpg", "pages/0004.jpg"])
        #expect(pages.map { $0.split?.part } == [nil, 1, 2, nil])
        #expect(pages.map { $0.split?.side } == [nil, .left, .right, nil])
        #expect(pages[1].split?.rect.x == 0 && pages[2].split?.rect.x == Double(pages[1].width))
        for page in pages {
            let image = try VIPSImage.load(file: out + "/" + page.files.page)
            #expect(image.width == page.width && image.height == page.height)
        }
        let json = try String(contentsOfFile: out + "/layout.json", encoding: .utf8)
        #expect(
            json.contains("\"split\" : {") && json.contains("\"split\" : null")
                && json.contains("\"splitOrder\" : \"ltr\""))

        // A rerun reuses all three sources (four pages) and writes the same layout.json.
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/layout.json"))
        let again = try Processor.run(Self.job(batch.inputs, out: out))
        #expect(again.reusedCount == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/layout.json")) == before)

        // --split none: the spread is one page again, and the stale fourth page is gone.
        let whole = try Processor.run(Self.job(batch.inputs, out: out, split: SplitOptions(mode: .none)))
        #expect(whole.report.pages.count == 3 && whole.report.pages.allSatisfy { $0.split == nil })
        #expect(!FileManager.default.fileExists(atPath: out + "/pages/0004.jpg"))

        // --split-order rtl: the right page first.
        let rtl = try Processor.run(Self.job(batch.inputs, out: out, split: SplitOptions(order: .rtl)))
        #expect(rtl.report.pages.map { $0.split?.side } == [nil, .right, .left, nil])
    }

    @Test func shardsWithASpreadMergeToOneRunsOutput() throws {
        let batch = try Self.batch()
        let single = try TestSupport.temporaryFolder("splitsingle"),
            merged = try TestSupport.temporaryFolder("splitmerged")
        _ = try Processor.run(Self.job(batch.inputs, out: single))
        let shards = try (1...2).map { k -> String in
            let out = try TestSupport.temporaryFolder("splitshard\(k)")
            var job = Self.job(batch.inputs, out: out)
            job.shard = ShardSelector(index: k, count: 2)
            _ = try Processor.run(job)
            return out
        }
        defer { for p in [batch.dir, single, merged] + shards { try? FileManager.default.removeItem(atPath: p) } }
        let summary = try ShardMerge.merge(shards.reversed(), into: merged)
        #expect(summary.pageCount == 4)
        let a = try ShardMergeTests.tree(single), b = try ShardMergeTests.tree(merged)
        #expect(a["layout.json"] == b["layout.json"], "layout.json byte-identical")
        #expect(a.keys.sorted() == b.keys.sorted())
    }
}
