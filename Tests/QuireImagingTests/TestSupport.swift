import Foundation
import VipsBridge

/// Shared helpers for the imaging tests: temporary folders, the repository root, and images
/// and files synthesised in the test.
enum TestSupport {
    /// The repository root, found from this file's path.
    static let repoRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The path of `name` on PATH, nil when it is not installed (tests that compare with it skip).
    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A fresh empty folder under the system's temporary folder.
    static func temporaryFolder(_ name: String = #function) throws -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = NSTemporaryDirectory() + "quire-tests-\(safe)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// An 8-bit image whose pixel (x, y) band b is `value(x, y, b)`.
    static func image(width: Int, height: Int, bands: Int, _ value: (Int, Int, Int) -> UInt8) throws -> VIPSImage {
        var bytes = [UInt8](repeating: 0, count: width * height * bands)
        for y in 0..<height {
            for x in 0..<width {
                for b in 0..<bands { bytes[(y * width + x) * bands + b] = value(x, y, b) }
            }
        }
        return try VIPSImage.fromPixels(bytes, width: width, height: height, bands: bands)
    }

    /// A small valid PDF whose pages have the given MediaBox sizes (points) and draw one black
    /// square given in PDF user space (y up) on each page.
    static func pdf(pages: [(width: Int, height: Int, square: (x: Int, y: Int, side: Int))]) -> Data {
        var objects: [String] = []
        let kids = pages.indices.map { "\(3 + $0) 0 R" }.joined(separator: " ")
        objects.append("<< /Type /Catalog /Pages 2 0 R >>")
        objects.append("<< /Type /Pages /Kids [\(kids)] /Count \(pages.count) >>")
        let firstContent = 3 + pages.count
        for (i, page) in pages.enumerated() {
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(page.width) \(page.height)] /Contents \(firstContent + i) 0 R >>")
        }
        for page in pages {
            let stream = "0 0 0 rg \(page.square.x) \(page.square.y) \(page.square.side) \(page.square.side) re f"
            objects.append("<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream")
        }
        var text = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (i, body) in objects.enumerated() {
            offsets.append(text.utf8.count)
            text += "\(i + 1) 0 obj\n\(body)\nendobj\n"
        }
        let xref = text.utf8.count
        text += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets {
            let digits = String(offset)
            text += String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"
        }
        text += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(text.utf8)
    }

    /// The mean pixel value of a region of an image file.
    static func mean(ofFile path: String, x: Int, y: Int, width: Int, height: Int) throws -> Double {
        try VIPSImage.load(file: path).cropped(x: x, y: y, width: width, height: height).average()
    }

    /// A colourful JPEG test card: gradients and a dark square, so orientation and colour
    /// errors show.
    static func card(width: Int, height: Int, bands: Int = 3) throws -> VIPSImage {
        try image(width: width, height: height, bands: bands) { x, y, b in
            if x > width / 8 && x < width / 3 && y > height / 8 && y < height / 3 { return 20 }
            return UInt8(truncatingIfNeeded: b == 0 ? x * 255 / width : b == 1 ? y * 255 / height : 128 + (x + y) % 64)
        }
    }

    /// Writes `card` as a JPEG at `path`, cut to `fraction` of its bytes (a truncated file).
    static func writeTruncatedJPEG(_ path: String, width: Int, height: Int, fraction: Double) throws {
        try card(width: width, height: height).save(to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: URL(fileURLWithPath: path))
    }

    /// ../shared/data/real: other projects' test images, when they are there.
    static let realData = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/data/real")

    /// Paths of every JPEG under `realData`, sorted (empty when it is absent).
    static func realJPEGs() -> [String] {
        (FileManager.default.enumerator(atPath: realData.path)?.compactMap { $0 as? String } ?? [])
            .filter { ["jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
            .map { realData.appendingPathComponent($0).path }
    }
}
