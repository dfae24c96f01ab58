import Foundation
import VipsBridge

/// Shared helpers for the imaging tests: temporary folders, the repository root, and images
/// and files synthesised in the test.
enum TestSupport {
    /// The repository root, found from this file's path.
    static let repoRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

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
}
