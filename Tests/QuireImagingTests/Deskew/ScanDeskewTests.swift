import Foundation
import Testing
@testable import QuireImaging
@testable import QuirePageAnalysis
import VipsBridge
import QuireTestSupport

/// Synthesised scans: pages drawn in the test, turned by known angles with libvips and laid on
/// a grey scanner lid, then estimated, deskewed and trimmed.
@Suite struct ScanDeskewTests {
    // MARK: Synthesis

    /// A grey canvas (`lid`) holding a paper-white page at `page`; `draw` marks the page.
    struct Canvas {
        var width: Int, height: Int
        var pixels: [UInt8]
        init(width: Int, height: Int, lid: UInt8, page: (x: Int, y: Int, w: Int, h: Int), paper: UInt8 = 245) {
            self.width = width
            self.height = height
            pixels = [UInt8](repeating: lid, count: width * height)
            fill(x: page.x, y: page.y, w: page.w, h: page.h, value: paper)
        }
        mutating func fill(x: Int, y: Int, w: Int, h: Int, value: UInt8) {
            for row in max(0, y)..<min(height, y + h) {
                for col in max(0, x)..<min(width, x + w) { pixels[row * width + col] = value }
            }
        }
        func image() throws -> VIPSImage {
            try VIPSImage.fromPixels(pixels, width: width, height: height, bands: 1)
        }
    }

    /// Rows of dark rectangles ("words") inside `area`, in paragraphs.
    static func drawText(
        _ canvas: inout Canvas, area: (x: Int, y: Int, w: Int, h: Int), seed: UInt64,
        lineHeight: Int = 14, lineGap: Int = 12
    ) {
        var rng = SplitMix64(seed: seed)
        var y = area.y
        var line = 0
        while y + lineHeight <= area.y + area.h {
            var x = area.x
            let lineEnd = line % 7 == 6 ? area.x + area.w / 2 : area.x + area.w  // paragraph ends short
            while true {
                let w = rng.int(lineHeight * 2...lineHeight * 9)
                if x + w > lineEnd { break }
                canvas.fill(x: x, y: y, w: w, h: lineHeight, value: UInt8(rng.int(20...60)))
                x += w + rng.int(lineHeight / 2...lineHeight)
            }
            y += lineHeight + lineGap + (line % 7 == 6 ? lineHeight * 2 : 0)
            line += 1
        }
    }

    /// A text page of `size` with margins, centred on a lid `margin` pixels wider on each side.
    static func textScan(
        pageWidth: Int = 1000, pageHeight: Int = 1300, margin: Int = 60, lid: UInt8 = 90,
        seed: UInt64 = 1
    ) -> Canvas {
        var c = Canvas(
            width: pageWidth + 2 * margin, height: pageHeight + 2 * margin, lid: lid,
            page: (margin, margin, pageWidth, pageHeight))
        drawText(&c, area: (margin + 90, margin + 110, pageWidth - 180, pageHeight - 220), seed: seed)
        return c
    }

    /// Turns an image so its content leans `degrees` counter-clockwise (the skew convention).
    static func skewed(_ image: VIPSImage, degrees: Double, lid: Double) throws -> VIPSImage {
        try image.rotated(degrees: -degrees, background: [lid], interpolation: .bicubic)
    }

    static func estimate(_ image: VIPSImage) throws -> SkewEstimate {
        let small = try ScanDeskew.smallGray(image, longSide: ScanDeskew.analysisLongSide)
        return ScanDeskew.estimateSkew(gray: small.gray, width: small.width, height: small.height)
    }

    // MARK: Estimation

    @Test(arguments: [-44.0, -32.5, -15.0, -11.3, -6.25, -2.4, -0.7, 0.0, 0.15, 1.85, 4.6, 9.2, 13.7, 15.0, 27.8, 40.0])
    func textPageWithinATenthOfADegree(degrees: Double) throws {
        let page = try Self.textScan(seed: UInt64(abs(degrees * 100)) + 7).image()
        let estimate = try Self.estimate(try Self.skewed(page, degrees: degrees, lid: 90))
        #expect(abs(estimate.degrees - degrees) <= 0.1, "estimated \(estimate.degrees) for \(degrees)")
        #expect(estimate.confidence >= 0.3)
    }

