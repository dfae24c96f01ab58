import Foundation
import Testing
import VipsBridge

/// `--thumbnails-only` decodes each JPEG at 1/8 through the shim's own read buffer. At 1 MiB
/// that buffer met the batch's fixed mmap threshold, so every file got a fresh mapping whose
/// 256 pages faulted in and were zeroed (about 550 faults a 10 MP capture with the hash's
/// buffer); below it, the buffer is reused from the heap.
@Suite struct JPEGReadBufferTests {
    /// Minor page faults of the calling thread so far (other tests' threads do not count).
    static func threadFaults() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD
        return usage.ru_minflt
    }

    /// A noise JPEG of more than 1 MiB, so a 1 MiB read buffer is filled to its last page.
    static func noiseJPEG(in dir: String) throws -> String {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let (width, height) = (1600, 1200)
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for i in bytes.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        let path = "\(dir)/noise.jpg"
        try VIPSImage.fromPixels(bytes, width: width, height: height, bands: 3).save(to: path)
        return path
    }

    @Test func scaledDecodeReusesItsReadBufferInsteadOfMappingOnePerFile() throws {
        #expect(VIPSImage.jpegReadBufferBytes < VIPSRuntime.defaultMmapThreshold)
        let dir = NSTemporaryDirectory() + "quire-jpeg-buffer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = try Self.noiseJPEG(in: dir)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        try #require(size > VIPSRuntime.defaultMmapThreshold, "the noise JPEG is \(size) bytes")
        VIPSRuntime.limitAllocatorGrowth()  // the allocator as `quire` sets it at start-up
        _ = try #require(try VIPSImage.jpegScaled(file: path, shrink: 8))  // warm: first heap growth
        let rounds = 6
        let before = Self.threadFaults()
        for _ in 0..<rounds { _ = try #require(try VIPSImage.jpegScaled(file: path, shrink: 8)) }
        let perDecode = (Self.threadFaults() - before) / rounds
        // A mapped 1 MiB buffer costs 256 faults a decode; the 200 x 150 result a few.
        #expect(perDecode < 64, "\(perDecode) page faults a decode")
    }
}
