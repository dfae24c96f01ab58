import Testing
import VipsBridge
@testable import QuireImaging

@Suite struct PerspectiveWarpTests {
    /// An 8 x 6 checkerboard of 40 px cells drawn into a quad; warping the quad back must give
    /// an upright board whose cell centres have the right colours.
    @Test func checkerboardComesOutStraight() throws {
        let (cols, rows, cell) = (8, 6, 40)
        let (bw, bh) = (cols * cell, rows * cell)
        let (sw, sh) = (600, 500)
        let quad = Quad(
            topLeft: Point(x: 80, y: 60), topRight: Point(x: 520, y: 100),
            bottomRight: Point(x: 560, y: 440), bottomLeft: Point(x: 40, y: 400))
        let toBoard = try #require(
            Homography(
                from: quad.corners,
                to: [
                    Point(x: 0, y: 0), Point(x: Double(bw), y: 0),
                    Point(x: Double(bw), y: Double(bh)), Point(x: 0, y: Double(bh))
                ]))
        var source = [UInt8](repeating: 128, count: sw * sh * 3)
        for y in 0..<sh {
            for x in 0..<sw {
                guard let p = toBoard.apply(Point(x: Double(x) + 0.5, y: Double(y) + 0.5)),
                    p.x >= 0, p.y >= 0, p.x < Double(bw), p.y < Double(bh)
                else { continue }
                let black = (Int(p.x) / cell + Int(p.y) / cell) % 2 == 0
                for c in 0..<3 { source[(y * sw + x) * 3 + c] = black ? 0 : 255 }
            }
        }
        let out = try PerspectiveWarp.warp(
            pixels: source, width: sw, height: sh, bands: 3, quad: quad,
            outputWidth: bw, outputHeight: bh)
        #expect(out.count == bw * bh * 3)
        var wrong = 0
        for r in 0..<rows {
            for c in 0..<cols {
                // Probe well inside each cell (away from the blurred borders).
                for (dx, dy) in [(10, 10), (30, 10), (20, 20), (10, 30), (30, 30)] {
                    let x = c * cell + dx, y = r * cell + dy
                    let v = Int(out[(y * bw + x) * 3])
                    let black = (c + r) % 2 == 0
                    if black ? v > 60 : v < 195 { wrong += 1 }
                }
            }
        }
        #expect(wrong == 0)
        // The corners of the output are the corners of the quad.
        #expect(out[(3 * bw + 3) * 3] < 60)  // top-left cell is black
        #expect(out[((bh - 4) * bw + bw - 4) * 3] < 60)  // (7 + 5) even: black
    }

    @Test func identityQuadCopiesPixels() throws {
        let (w, h) = (37, 23)
        let source = (0..<(w * h)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let quad = Quad(rect: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
        let out = try PerspectiveWarp.warp(
            pixels: source, width: w, height: h, bands: 1, quad: quad,
            outputWidth: w, outputHeight: h)
        #expect(out == source)
    }

    @Test func vipsImageRoundTrip() throws {
        let image = try VIPSImage.black(width: 64, height: 48, bands: 3)
        let quad = Quad(
            topLeft: Point(x: 4, y: 4), topRight: Point(x: 60, y: 6),
            bottomRight: Point(x: 58, y: 44), bottomLeft: Point(x: 2, y: 40))
        let out = try PerspectiveWarp.warp(image, quad: quad, width: 30, height: 20)
        #expect(out.width == 30 && out.height == 20 && out.bands == 3)
    }

    @Test func degenerateQuadThrows() {
        let flat = Quad(
            topLeft: Point(x: 0, y: 0), topRight: Point(x: 10, y: 0),
            bottomRight: Point(x: 20, y: 0), bottomLeft: Point(x: 30, y: 0))
        #expect(throws: VIPSError.self) {
            _ = try PerspectiveWarp.warp(
                pixels: [UInt8](repeating: 0, count: 100), width: 10, height: 10, bands: 1,
                quad: flat, outputWidth: 5, outputHeight: 5)
        }
    }
}

/// The banded warp that hands source rows back as it goes: same output as the plain warp, and
/// no released row is ever read again (the test zeroes each released row in the source it warps).
@Suite struct PerspectiveWarpReleaseTests {
    static func source(_ w: Int, _ h: Int) -> [UInt8] {
        (0..<(w * h * 3)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 11) }
    }

    @Test(arguments: [0, 1, 2, 3])
    func releasedRowsAreNeverReadAgain(quarterTurns: Int) throws {
        let (w, h) = (700, 900)
        let pixels = Self.source(w, h)
        // A keystoned quad; turning its corner order turns the page in the source (as EXIF
        // orientations do), so bands must run along output rows or columns accordingly.
        let corners = [Point(x: 90, y: 120), Point(x: 610, y: 160), Point(x: 640, y: 820), Point(x: 60, y: 770)]
        let turned = (0..<4).map { corners[($0 + quarterTurns) % 4] }
        let quad = try #require(Quad(corners: turned))
        let (ow, oh) = quarterTurns % 2 == 0 ? (520, 660) : (660, 520)
        let expected = try PerspectiveWarp.warp(
            pixels: pixels, width: w, height: h, bands: 3, quad: quad,
            outputWidth: ow, outputHeight: oh)
        var scratch = pixels
        var out = [UInt8](repeating: 0, count: ow * oh * 3)
        var released = [Bool](repeating: false, count: h)
        try scratch.withUnsafeMutableBufferPointer { src in
            let base = src.baseAddress!
            try out.withUnsafeMutableBufferPointer { dst in
                try PerspectiveWarp.warp(
                    pixels: UnsafeBufferPointer(src), width: w, height: h, bands: 3, quad: quad,
                    outputWidth: ow, outputHeight: oh, into: dst,
                    releasingRows: { rows in
                        for y in rows {
                            #expect(!released[y], "row \(y) released twice")
                            released[y] = true
                            (base + y * w * 3).update(repeating: 0, count: w * 3)
                        }
                    })
            }
        }
        // Compared by count (a failing `==` on megabyte arrays makes the test library diff them for minutes).
        let differing = zip(out, expected).filter { $0 != $1 }.count
        #expect(out.count == expected.count && differing == 0, "\(differing) bytes differ from the plain warp")
        #expect(released.allSatisfy { $0 }, "every row is handed back by the end")
    }
}
