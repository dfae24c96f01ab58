import Testing
import VipsBridge

@testable import QuireImaging

/// A scan's half is made resident before it is deskewed (`PageSplitter.split`): its skew copy
/// and trim copy are then shrunk by Quire's loop rather than by libvips's shrink of a crop. The
/// half must come out as it did from the crop: the same skew, the same crop and the same bytes,
/// grey and colour.
@Suite struct PageSplitterHalfTests {
    @Test(arguments: [(1.3, 1), (-2.6, 1), (4.1, 3)])
    func aHalfInMemoryIsDeskewedAsItsCropWas(degrees: Double, bands: Int) throws {
        let grey = try ScanDeskewTests.textScan(pageWidth: 2400, pageHeight: 1700, lid: 70, seed: 11).image()
        let page = try ScanDeskewTests.skewed(grey, degrees: degrees, lid: 70).materialized()
        let scan = try bands == 1 ? page : Self.colour(page)
        let crop = try scan.cropped(x: scan.width * 2 / 5, y: 0, width: scan.width * 3 / 5, height: scan.height)
        let resident = try crop.inMemory()
        try #require(!crop.isInMemory && resident.isInMemory)
        let skew = try SkewEstimate.estimate(page: crop)
        #expect(try SkewEstimate.estimate(page: resident) == skew)
        try #require(abs(skew.degrees) >= 0.05)
        let old = try ScanDeskew.deskewAndTrim(crop, skew: skew)
        let new = try ScanDeskew.deskewAndTrim(resident, skew: skew)
        #expect(new.crop == old.crop)
        #expect(new.image.width == old.image.width && new.image.height == old.image.height)
        #expect(try new.image.pixelBytes() == old.image.pixelBytes())
    }

    /// `image` (grey) as RGB with a slight tint, so the bands differ.
    static func colour(_ image: VIPSImage) throws -> VIPSImage {
        let grey = try image.pixelBytes()
        var rgb = [UInt8](repeating: 0, count: grey.count * 3)
        for (i, v) in grey.enumerated() {
            rgb[i * 3] = v
            rgb[i * 3 + 1] = UInt8(Int(v) * 15 / 16)
            rgb[i * 3 + 2] = UInt8(Int(v) * 7 / 8)
        }
        return try VIPSImage.fromPixels(rgb, width: image.width, height: image.height, bands: 3)
    }
}