    /// A page scanned sideways (text lines running up the page) is measured on its columns:
    /// the skew is the same angle once the page is turned upright, and a straight one is 0.
    @Test(arguments: [0.0, 1.3, -4.7])
    func sidewaysPageIsMeasuredOnItsColumns(degrees: Double) throws {
        let page = try Self.textScan(seed: 11).image().rotated(quarterTurns: 1)
        let estimate = try Self.estimate(try Self.skewed(page, degrees: degrees, lid: 90))
        #expect(abs(estimate.degrees - degrees) <= 0.1, "estimated \(estimate.degrees) for \(degrees)")
        #expect(estimate.confidence >= 0.3)
    }

    /// An open book whose two pages lie at different angles has no one angle: turning it by
    /// either page's would tilt the other further, so it is left alone and said so. Two pages
    /// at the same angle are one angle.
    @Test(arguments: [(0.0, 2.6, false), (1.8, 1.8, true), (-0.8, -0.6, true)])
    func openBookWithTwoAngles(left: Double, right: Double, turned: Bool) throws {
        let pages = try [(left, 3 as UInt64), (right, 5)].map { degrees, seed in
            try Self.skewed(Self.textScan(margin: 10, lid: 245, seed: seed).image(), degrees: degrees, lid: 245)
                .cropped(x: 20, y: 20, width: 1000, height: 1300)
        }
        let spread = try VIPSImage.joinedRow(pages, spacing: 0, background: [245])
        let estimate = try Self.estimate(spread)
        if turned {
            #expect(abs(estimate.degrees - (left + right) / 2) <= 0.15, "estimated \(estimate.degrees)")
            #expect(estimate.confidence >= SkewEstimator.minimumConfidence)
        } else {
            #expect(
                estimate.degrees == 0 && estimate.confidence < SkewEstimator.minimumConfidence,
                "estimated \(estimate.degrees) at \(estimate.confidence)")
        }
    }

    @Test func blankPageIsZeroWithLowConfidence() throws {
        var blank = Canvas(width: 1100, height: 1400, lid: 90, page: (50, 50, 1000, 1300))
        // A few specks of dust, as on a real blank scan.
        var rng = SplitMix64(seed: 42)
        for _ in 0..<25 { blank.fill(x: rng.int(100...1000), y: rng.int(100...1300), w: 2, h: 2, value: 80) }
        let flat = ScanDeskew.estimateSkew(gray: [UInt8](repeating: 250, count: 800 * 1000), width: 800, height: 1000)
        #expect(flat == SkewEstimate(degrees: 0, confidence: 0))
        let plain = Canvas(width: 1000, height: 1300, lid: 245, page: (0, 0, 1000, 1300))
        for (canvas, lid) in [(blank, 90.0), (plain, 245.0)] {
            let estimate = try Self.estimate(try Self.skewed(try canvas.image(), degrees: 3, lid: lid))
            #expect(estimate.degrees == 0)
            #expect(estimate.confidence < SkewEstimator.minimumConfidence)
        }
    }

    @Test func pageWithAPicture() throws {
        // A large "photo" (blotchy random blocks) with a two-line caption and no other text.
        var c = Canvas(width: 1120, height: 1420, lid: 70, page: (60, 60, 1000, 1300))
        var rng = SplitMix64(seed: 9)
        for by in stride(from: 200, to: 900, by: 20) {
            for bx in stride(from: 160, to: 960, by: 20) {
                c.fill(x: bx, y: by, w: 20, h: 20, value: UInt8(rng.int(40...200)))
            }
        }
        Self.drawText(&c, area: (160, 940, 800, 60), seed: 3)
        for degrees in [-3.3, 1.1, 7.5] {
            let estimate = try Self.estimate(try Self.skewed(try c.image(), degrees: degrees, lid: 70))
            #expect(abs(estimate.degrees - degrees) <= 0.15, "estimated \(estimate.degrees) for \(degrees)")
        }
    }

    /// Harder pages: three lines only, salt-and-pepper noise, a shadow across the page, and
    /// two columns whose baselines do not line up.
    @Test(arguments: ["sparse", "noisy", "shadow", "columns"], [-8.3, 2.15])
    func harderPages(kind: String, degrees: Double) throws {
        var c = Canvas(width: 1120, height: 1420, lid: 235, page: (60, 60, 1000, 1300), paper: 252)
        var rng = SplitMix64(seed: 77)
        switch kind {
        case "sparse":
            Self.drawText(&c, area: (160, 500, 800, 120), seed: 4, lineHeight: 16, lineGap: 24)
        case "columns":
            Self.drawText(&c, area: (150, 150, 380, 1100), seed: 5, lineHeight: 12, lineGap: 14)
            Self.drawText(&c, area: (590, 161, 380, 1100), seed: 6, lineHeight: 12, lineGap: 17)
        default:
            Self.drawText(&c, area: (150, 150, 820, 1100), seed: 6)
        }
        if kind == "noisy" {
            for _ in 0..<20_000 {
                c.fill(x: rng.int(0...1119), y: rng.int(0...1419), w: 1, h: 1, value: rng.int(0...1) == 0 ? 0 : 255)
            }
        }
        if kind == "shadow" {  // darker towards the left, as along a book's spine
            for y in 0..<c.height {
                for x in 0..<c.width {
                    let f = 0.45 + 0.55 * min(1, Double(x) / 600)
                    c.pixels[y * c.width + x] = UInt8(Double(c.pixels[y * c.width + x]) * f)
                }
            }
        }
        let estimate = try Self.estimate(try Self.skewed(try c.image(), degrees: degrees, lid: 235))
        #expect(abs(estimate.degrees - degrees) <= 0.1, "\(kind): estimated \(estimate.degrees) for \(degrees)")
    }

    @Test func smallAndDegenerateInputsAreSafe() {
        #expect(ScanDeskew.estimateSkew(gray: [], width: 0, height: 0) == .none)
        #expect(ScanDeskew.estimateSkew(gray: [1, 2, 3], width: 100, height: 100) == .none)
        #expect(ScanDeskew.estimateSkew(gray: [UInt8](repeating: 0, count: 64), width: 8, height: 8) == .none)
    }

    // MARK: Deskew and trim

    @Test func deskewTurnsBackAndTrimReturnsThePageRect() throws {
        let scan = try Self.skewed(try Self.textScan(seed: 5).image(), degrees: 4.2, lid: 90)
        let estimate = try Self.estimate(scan)
        let (page, crop) = try ScanDeskew.deskewAndTrim(scan, skew: estimate)
        let rect = try #require(crop)
        // The page is 1000 x 1300; bilinear edges may add or lose a pixel or two.
        #expect(abs(rect.width - 1000) <= 3 && abs(rect.height - 1300) <= 3, "crop \(rect)")
        #expect(page.width == Int(rect.width) && page.height == Int(rect.height))
        // Straight now, and no lid left along the edges (paper is 245, lid 90).
        let again = try Self.estimate(page)
        #expect(abs(again.degrees) <= 0.1, "after deskew: \(again.degrees)")
        let px = try page.pixelBytes()
        let w = page.width, h = page.height
        func mean(_ indices: [Int]) -> Double { Double(indices.reduce(0) { $0 + Int(px[$1]) }) / Double(indices.count) }
        let inset = 3
        #expect(mean((0..<w).map { inset * w + $0 }) > 225)
        #expect(mean((0..<w).map { (h - 1 - inset) * w + $0 }) > 225)
        #expect(mean((0..<h).map { $0 * w + inset }) > 225)
        #expect(mean((0..<h).map { $0 * w + w - 1 - inset }) > 225)
    }

    @Test func trimFindsAnUprightPageOnAColourLid() throws {
        // Colour scan, no skew: a cream page at (70, 40) 900 x 1200 on a dark blue lid.
        let (w, h) = (1060, 1300)
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let onPage = x >= 70 && x < 970 && y >= 40 && y < 1240
                let c: [UInt8] =
                    onPage
                    ? (y % 40 < 12 && x > 150 && x < 900 && y > 120 ? [30, 30, 30] : [250, 246, 235])
                    : [20, 30, 70]
                rgb.replaceSubrange((y * w + x) * 3..<((y * w + x) * 3 + 3), with: c)
            }
        }
        let scan = try VIPSImage.fromPixels(rgb, width: w, height: h, bands: 3)
        let (page, crop) = try ScanDeskew.deskewAndTrim(scan, skew: SkewEstimate(degrees: 0, confidence: 1))
        let rect = try #require(crop)
        #expect(abs(rect.minX - 70) <= 1 && abs(rect.minY - 40) <= 1, "crop \(rect)")
        #expect(abs(rect.maxX - 970) <= 1 && abs(rect.maxY - 1240) <= 1, "crop \(rect)")
        #expect(page.bands == 3 && page.width == Int(rect.width))
    }

    @Test func rgbaScanKeepsItsBandsAndTrims() throws {
        let grey = try Self.skewed(
            try Self.textScan(pageWidth: 700, pageHeight: 900, seed: 8).image(),
            degrees: -2.5, lid: 90)
        let px = try grey.pixelBytes()
        var rgba = [UInt8](repeating: 255, count: px.count * 4)
        for i in px.indices { rgba[i * 4] = px[i]; rgba[i * 4 + 1] = px[i]; rgba[i * 4 + 2] = px[i] }
        let scan = try VIPSImage.fromPixels(rgba, width: grey.width, height: grey.height, bands: 4)
        let skew = try Self.estimate(scan)
        #expect(abs(skew.degrees + 2.5) <= 0.1)
        let (page, crop) = try ScanDeskew.deskewAndTrim(scan, skew: skew)
        let rect = try #require(crop)
        #expect(abs(rect.width - 700) <= 3 && abs(rect.height - 900) <= 3, "crop \(rect)")
        #expect(page.bands == 4)
    }

    @Test func pageRunningOffTheGlassGetsPaperCorners() throws {
        // Turned 4 degrees, then 70 px cut off the left: one page corner is missing from the scan.
        let turned = try Self.skewed(try Self.textScan(seed: 13).image(), degrees: 4, lid: 90)
        let scan = try turned.cropped(x: 70, y: 0, width: turned.width - 70, height: turned.height)
        let (page, crop) = try ScanDeskew.deskewAndTrim(scan, skew: SkewEstimate(degrees: 4, confidence: 1))
        _ = try #require(crop)
        let w = page.width, h = page.height
        for (x, y) in [(0, 0), (w - 6, 0), (0, h - 6), (w - 6, h - 6)] {
            let block = try page.cropped(x: x, y: y, width: 6, height: 6).pixelBytes()
            let mean = Double(block.reduce(0) { $0 + Int($1) }) / Double(block.count)
            #expect(mean > 200, "corner (\(x), \(y)) mean \(mean): lid left in the page")
        }
    }

    @Test func pageInACornerOfTheGlass() throws {
        // The page lies against the top-left corner: the lid shows on the right and bottom only.
        var c = Canvas(width: 1150, height: 1450, lid: 60, page: (0, 0, 1000, 1300))
        Self.drawText(&c, area: (90, 110, 820, 1080), seed: 21)
        let (page, crop) = try ScanDeskew.deskewAndTrim(try c.image(), skew: SkewEstimate(degrees: 0, confidence: 1))
        let rect = try #require(crop)
        #expect(rect.minX == 0 && rect.minY == 0, "crop \(rect)")
        #expect(abs(rect.width - 1000) <= 1 && abs(rect.height - 1300) <= 1, "crop \(rect)")
        #expect(page.width == Int(rect.width))
    }

    @Test func pageWithoutLidIsNotTrimmed() throws {
        // Text straight to the frame's edge on white: nothing to trim, however it is turned.
        var c = Canvas(width: 1000, height: 1300, lid: 245, page: (0, 0, 1000, 1300))
        Self.drawText(&c, area: (80, 80, 840, 1140), seed: 11)
        let image = try c.image()
        let (same, crop) = try ScanDeskew.deskewAndTrim(image, skew: SkewEstimate(degrees: 0, confidence: 1))
        #expect(crop == nil)
        #expect(same.width == 1000 && same.height == 1300)
        let skewed = try Self.skewed(image, degrees: 2, lid: 245)
        let turned = try ScanDeskew.deskewAndTrim(skewed, skew: SkewEstimate(degrees: 2, confidence: 1))
        // Turned inside its own size: the grown rotation canvas is cut back to the centre.
        #expect(turned.image.width == skewed.width && turned.image.height == skewed.height)
        #expect(turned.crop.map { $0.width == Double(skewed.width) && $0.height == Double(skewed.height) } == true)
        // The corners the rotation uncovers are filled with the surrounding paper, not black.
        let corner = try turned.image.cropped(x: 0, y: 0, width: 4, height: 4).pixelBytes()
        #expect(corner.allSatisfy { abs(Int($0) - 245) <= 3 }, "corner \(corner)")
    }

    /// Where a point of an upright canvas lands once `skewed` turns it by `degrees`.
    static func skewedPoint(_ p: Point, degrees: Double, from size: (Int, Int)) -> Point {
        // `skewed` turns clockwise by -degrees.
        AffineTransform.turn(degrees: -degrees, width: Double(size.0), height: Double(size.1)).transform.apply(to: p)
    }

    /// An open book on black cloth: the page stack shows as a light fringe below the page and a
    /// bookmark sticks out of its side, so the lid cannot be told from the page by colour runs
    /// alone (too much light detail outside any box).
    static func bookOnCloth(degrees: Double) throws -> (scan: VIPSImage, page: Quad) {
        var c = textScan(pageWidth: 1000, pageHeight: 1300, margin: 120, lid: 15, seed: 17)
        c.fill(x: 150, y: 1465, w: 960, h: 30, value: 200)  // the page stack's edge below
        c.fill(x: 10, y: 500, w: 60, h: 300, value: 235)  // a bookmark on the left
        let scan = try skewed(try c.image(), degrees: degrees, lid: 15)
        let corners = [(120.0, 120.0), (1120.0, 120.0), (1120.0, 1420.0), (120.0, 1420.0)].map {
            skewedPoint(Point(x: $0.0, y: $0.1), degrees: degrees, from: (c.width, c.height))
        }
        return (scan, Quad(corners: corners)!)
    }

    @Test func bookOnClothIsTrimmedToTheOutlineTheDetectorFound() throws {
        let (scan, outline) = try Self.bookOnCloth(degrees: 1.5)
        let skew = SkewEstimate(degrees: 1.5, confidence: 1)
        // Colour runs alone find no lid to trim here: the frame is kept.
        let alone = try ScanDeskew.deskewAndTrim(scan, skew: skew)
        #expect(alone.image.width >= 1200, "trimmed without the outline: \(String(describing: alone.crop))")
        let (page, crop) = try ScanDeskew.deskewAndTrim(scan, skew: skew, page: outline)
        let rect = try #require(crop)
        #expect(abs(rect.width - 1000) <= 4 && abs(rect.height - 1300) <= 4, "crop \(rect)")
        // Turned the right way: no wedge of black cloth along any edge.
        let px = try page.pixelBytes()
        let (w, h) = (page.width, page.height)
        func mean(_ indices: [Int]) -> Double { Double(indices.reduce(0) { $0 + Int(px[$1]) }) / Double(indices.count) }
        for line in [
            (0..<w).map { 4 * w + $0 }, (0..<w).map { (h - 5) * w + $0 },
            (0..<h).map { $0 * w + 4 }, (0..<h).map { $0 * w + w - 5 }
        ] {
            #expect(mean(line) > 225, "edge mean \(mean(line))")
        }
    }

    @Test func outlineWithPaperAroundItIsNotTrimmedTo() throws {
        // The detector's quad is a large table on the page, not the page: paper lies around it.
        let (scan, _) = try Self.bookOnCloth(degrees: 1.5)
        let (w, h) = (1240, 1540)
        let table = Quad(
            corners: [(250.0, 280.0), (1000.0, 280.0), (1000.0, 1300.0), (250.0, 1300.0)].map {
                Self.skewedPoint(Point(x: $0.0, y: $0.1), degrees: 1.5, from: (w, h))
            })!
        let (page, _) = try ScanDeskew.deskewAndTrim(scan, skew: SkewEstimate(degrees: 1.5, confidence: 1), page: table)
        #expect(page.width >= 1200 && page.height >= 1500, "cut to \(page.width) x \(page.height)")
    }

    /// A text page cut from the middle of a crooked sheet: no lid, no page edge, text to the frame.
    static func frameFillingScan(degrees: Double) throws -> VIPSImage {
        var c = Canvas(width: 1400, height: 1800, lid: 245, page: (0, 0, 1400, 1800))
        Self.drawText(&c, area: (40, 40, 1320, 1720), seed: 5)
        let skewed = try Self.skewed(try c.image(), degrees: degrees, lid: 245)
        return try skewed.cropped(
            x: (skewed.width - 1000) / 2, y: (skewed.height - 1300) / 2, width: 1000, height: 1300)
    }

    @Test(arguments: [-3.2, 1.4, 12.5])
    func pageFillingTheFrameIsDeskewedAndKeepsItsSize(degrees: Double) throws {
        let image = try Self.frameFillingScan(degrees: degrees)
        let (out, record) = try PageCorrector(options: .init()).correct(image, userQuad: nil)
        #expect(record.kind == .deskew)
        #expect(abs((record.skewDegrees ?? 0) - degrees) <= 0.1, "skew \(String(describing: record.skewDegrees))")
        #expect(out.width == 1000 && out.height == 1300)
        // Corners brought in from outside the scan are paper, not black.
        let corner = try out.displayReady(keepGray: true).cropped(x: 0, y: 0, width: 3, height: 3).pixelBytes()
        #expect(corner.allSatisfy { $0 > 200 }, "corner \(corner)")
        // Straight afterwards.
        #expect(abs(try Self.estimate(out).degrees) <= 0.1)
    }

    @Test func frameFillingPictureIsLeftAlone() throws {
        // Smooth shading and a few blobs, no text lines: too little to go on, kept as it is.
        var c = Canvas(width: 900, height: 700, lid: 128, page: (0, 0, 900, 700))
        for y in 0..<700 { for x in 0..<900 { c.pixels[y * 900 + x] = UInt8((x * 200 / 900 + y * 50 / 700) % 256) } }
        c.fill(x: 200, y: 150, w: 180, h: 260, value: 30)
        c.fill(x: 560, y: 300, w: 140, h: 90, value: 220)
        let image = try Self.skewed(try c.image(), degrees: 4, lid: 128)
        let cut = try image.cropped(x: 60, y: 60, width: 800, height: 600)
        let (_, record) = try PageCorrector(options: .init()).correct(cut, userQuad: nil)
        // Never turned by a guess (the dark box may still be taken for a page and trimmed to).
        #expect(record.kind != .deskew || abs(record.skewDegrees ?? 0) < 0.005, "\(record)")
    }

    @Test func fillMatchesTheImageBands() {
        #expect(ScanDeskew.fill([10, 20, 30], forBands: 3, alpha: false) == [10, 20, 30])
        #expect(ScanDeskew.fill([10, 20, 30], forBands: 1, alpha: false) == [20])
        #expect(ScanDeskew.fill([50], forBands: 4, alpha: true) == [50, 50, 50, 255])
    }

    @Test func longestRunBridgesSmallGaps() {
        let v: [Double] = [0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1]
        #expect(ScanTrim.longestRun(v, level: 0.5, gap: 1) == 1..<7)
        #expect(ScanTrim.longestRun(v, level: 0.5, gap: 0) == 4..<7)
        #expect(ScanTrim.longestRun([0, 0], level: 0.5, gap: 3) == nil)
    }

    // MARK: Shared data

    static let dataRoot: URL = TestSupport.sharedData
    static let scansTruth = dataRoot.appendingPathComponent("synthetic/scans/truth.json")

    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: scansTruth.path),
            "../shared/data/synthetic/scans is absent"))
    func syntheticScansMeetTheTargets() throws {
        let data = try Data(contentsOf: Self.scansTruth)
        let truth = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        var errors: [Double] = []
        for (name, entry) in truth.sorted(by: { $0.key < $1.key }) {
            guard let skew = entry["skew_deg"] as? Double else { continue }
            let path = Self.scansTruth.deletingLastPathComponent().appendingPathComponent(name).path
            let image = try VIPSImage.thumbnail(
                file: path, width: ScanDeskew.analysisLongSide,
                height: ScanDeskew.analysisLongSide)
            let estimate = try Self.estimate(image)
            errors.append(abs(estimate.degrees - skew))
            #expect(abs(estimate.degrees - skew) <= 0.5, "\(name): \(estimate.degrees) vs \(skew)")
        }
        try #require(!errors.isEmpty)
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean <= 0.1, "mean abs error \(mean) over \(errors.count) scans")
    }

    @Test(
        .enabled(
            if: FileManager.default.fileExists(
                atPath: dataRoot.appendingPathComponent("real/ocrmypdf-test-resources/skew.pdf").path),
            "../shared/data/real/ocrmypdf-test-resources is absent"))
    func ocrmypdfSkewedPagesMeetTheTargets() throws {
        let folder = Self.dataRoot.appendingPathComponent("real/ocrmypdf-test-resources")
        // Exact skews from the PDFs' content matrices (see real/SOURCES.md).
        let cases = [
            ("skew.pdf", atan2(-19.9187622, 611.6731567) * 180 / .pi),
            ("rotated_skew.pdf", atan2(611.2716064, -29.8081055) * 180 / .pi - 90)
        ]
        for (name, skew) in cases {
            let image = try VIPSImage.load(file: folder.appendingPathComponent(name).path, options: .init(dpi: 150))
            let estimate = try Self.estimate(image)
            #expect(abs(estimate.degrees - skew) <= 0.1, "\(name): \(estimate.degrees) vs \(skew)")
        }
    }
}
