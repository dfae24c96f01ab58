import Testing
@testable import VipsBridge
import QuireImageTestSupport

@Suite struct VIPSFrameTests {
    @Test func rendersAnImageAndSharesItsPixelsWithLibvips() throws {
        let source = try VIPSImage.fromPixels(
            (0..<(40 * 30 * 3)).map { UInt8(truncatingIfNeeded: $0) },
            width: 40, height: 30, bands: 3)
        let frame = try VIPSFrame(rendering: source)
        #expect((frame.width, frame.height, frame.bands) == (40, 30, 3))
        #expect(Array(frame.pixels) == (try source.pixelBytes()))
        // Writing the buffer changes what libvips reads: the image wraps it, no copy.
        frame.pixels[0] = 255
        #expect(try frame.image.pixelBytes()[0] == 255)
    }

    @Test func releasedRowsReadAsZeroAndOthersKeepTheirPixels() throws {
        // 4 KiB rows: each row is whole memory pages, so releasing rows 2..<5 frees exactly them.
        let frame = try VIPSFrame(width: 4096, height: 8, bands: 1)
        for i in frame.pixels.indices { frame.pixels[i] = 7 }
        frame.releaseRows(2..<5)
        frame.releaseRows(100..<200)  // outside the frame: ignored
        for row in 0..<8 {
            let value = frame.pixels[row * 4096 + 123]
            #expect(value == ((2..<5).contains(row) ? 0 : 7), "row \(row)")
        }
    }

    @Test func framesStartOnLargePageBoundaries() throws {
        // The kernel backs only aligned 2 MiB pieces with large pages; an unaligned 10 MB
        // frame was faulted in 4 KiB at a time at both ends (cvips_hugemap).
        for (width, height) in [(1257, 1711), (4000, 3000), (3, 1)] {
            let frame = try VIPSFrame(width: width, height: height, bands: 3)
            let address = UInt(bitPattern: frame.pixels.baseAddress!)
            #expect(address % (2 << 20) == 0, "\(width)x\(height)")
            // The whole frame is writable, to its last byte.
            frame.pixels[frame.pixels.count - 1] = 9
            #expect(frame.pixels[frame.pixels.count - 1] == 9)
        }
    }

    @Test func streamedResizeMatchesThePlainResize() throws {
        var bytes = [UInt8](repeating: 0, count: 300 * 200 * 3)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: (i / 3) % 300 ^ (i / 900)) }
        let image = try VIPSImage.fromPixels(bytes, width: 300, height: 200, bands: 3)
        let a = try image.fitted(inside: 100)
        let b = try image.resized(toWidth: a.width, height: a.height)
        #expect((a.width, a.height) == (100, 67))
        #expect(try a.maxAbsoluteDifference(to: b) == 0)
    }

    @Test func withPixelsComputesAPipelineFirst() throws {
        let image = try VIPSImage.black(width: 5, height: 4, bands: 1).castToUChar()
        let sum = try image.withPixels { $0.reduce(0) { $0 + Int($1) } }
        #expect(sum == 0)
        let count = try image.withPixels { $0.count }
        #expect(count == 20)
    }
}

@Suite struct JPEGOptimizeCodingTests {
    /// Optimised Huffman tables change only the entropy coding: smaller file, same pixels.
    @Test func smallerFileSamePixels() throws {
        var bytes = [UInt8](repeating: 0, count: 320 * 240 * 3)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: (i &* 7919) >> 5 ^ (i / 960)) }
        let image = try VIPSImage.fromPixels(bytes, width: 320, height: 240, bands: 3)
        let plain = try image.encoded(options: .init(format: .jpeg, quality: 85))
        let optimized = try image.encoded(options: .init(format: .jpeg, quality: 85, optimizeCoding: true))
        #expect(optimized.count < plain.count)
        let a = try VIPSImage.load(data: plain), b = try VIPSImage.load(data: optimized)
        #expect(try a.maxAbsoluteDifference(to: b) == 0)
    }
}
