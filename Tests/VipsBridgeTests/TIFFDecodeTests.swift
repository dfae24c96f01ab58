import Foundation
import Testing
@testable import VipsBridge
import QuireImageTestSupport

/// `VIPSFrame.decodingTIFF` (cvips_tiff_decode_into): libvips's pixels, or nil / a throw where
/// libvips's loader must decide.
@Suite struct TIFFDecodeTests {
    static func saved(_ image: VIPSImage) throws -> String {
        let path = NSTemporaryDirectory() + "quire-tiff-\(UUID().uuidString.prefix(8)).tif"
        try image.save(to: path, options: .init(format: .tiff), viaLibvips: true)
        return path
    }

    /// What libvips's loader gives for the file, and what the frame decoded by libtiff holds.
    static func both(_ path: String) throws -> (libvips: [UInt8], frame: [UInt8]?) {
        let loaded = try VIPSImage.load(file: path)
        let frame = try VIPSFrame.decodingTIFF(
            file: path, page: 0, width: loaded.width, height: loaded.height, bands: loaded.bands)
        return (try loaded.pixelBytes(), frame.map { Array($0.pixels) })
    }

    /// The committed one-bit scans (Tools/accuracy/real-scans/SOURCES.md): CCITT G4,
    /// min-is-white, widths that are and are not whole bytes.
    static let oneBitScans = ["feyn.tif", "pageseg1.tif", "bois-2.tif", "scots-frag.tif"]

    @Test(arguments: [1, 3]) func eightBitGreyAndRGBAreLibvipssPixels(bands: Int) throws {
        let path = try Self.saved(PNGDecodeTests.pattern(width: 257, height: 131, bands: bands))
        defer { unlink(path) }
        let (libvips, frame) = try Self.both(path)
        #expect(frame != nil)
        #expect(frame == libvips)
    }

    @Test(arguments: oneBitScans) func oneBitScansAreExpandedAsLibvipsExpandsThem(name: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent("Tools/accuracy/real-scans/leptonica/\(name)").path
        let (libvips, frame) = try Self.both(path)
        #expect(frame != nil)
        let same = frame == libvips  // (not in the expectation: it would print both pages)
        #expect(same, "\(name): \(zip(frame ?? [], libvips).filter { $0 != $1 }.count) bytes differ")
        // Both values occur: a page of text, black on white.
        #expect(libvips.contains(0) && libvips.contains(255))
    }

    @Test func alphaAndAnotherSizeAreLeftToLibvips() throws {
        let path = try Self.saved(PNGDecodeTests.pattern(width: 64, height: 32, bands: 4))
        defer { unlink(path) }
        #expect(try VIPSFrame.decodingTIFF(file: path, page: 0, width: 64, height: 32, bands: 4) == nil)
        #expect(try VIPSFrame.decodingTIFF(file: path, page: 0, width: 64, height: 32, bands: 3) == nil)
        let grey = try Self.saved(PNGDecodeTests.pattern(width: 64, height: 32, bands: 1))
        defer { unlink(grey) }
        #expect(try VIPSFrame.decodingTIFF(file: grey, page: 0, width: 63, height: 32, bands: 1) == nil)
        #expect(try VIPSFrame.decodingTIFF(file: grey, page: 0, width: 64, height: 32, bands: 3) == nil)
    }

