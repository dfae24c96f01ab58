import Foundation

/// Where the tests find things: the repository, its fixtures, `../shared/data`, temporary
/// folders and installed tools. One copy for every test target (they each had their own).
public enum TestSupport {
    /// The repository root, found from this file's path (Tests/QuireTestSupport/ is two below it).
    public static let repoRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/Fixtures`: the small committed inputs (fuzz seeds, hOCR, JPEG samplings).
    public static let fixtures: URL = repoRoot.appendingPathComponent("Tests/Fixtures")

    /// `../shared/data` beside the repository: other projects' images, present on the team's
    /// machines and CI, absent on a plain clone (tests that read it skip).
    public static let sharedData: URL = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/data")

    /// ../shared/data/real: other projects' test images, when they are there.
    public static let realData: URL = sharedData.appendingPathComponent("real")

    /// Paths of every JPEG under `realData`, sorted (empty when it is absent).
    public static func realJPEGs() -> [String] {
        (FileManager.default.enumerator(atPath: realData.path)?.compactMap { $0 as? String } ?? [])
            .filter { ["jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
            .map { realData.appendingPathComponent($0).path }
    }

    /// A fresh empty folder under the system's temporary folder, named after the test.
    public static func temporaryFolder(_ name: String = #function) throws -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = NSTemporaryDirectory() + "quire-tests-\(safe)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The path of `name` on PATH, nil when it is not installed (tests that compare with it skip).
    public static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// A product built beside the test bundle (`quire`, `quire-floor`), else in this checkout's
    /// .build/debug or .build/release; nil when none is built.
    public static func builtProduct(_ name: String) -> String? {
        let candidates =
            [
                URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
                    .path,
                Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent(name).path
            ] + ["debug", "release"].map { repoRoot.appendingPathComponent(".build/\($0)/\(name)").path }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Writes `bytes` to `path`.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A 2x2 24-bit BMP (a format libvips 8.14 can only open through ImageMagick, which Quire blocks).
    public static var bmp: [UInt8] {
        let pixels: [UInt8] = [0, 0, 255, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0]
        let size = 54 + pixels.count
        func le32(_ v: Int) -> [UInt8] {
            [UInt8(v & 255), UInt8((v >> 8) & 255), UInt8((v >> 16) & 255), UInt8((v >> 24) & 255)]
        }
        var b: [UInt8] = [0x42, 0x4D] + le32(size) + le32(0) + le32(54)
        b +=
            le32(40) + le32(2) + le32(2) + [1, 0, 24, 0] + le32(0) + le32(pixels.count) + le32(2835) + le32(2835)
            + le32(0) + le32(0)
        return b + pixels
    }

    /// A small valid PDF whose pages have the given MediaBox sizes (points) and draw one black
    /// square given in PDF user space (y up) on each page.
    public static func pdf(pages: [(width: Int, height: Int, square: (x: Int, y: Int, side: Int))]) -> Data {
        var objects: [String] = []
        let kids = pages.indices.map { "\(3 + $0) 0 R" }.joined(separator: " ")
        objects.append("<< /Type /Catalog /Pages 2 0 R >>")
        objects.append("<< /Type /Pages /Kids [\(kids)] /Count \(pages.count) >>")
        let firstContent = 3 + pages.count
        for (i, page) in pages.enumerated() {
            objects.append(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(page.width) \(page.height)] /Contents \(firstContent + i) 0 R >>"
            )
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
}
