import Foundation
import Testing
import VipsBridge
@testable import QuireKit

/// The order of work: the workers take the largest pages first (`BatchPlan.largestFirst`), while
/// the pages keep their input order in numbering and layout.json.
@Suite struct BatchOrderTests {
    @Test func largestFirstKeepsTiesInInputOrder() {
        #expect(Processor.BatchPlan.largestFirst([1, 5, 3, 5, 0]) == [1, 3, 2, 0, 4])
        #expect(Processor.BatchPlan.largestFirst([]) == [])
        #expect(Processor.BatchPlan.largestFirst([0, 0, 0]) == [0, 1, 2])
    }

    @Test func theLargestPageIsStartedFirstAndNumberedInInputOrder() throws {
        let dir = try TestSupport.temporaryFolder(), out = try TestSupport.temporaryFolder()
        defer { for p in [dir, out] { try? FileManager.default.removeItem(atPath: p) } }
        // The largest file comes last in name order, as a batch's last scan often does.
        for (name, side) in [("a.jpg", 40), ("b.png", 60), ("c.jpg", 300)] {
            try TestSupport.writeImage(
                "\(dir)/\(name)", width: side, height: side, format: name.hasSuffix(".png") ? .png : .jpeg)
        }
        let written = ProcessorTests.Events()
        // One worker: the order of the pages written is the order of work.
        let summary = try Processor.run(ProcessJob(inputs: [dir], outputDirectory: out, jobs: 1)) {
            written.add($0)
        }
        let order = written.all.compactMap { event -> String? in
            if case .pageWritten(let source, _, _, _) = event { return source }
            return nil
        }
        #expect(order == ["c.jpg", "b.png", "a.jpg"])
        #expect(summary.report.pages.map(\.source) == ["a.jpg", "b.png", "c.jpg"])
        #expect(summary.report.pages.map(\.files.page) == ["pages/0001.jpg", "pages/0002.jpg", "pages/0003.jpg"])
        #expect(
            try VIPSImage.load(file: "\(out)/thumbs/0003.jpg").width
                > VIPSImage.load(file: "\(out)/thumbs/0001.jpg").width)
    }
}
