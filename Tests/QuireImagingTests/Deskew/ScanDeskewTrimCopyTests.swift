import Testing
import VipsBridge

@testable import QuireImaging

/// The trim copy made from the detection copy the analysis already holds gives the page the
/// trim copy made again from the full-size page gave: the same crop and the same bytes, on
/// generated skewed scans with a lid around the page and on one filling the frame.
@Suite struct ScanDeskewTrimCopyTests {
    @Test(arguments: [(0.0, 90.0), (1.7, 90.0), (-4.2, 60.0), (7.5, 245.0)])
    func trimmedPageFromTheDetectionCopyIsTheSame(degrees: Double, lid: Double) throws {
        let page = try ScanDeskewTests.textScan(
            pageWidth: 2000, pageHeight: 2600, lid: UInt8(lid), seed: UInt64(abs(degrees * 10)) + 3
        ).image()
        let scan = try ScanDeskewTests.skewed(page, degrees: degrees, lid: lid).materialized()
        let copy = try DecodedFrame(upright: scan).detectionCopy()
        try #require(max(copy.width, copy.height) >= ScanDeskew.trimLongSide)  // the copy is used
        let skew = try ScanDeskewTests.estimate(scan)
        let old = try ScanDeskew.deskewAndTrim(scan, skew: skew)
        let new = try ScanDeskew.deskewAndTrim(scan, skew: skew, copy: copy)
        #expect(new.crop == old.crop)
        #expect(new.image.width == old.image.width && new.image.height == old.image.height)
        let differing = zip(try new.image.pixelBytes(), try old.image.pixelBytes()).lazy.filter { $0 != $1 }.count
        #expect(differing == 0)
    }
}
