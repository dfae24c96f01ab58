import Foundation
import Testing
import VipsBridge

@Suite struct VIPSImageComposeTests {
    @Test func solidCanvasHasTheColour() throws {
        let image = try VIPSImage.solid(width: 5, height: 3, color: [10, 20, 30, 40])
        #expect(image.width == 5 && image.height == 3 && image.bands == 4 && image.hasAlpha)
        #expect(Array(try image.pixelBytes().prefix(8)) == [10, 20, 30, 40, 10, 20, 30, 40])
        #expect(throws: VIPSError.self) { try VIPSImage.solid(width: 0, height: 3, color: [0, 0, 0]) }
    }

    @Test func compositeOverBlendsByAlphaAtTheGivenPositions() throws {
        let base = try VIPSImage.solid(width: 10, height: 4, color: [0, 0, 0, 255])
        let red = try VIPSImage.solid(width: 2, height: 2, color: [255, 0, 0]).rgba()
        let halfBlue = try VIPSImage.solid(width: 2, height: 2, color: [0, 0, 255]).rgba().multipliedAlpha(0.5)
        let out = try base.compositing([(red, 1, 1), (halfBlue, 6, 1)])
        #expect(out.width == 10 && out.height == 4 && out.bands == 4)
        let bytes = try out.pixelBytes()
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(bytes[(y * 10 + x) * 4..<(y * 10 + x) * 4 + 4]) }
        #expect(pixel(0, 0) == [0, 0, 0, 255])
        #expect(pixel(1, 1) == [255, 0, 0, 255] && pixel(2, 2) == [255, 0, 0, 255] && pixel(3, 1) == [0, 0, 0, 255])
        let blended = pixel(6, 1)
        #expect(blended[0] == 0 && abs(Int(blended[2]) - 128) <= 2 && blended[3] == 255)
    }

    @Test func joinedRowPutsImagesSideBySideWithGaps() throws {
        let images = try (0..<5).map { i in try VIPSImage.solid(width: 3 + i, height: 6, color: [Double(i * 40), 0, 0])
        }
        let row = try VIPSImage.joinedRow(images, spacing: 2, background: [255, 255, 255])
        #expect(row.width == (3 + 4 + 5 + 6 + 7) + 4 * 2 && row.height == 6)
        let bytes = try row.pixelBytes()
        var x = 0
        for i in 0..<5 {
            #expect(bytes[x * 3] == UInt8(i * 40) && bytes[x * 3 + 1] == 0, "image \(i)")
            x += 3 + i
            if i < 4 { #expect(Array(bytes[x * 3..<x * 3 + 3]) == [255, 255, 255]) }
            x += 2
        }
    }

    @Test func gridAndEmbedAndText() throws {
        let cells = try (0..<5).map { _ in try VIPSImage.solid(width: 4, height: 4, color: [0, 0, 0]) }
        let grid = try VIPSImage.grid(cells, across: 3, spacing: 1, background: [255, 255, 255])
        #expect(grid.width == 3 * 4 + 2 && grid.height == 2 * 4 + 1)
        let embedded = try cells[0].embedded(x: 2, y: 1, width: 8, height: 6, background: [9, 9, 9])
        let corner = Array(try embedded.pixelBytes().prefix(3))
        #expect(embedded.width == 8 && embedded.height == 6 && corner == [9, 9, 9])
        let boxed = try VIPSImage.solid(width: 6, height: 6, color: [0, 0, 0])
            .drawingRect(x: 1, y: 1, width: 4, height: 4, color: [255, 0, 0], fill: false)
        let boxBytes = try boxed.pixelBytes()
        #expect(boxBytes[(1 * 6 + 1) * 3] == 255 && boxBytes[(2 * 6 + 2) * 3] == 0 && boxBytes[0] == 0)
        let text = try VIPSImage.text("12", font: "sans 20", dpi: 72, color: [255, 0, 0])
        #expect(text.bands == 4 && text.width > 5 && text.height > 5)
        #expect(try text.extractBands(3).average() > 5)  // some ink
    }

    @Test func animationsStoreEveryFrame() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quire-anim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let frames = try [0.0, 120, 240].map { try VIPSImage.solid(width: 16, height: 8, color: [$0, 255 - $0, 0]) }
        for format in [VIPSImage.SaveFormat.gif, .webp] {
            let path = dir.appendingPathComponent("a.\(format.fileExtension)").path
            try VIPSImage.saveAnimation(frames, to: path, format: format, delayMilliseconds: 50)
            let loaded = try VIPSImage.load(file: path, options: .init(pageCount: -1))
            #expect(loaded.pageCount == 3 && loaded.pageHeight == 8 && loaded.height == 24)
            let last = try loaded.cropped(x: 0, y: 16, width: 16, height: 8).extractBands(0).average()
            #expect(abs(last - 240) < 12)
        }
        #expect(throws: VIPSError.self) {
            try VIPSImage.saveAnimation(
                frames, to: dir.appendingPathComponent("a.png").path, format: .png, delayMilliseconds: 50)
        }
    }
}
