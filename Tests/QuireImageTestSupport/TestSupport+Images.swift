import Foundation
import QuireTestSupport
import VipsBridge

/// Images synthesised in the test (DESIGN: test inputs are made where they are used).
extension TestSupport {
    /// An 8-bit image whose pixel (x, y) band b is `value(x, y, b)`.
    public static func image(width: Int, height: Int, bands: Int, _ value: (Int, Int, Int) -> UInt8) throws -> VIPSImage
    {
        var bytes = [UInt8](repeating: 0, count: width * height * bands)
        for y in 0..<height {
            for x in 0..<width {
                for b in 0..<bands { bytes[(y * width + x) * bands + b] = value(x, y, b) }
            }
        }
        return try VIPSImage.fromPixels(bytes, width: width, height: height, bands: bands)
    }

    /// Writes a 2x2 PNG whose image data chunk claims 1 GB to `path`: nothing of its picture can
    /// be read (libpng's `huge_IDAT.png` crasher, made in the test).
    public static func writePNGWithHugeIDAT(to path: String) throws {
        let good = path + ".good.png"
        defer { unlink(good) }
        let image = try TestSupport.image(width: 2, height: 2, bands: 3) { x, y, b in UInt8(x * 90 + y * 40 + b) }
        try image.save(to: good, options: .init(format: .png))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        guard let idat = (4..<bytes.count - 4).first(where: { bytes[$0..<$0 + 4].elementsEqual("IDAT".utf8) }) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        bytes.replaceSubrange(idat - 4..<idat, with: [0x3F, 0xFF, 0xFF, 0xFF])
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A colourful test card: gradients and a dark square, so orientation and colour errors show.
    public static func card(width: Int, height: Int, bands: Int = 3) throws -> VIPSImage {
        try image(width: width, height: height, bands: bands) { x, y, b in
            if x > width / 8 && x < width / 3 && y > height / 8 && y < height / 3 { return 20 }
            return UInt8(truncatingIfNeeded: b == 0 ? x * 255 / width : b == 1 ? y * 255 / height : 128 + (x + y) % 64)
        }
    }

    /// Writes `card` as a JPEG at `path`, cut to `fraction` of its bytes (a truncated file).
    public static func writeTruncatedJPEG(_ path: String, width: Int, height: Int, fraction: Double) throws {
        try card(width: width, height: height).save(to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: URL(fileURLWithPath: path))
    }

    /// Writes a `width` x `height` test picture (a gradient with a level that tells files apart).
    public static func writeImage(
        _ path: String, width: Int, height: Int, level: UInt8 = 128,
        format: VIPSImage.SaveFormat = .jpeg
    ) throws {
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

    /// The mean pixel value of a region of an image file.
    public static func mean(ofFile path: String, x: Int, y: Int, width: Int, height: Int) throws -> Double {
        try VIPSImage.load(file: path).cropped(x: x, y: y, width: width, height: height).average()
    }
}
