import Foundation
import QuireKit
import VipsBridge

/// Helpers for the batch tests: folders, synthesised inputs and the repository root.
enum TestSupport {
    /// The repository root, found from this file's path.
    static let repoRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh empty folder under the system's temporary folder.
    static func temporaryFolder(_ name: String = #function) throws -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = NSTemporaryDirectory() + "quire-kit-\(safe)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes a `width` x `height` test picture (a gradient with a level that tells files apart).
    static func writeImage(_ path: String, width: Int, height: Int, level: UInt8 = 128, format: VIPSImage.SaveFormat = .jpeg) throws {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                bytes[i] = level
                bytes[i + 1] = UInt8((x * 255) / max(1, width - 1))
                bytes[i + 2] = UInt8((y * 255) / max(1, height - 1))
            }
        }
        try VIPSImage.fromPixels(bytes, width: width, height: height, bands: 3)
            .save(to: path, options: .init(format: format, quality: 90))
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A 2x2 24-bit BMP (a format libvips 8.14 can only open through ImageMagick, which Quire blocks).
    static var bmp: [UInt8] {
        let pixels: [UInt8] = [0, 0, 255, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0]
        let size = 54 + pixels.count
        func le32(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8((v >> 8) & 255), UInt8((v >> 16) & 255), UInt8((v >> 24) & 255)] }
        var b: [UInt8] = [0x42, 0x4D] + le32(size) + le32(0) + le32(54)
        b += le32(40) + le32(2) + le32(2) + [1, 0, 24, 0] + le32(0) + le32(pixels.count) + le32(2835) + le32(2835) + le32(0) + le32(0)
        return b + pixels
    }
}
