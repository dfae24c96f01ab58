import Foundation
import Testing
import VipsBridge
@testable import QuireKit

/// `--shard K/N` + `quire merge` == one run over everything; `--thumbnails-only`.
@Suite struct ShardMergeTests {
    /// A batch folder: images of different sizes (so the layout geometry depends on every page
    /// before it), a file that fails, and an empty subfolder given as an input of its own.
    static func makeBatch() throws -> (dir: String, inputs: [String]) {
        let dir = try TestSupport.temporaryFolder("shardbatch")
        try FileManager.default.createDirectory(atPath: "\(dir)/book", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(dir)/nothing", withIntermediateDirectories: true)
        for i in 0..<11 {
            try TestSupport.writeImage(
                "\(dir)/book/page\(i + 1).jpg", width: 120 + 17 * i, height: 200 - 9 * i,
                level: UInt8(20 * i))
        }
        try TestSupport.write(Array("not an image\n".utf8), to: "\(dir)/book/page5b.jpg")
        try TestSupport.writeImage("\(dir)/loose.png", width: 300, height: 90, level: 7, format: .png)
        return (dir, ["\(dir)/book", "\(dir)/nothing", "\(dir)/loose.png"])
    }

    /// Every file under `root` (hidden ones too) with its bytes, by relative path; the run's own
    /// bookkeeping in `.quire/` (resume store and manifest, shard record) is not output.
    static func tree(_ root: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: root)
        while let relative = walker?.nextObject() as? String {
            if relative == ".quire" || relative.hasPrefix(".quire/") { continue }
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory)
            if !isDirectory.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative))
            }
        }
        return files
    }

    func runShards(_ batch: (dir: String, inputs: [String]), count: Int, thumbnailsOnly: Bool = false) throws
        -> [String]
    {
        try (1...count).map { k in
            let out = try TestSupport.temporaryFolder("shard\(k)")
            var job = ProcessJob(inputs: batch.inputs, outputDirectory: out, jobs: 2)
            job.shard = ShardSelector(index: k, count: count)
            job.thumbnailsOnly = thumbnailsOnly
            _ = try Processor.run(job)
            return out
        }
    }

    @Test(arguments: [false, true])
    func shardsThenMergeEqualOneRun(thumbnailsOnly: Bool) throws {
        let batch = try Self.makeBatch()
        let single = try TestSupport.temporaryFolder("single"), merged = try TestSupport.temporaryFolder("merged")
        var job = ProcessJob(inputs: batch.inputs, outputDirectory: single, jobs: 2)
        job.thumbnailsOnly = thumbnailsOnly
        let one = try Processor.run(job)
        let shards = try runShards(batch, count: 3, thumbnailsOnly: thumbnailsOnly)
        defer { for p in [batch.dir, single, merged] + shards { try? FileManager.default.removeItem(atPath: p) } }

        // The shards split the pages between them, each page in exactly one.
        let shardReports = try shards.map { try LayoutReport.read(from: URL(fileURLWithPath: $0 + "/layout.json")) }
        #expect(shardReports.map(\.pages.count).reduce(0, +) == 12)
        #expect(
            shardReports.filter { !$0.pages.isEmpty }.count >= 2, "the hash spreads 12 pages over more than one shard")
        #expect(Set(shardReports.flatMap { $0.pages.map(\.source) }).count == 12)

        // Merged in a scrambled order of shard folders: still the one run's output.
        let summary = try ShardMerge.merge([shards[2], shards[0], shards[1]], into: merged)
        #expect(summary.pageCount == 12 && summary.failureCount == 2)
        #expect(one.report.errors.map(\.source) == ["page5b.jpg", "\(batch.dir)/nothing"])
        let a = try Self.tree(single), b = try Self.tree(merged)
        #expect(a["layout.json"] == b["layout.json"], "layout.json byte-identical")
        #expect(a.keys.sorted() == b.keys.sorted())
        for (path, bytes) in a { #expect(b[path] == bytes, "\(path) identical") }
        #expect(a.keys.contains("pages/0012.jpg") == !thumbnailsOnly)
        #expect(a.keys.contains("thumbs/0012.jpg"))
    }

    /// A merge into an OUT that a `quire process` run holds is refused, and writes nothing there.
    @Test func mergeRefusesAnOutputFolderInUse() throws {
        let batch = try Self.makeBatch()
        let shards = try runShards(batch, count: 2)
        let out = try TestSupport.temporaryFolder("mergebusy")
        let held = try OutputLock(output: out)  // what a running process holds
        do {
            try ShardMerge.merge(shards, into: out)
            Issue.record("a merge into a locked OUT must be refused")
        } catch let error as ProcessError {
            #expect(error.description.contains("in use by another quire process"))
        }
        #expect(!FileManager.default.fileExists(atPath: out + "/layout.json"))
        #expect(!FileManager.default.fileExists(atPath: out + "/pages"))
        held.release()
        try ShardMerge.merge(shards, into: out)
        #expect(FileManager.default.fileExists(atPath: out + "/layout.json"))
    }

    @Test func mergeRefusesIncompleteOrMixedShards() throws {
        let batch = try Self.makeBatch()
        let shards = try runShards(batch, count: 3)
        let other = try runShards(batch, count: 2)
        let out = try TestSupport.temporaryFolder("refused")
        defer { for p in [batch.dir, out] + shards + other { try? FileManager.default.removeItem(atPath: p) } }

        #expect { try ShardMerge.merge([shards[0], shards[1]], into: out) } throws: {
            "\($0)".contains("shard 3/3 missing")
        }
        #expect { try ShardMerge.merge([shards[0], shards[1], shards[1]], into: out) } throws: {
            "\($0)".contains("as is")
        }
        #expect { try ShardMerge.merge(shards + [other[0]], into: out) } throws: {
            "\($0)".contains("was cut into 2 shards")
        }
        #expect { try ShardMerge.merge([batch.dir], into: out) } throws: {
            "\($0)".contains("is not the output of")
        }
        #expect { try ShardMerge.merge(shards, into: shards[0]) } throws: { "\($0)".contains("own output folder") }
        #expect(!FileManager.default.fileExists(atPath: out + "/layout.json"), "nothing written when refused")
    }

    @Test func thumbnailsOnlyWritesThumbnailsFromShrinkOnLoad() throws {
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        try TestSupport.writeImage("\(dir)/wide.jpg", width: 1200, height: 800, level: 40)
        try TestSupport.writeImage("\(dir)/small.png", width: 100, height: 60, level: 200, format: .png)
        var job = ProcessJob(inputs: [dir], outputDirectory: out, jobs: 2)
        job.thumbnailsOnly = true
        let summary = try Processor.run(job)

        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out).sorted() == [".quire", "layout.json", "thumbs"])
        let pages = summary.report.pages
        #expect(pages.map { [$0.width, $0.height] } == [[100, 60], [1200, 800]])
        #expect(
            pages.allSatisfy {
                $0.correction == .none && $0.files.page == $0.files.thumbnail && $0.files.preview == $0.files.thumbnail
            })
        let thumb = try VIPSImage.load(file: "\(out)/\(pages[1].files.thumbnail)")
        #expect(thumb.width == 256 && thumb.height == 171)
        // The thumbnail shows the picture: its left edge is dark in green, its right edge bright.
        let px = try thumb.pixelBytes()
        let left = Int(px[(85 * thumb.width + 2) * 3 + 1]),
            right = Int(px[(85 * thumb.width + thumb.width - 3) * 3 + 1])
        #expect(left < 30 && right > 225, "\(left) \(right)")
        let small = try VIPSImage.load(file: "\(out)/\(pages[0].files.thumbnail)")
        #expect(small.width == 100 && small.height == 60, "never enlarged")
    }
}
