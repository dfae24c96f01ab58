import Testing
import VipsBridge
@testable import QuireImaging

/// How many full-size copies of a page the scan path keeps alive at once.
@Suite struct PageCorrectorMemoryTests {
    /// A stored frame of `width` x `height` (4 KiB rows, so releasing rows frees whole memory
    /// pages) with every byte non-zero, decoded with EXIF `orientation`.
    func decoded(orientation: Int, width: Int = 1024, height: Int = 48) throws -> DecodedFrame {
        let frame = try VIPSFrame(width: width, height: height, bands: 4)
        for i in frame.pixels.indices { frame.pixels[i] = UInt8(1 + i % 251) }
        let stored = try #require(StoredOrientation(orientation: orientation, storedWidth: width, storedHeight: height))
        return DecodedFrame(frame: frame, orientation: stored, exifOrientation: orientation, format: .png)
    }

    @Test(arguments: [3, 6, 8])
    func aTurnedPageIsMadeOnceAndTheStoredFrameIsHandedBack(orientation: Int) throws {
        let frame = try decoded(orientation: orientation)
        let expected = try frame.uprightImage().pixelBytes()
        let upright = try PageCorrector.uprightFrame(frame).image
        // The deskew reads the page whole: a lazy turn would be computed into a second buffer.
        #expect(upright.isInMemory)
        #expect(try upright.pixelBytes() == expected)
        // The stored rows are not needed once the page is upright in memory.
        guard case .interleaved(let stored) = frame.pixels else { Issue.record("not interleaved"); return }
        #expect(stored.pixels.allSatisfy { $0 == 0 })
    }

    @Test func anUprightPageIsTheFrameItselfAndKeepsItsPixels() throws {
        let frame = try decoded(orientation: 1)
        let upright = try PageCorrector.uprightFrame(frame).image
        guard case .interleaved(let stored) = frame.pixels else { Issue.record("not interleaved"); return }
        #expect(!stored.pixels.contains(0))
        #expect(try upright.pixelBytes() == Array(stored.pixels))
    }
}
