import Foundation
import Testing
@testable import QuireKit

@Suite struct ParallelWorkTests {
    /// Numbers each state it makes, so the test sees how many there were.
    final class Tagged: Sendable {
        let tag: Int
        init(_ tag: Int) { self.tag = tag }
    }

    /// Planning's hash buffer is a per-worker state: it must be made once per worker thread
    /// (here 2 for 300 items), not once per item, or the batch is back to one heap buffer per
    /// file and the fragmentation that left planning at 170-360 MB.
    @Test(arguments: [1, 2, 3])
    func makesOneStatePerWorker(workers: Int) {
        let made = Counter()
        let results = ParallelWork.map(
            count: 300, workers: workers, state: { Tagged(made.take(below: .max) ?? -1) }
        ) { state, index in (index, state.tag) }
        #expect(made.take(below: .max)! <= workers)  // the next number = states made so far
        #expect(results.map(\.0) == Array(0..<300))
        #expect(Set(results.map(\.1)).count <= workers)
    }

    /// A reader reused from a larger file to a smaller one hashes only the smaller one's bytes.
    @Test func reusedReaderHashesEachFileAlone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("big"), small = dir.appendingPathComponent("small")
        try Data(repeating: 9, count: ContentHash.readChunkBytes + 1000).write(to: big)
        try Data("abc".utf8).write(to: small)
        let reader = ContentHash.FileReader()
        #expect(try reader.hash(atPath: big.path) == ContentHash.ofFile(atPath: big.path))
        #expect(try reader.hash(atPath: small.path) == "44bc2cf5ad770999")
        #expect(throws: (any Error).self) { try reader.hash(atPath: small.path + "-missing") }
        #expect(try reader.hash(atPath: small.path) == "44bc2cf5ad770999")
    }
}