    @Test func aCutFileOrAMissingPageThrowsForLibvipsToDecide() throws {
        let path = try Self.saved(PNGDecodeTests.pattern(width: 300, height: 200, bands: 3))
        defer { unlink(path) }
        #expect(throws: VIPSError.self) {
            _ = try VIPSFrame.decodingTIFF(file: path, page: 1, width: 300, height: 200, bands: 3)
        }
        // libvips writes the directory before the strips: a cut file keeps it, and its last
        // strips come short.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count * 3 / 4).write(to: URL(fileURLWithPath: path))
        #expect(throws: VIPSError.self) {
            _ = try VIPSFrame.decodingTIFF(file: path, page: 0, width: 300, height: 200, bands: 3)
        }
    }

    /// A little-endian TIFF of one-sample strips written by hand, for what libvips never
    /// writes: `counts` replaces the true StripByteCounts.
    static func handMade(
        width: Int, height: Int, bits: Int, photometric: Int, compression: Int = 1, rowsPerStrip: Int,
        strips: [[UInt8]], counts: [Int]? = nil
    ) throws -> String {
        var bytes: [UInt8] = [0x49, 0x49, 42, 0, 0, 0, 0, 0]
        func put(_ value: Int, _ size: Int) { for i in 0..<size { bytes.append(UInt8((value >> (8 * i)) & 0xFF)) } }
        var offsets: [Int] = []
        for strip in strips { offsets.append(bytes.count); bytes += strip }
        func array(_ values: [Int]) -> Int {
            if bytes.count % 2 == 1 { bytes.append(0) }
            let at = bytes.count
            for value in values { put(value, 4) }
            return at
        }
        let offsetsAt = array(offsets), countsAt = array(counts ?? strips.map(\.count))
        if bytes.count % 2 == 1 { bytes.append(0) }
        let ifd = bytes.count
        let entries: [(tag: Int, type: Int, count: Int, value: Int)] = [
            (256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, bits), (259, 3, 1, compression),
            (262, 3, 1, photometric), (273, 4, strips.count, strips.count == 1 ? offsets[0] : offsetsAt),
            (277, 3, 1, 1), (278, 4, 1, rowsPerStrip),
            (279, 4, strips.count, strips.count == 1 ? (counts ?? [strips[0].count])[0] : countsAt)
        ]
        put(entries.count, 2)
        for entry in entries {
            put(entry.tag, 2)
            put(entry.type, 2)
            put(entry.count, 4)
            put(entry.value, 4)
        }
        put(0, 4)
        bytes.replaceSubrange(4..<8, with: [0, 8, 16, 24].map { UInt8((ifd >> $0) & 0xFF) })
        let path = NSTemporaryDirectory() + "quire-tiff-\(UUID().uuidString.prefix(8)).tif"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// An uncompressed strip whose StripByteCounts says it is shorter than the strip: libvips
    /// fails on it, so this decode must not read past the count (libtiff does when given a size).
    @Test(arguments: [1, 8]) func aStripByteCountShorterThanTheStripThrows(bits: Int) throws {
        // Four strips of five rows (with a single uncompressed strip libtiff recomputes a
        // short count and warns, and libvips loads the file).
        let rowBytes = (37 * bits + 7) / 8
        let strips = (0..<4).map { strip in
            (0..<rowBytes * 5).map { UInt8(truncatingIfNeeded: ($0 + strip * 131) &* 7) }
        }
        let honest = try Self.handMade(
            width: 37, height: 20, bits: bits, photometric: 1, rowsPerStrip: 5, strips: strips)
        defer { unlink(honest) }
        let (libvips, frame) = try Self.both(honest)
        #expect(frame == libvips)
        let lying = try Self.handMade(
            width: 37, height: 20, bits: bits, photometric: 1, rowsPerStrip: 5, strips: strips,
            counts: strips.map { $0.count - 3 })
        defer { unlink(lying) }
        #expect(throws: VIPSError.self) { _ = try VIPSImage.load(file: lying).pixelBytes() }
        #expect(throws: VIPSError.self) {
            _ = try VIPSFrame.decodingTIFF(file: lying, page: 0, width: 37, height: 20, bands: 1)
        }
    }

    /// A one-bit deflate strip that inflates to more than the strip: libtiff reports nothing
    /// yet leaves the strip's tail unwritten, which must read as zero (black here, as libvips
    /// gives), not as the heap's leftovers. The buffer freed just before is what malloc would
    /// hand the decode next, filled with ones.
    @Test func aOneBitStripThatInflatesPastItsSizeLeavesNoHeapBytes() throws {
        let rowBytes = (37 + 7) / 8
        let path = try Self.handMade(
            width: 37, height: 40, bits: 1, photometric: 1, compression: 8, rowsPerStrip: 40,
            strips: [try Deflate.compress([UInt8](repeating: 0, count: rowBytes * 40 + 1000))])
        defer { unlink(path) }
        let loaded = try VIPSImage.load(file: path)
        let libvips = try loaded.pixelBytes()
        let leftovers = UnsafeMutableRawPointer.allocate(byteCount: rowBytes * 40, alignment: 1)
        leftovers.initializeMemory(as: UInt8.self, repeating: 0xFF, count: rowBytes * 40)
        leftovers.deallocate()
        let frame = try VIPSFrame.decodingTIFF(file: path, page: 0, width: 37, height: 40, bands: 1)
        let pixels = frame.map { Array($0.pixels) } ?? []
        let same = pixels == libvips  // (not in the expectation: it would print both pages)
        #expect(same, "\(zip(pixels, libvips).filter { $0 != $1 }.count) bytes differ")
        #expect(libvips.allSatisfy { $0 == 0 })
    }
}
