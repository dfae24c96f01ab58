import Foundation
import QuireKit
import Testing
import VipsBridge

/// A small OUT folder built in the test: page, preview and thumbnail images (left half in the
/// page's colour, right half in its `right` colour, so a crop that is shifted or mirrored shows)
/// and a layout.json encoded from a `LayoutReport`.
struct OutputFixture {
    struct PageSpec {
        var left: [Double]
        var right: [Double]
        var aspectRatio: Double
    }

    let url: URL
    let specs: [PageSpec]

    /// Distinct, well separated colours for page `i`.
    static func spec(_ i: Int, aspectRatio: Double) -> PageSpec {
        let palette: [[Double]] = [
            [220, 40, 40], [40, 180, 60], [40, 80, 220], [230, 200, 30],
            [160, 60, 200], [30, 200, 200], [240, 120, 20], [120, 120, 120]
        ]
        let left = palette[i % palette.count]
        return PageSpec(left: left, right: left.map { 255 - $0 }, aspectRatio: aspectRatio)
    }

    /// Writes the folder. `thumbBox` is the thumbnail box (longest side), `pageLong` the page's.
    static func make(
        aspectRatios: [Double], pageLong: Int = 480, previewLong: Int = 240, thumbBox: Int = 96,
        viewport: LayoutReport.Viewport = .init(width: 390, height: 844, stripHeight: 66)
    ) throws -> OutputFixture {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-kit-\(UUID().uuidString)")
        for sub in ["pages", "previews", "thumbs"] {
            try FileManager.default.createDirectory(
                at: url.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        var specs: [PageSpec] = []
        var pages: [LayoutReport.Page] = []
        for (i, aspect) in aspectRatios.enumerated() {
            let spec = spec(i, aspectRatio: aspect)
            specs.append(spec)
            let name = String(format: "%04d.jpg", i + 1)
            let (w, h) = size(aspect, long: pageLong)
            let page = try image(spec, width: w, height: h)
            try page.save(
                to: url.appendingPathComponent("pages/\(name)").path, options: .init(format: .jpeg, quality: 95))
            let (pw, ph) = size(aspect, long: previewLong)
            try page.resized(toWidth: pw, height: ph).save(
                to: url.appendingPathComponent("previews/\(name)").path,
                options: .init(format: .jpeg, quality: 95))
            let (tw, th) = size(aspect, long: thumbBox)
            try page.resized(toWidth: tw, height: th).save(
                to: url.appendingPathComponent("thumbs/\(name)").path,
                options: .init(format: .jpeg, quality: 95))
            let zero = LayoutReport.RectValue(.zero)
            pages.append(
                LayoutReport.Page(
                    index: i, source: "in/\(i).jpg", sourcePage: 0, orientation: 1, width: w, height: h,
                    aspectRatio: Double(w) / Double(h),
                    files: .init(page: "pages/\(name)", preview: "previews/\(name)", thumbnail: "thumbs/\(name)"),
                    pager: .init(frame: zero, mask: zero, snapOffset: 0),
                    strip: .init(frame: zero, focusedFrame: zero, snapOffset: 0)))
        }
        let report = LayoutReport(viewport: viewport, pages: pages, errors: [])
        try report.encoded().write(to: url.appendingPathComponent("layout.json"))
        return OutputFixture(url: url, specs: specs)
    }

    static func size(_ aspect: Double, long: Int) -> (Int, Int) {
        aspect >= 1
            ? (long, max(1, Int((Double(long) / aspect).rounded())))
            : (max(1, Int((Double(long) * aspect).rounded())), long)
    }

    static func image(_ spec: PageSpec, width: Int, height: Int) throws -> VIPSImage {
        let half = width / 2
        let left = try VIPSImage.solid(width: half, height: height, color: spec.left)
        let right = try VIPSImage.solid(width: width - half, height: height, color: spec.right)
        return try VIPSImage.joinedRow([left, right], spacing: 0, background: [0, 0, 0])
    }

    func folder() throws -> OutputFolder { try OutputFolder(url: url) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Pixel access for probes: decoded bytes of an image with its size and bands.
struct Pixels {
    let width: Int, height: Int, bands: Int
    let bytes: [UInt8]

    init(_ image: VIPSImage) throws {
        width = image.width
        height = image.height
        bands = image.bands
        bytes = try image.pixelBytes()
    }

    init(file: String) throws { try self.init(VIPSImage.load(file: file)) }

    /// Channel values at (x, y).
    subscript(x: Int, y: Int) -> [Double] {
        let start = (y * width + x) * bands
        return bytes[start..<start + bands].map(Double.init)
    }

    /// True when the pixel at (x, y) is within `tolerance` of `rgb` (and opaque, if it has alpha).
    func matches(_ x: Int, _ y: Int, _ rgb: [Double], tolerance: Double = 24) -> Bool {
        let p = self[x, y]
        if bands == 4 && p[3] < 250 { return false }
        return zip(p.prefix(3), rgb).allSatisfy { abs($0 - $1) <= tolerance }
    }

    /// Alpha at (x, y) (255 when there is no alpha band).
    func alpha(_ x: Int, _ y: Int) -> Double { bands == 4 || bands == 2 ? self[x, y][bands - 1] : 255 }
}

extension Pixels: CustomTestStringConvertible {
    /// Keeps failure messages short (the bytes are not printed).
    var testDescription: String { "\(width)x\(height)x\(bands) pixels" }
}
