import Foundation
import Testing
import VipsBridge
@testable import QuireImaging

/// The AVX2 plane warp (`cvips_warp_planar_pairs`) against the portable Swift loop, on planes
/// of noise (a tap read from the wrong column or row changes the output), through the quads
/// that take each of its tap paths: an axis-aligned page (every run in one source row), pages
/// turned a little and more, a strong keystone and sideways pages (runs crossing one to eight
/// rows: the row loads), and the same shrunk twice (sideways runs over 14 rows: the gathers).
@Suite struct PlanarWarpKernelTests {
    /// Planes of repeatable noise, 4:2:0 or 4:2:2, with padded strides like a decoder's.
    final class NoisePlanes {
        let luma: [UInt8], cb: [UInt8], cr: [UInt8]
        let width: Int, height: Int, chromaWidth: Int, chromaHeight: Int, lumaStride: Int, chromaStride: Int
        let verticalShift: Int

        init(width: Int, height: Int, verticalShift: Int) {
            self.width = width
            self.height = height
            self.verticalShift = verticalShift
            chromaWidth = (width + 1) / 2
            chromaHeight = (height + (1 << verticalShift) - 1) >> verticalShift
            lumaStride = (width + 15) & ~15
            chromaStride = (chromaWidth + 7) & ~7
            var state = UInt64(width * 7919 + height)
            func noise(_ count: Int) -> [UInt8] {
                (0..<count).map { _ in  // a 64-bit LCG's top byte
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    return UInt8(truncatingIfNeeded: state >> 56)
                }
            }
            // One spare row below each plane, as the decoder's whole-block rows give.
            luma = noise(lumaStride * (height + 1))
            cb = noise(chromaStride * (chromaHeight + 1))
            cr = noise(chromaStride * (chromaHeight + 1))
        }

        func withPixels<R>(_ body: (PlanarPixels) throws -> R) rethrows -> R {
            try luma.withUnsafeBufferPointer { l in
                try cb.withUnsafeBufferPointer { b in
                    try cr.withUnsafeBufferPointer { r in
                        try body(
                            PlanarPixels(
                                luma: l.baseAddress!, cb: b.baseAddress!, cr: r.baseAddress!, width: width,
                                height: height, chromaWidth: chromaWidth, chromaHeight: chromaHeight,
                                lumaStride: lumaStride, chromaStride: chromaStride, horizontalShift: 1,
                                verticalShift: verticalShift))
                    }
                }
            }
        }
    }

    /// A `w` x `h` page centred at (cx, cy), turned by `degrees`, its top edge narrowed by
    /// `keystone` of its width (perspective), corners shifted by `turn` places (the page stored
    /// turned a quarter, half or three quarters).
    static func quad(
        cx: Double, cy: Double, w: Double, h: Double, degrees: Double, keystone: Double = 0, turn: Int = 0
    ) throws -> Quad {
        let a = degrees * .pi / 180
        let local = [
            (-w / 2 * (1 - keystone), -h / 2), (w / 2 * (1 - keystone), -h / 2), (w / 2, h / 2), (-w / 2, h / 2)
        ]
        var corners = local.map { p in Point(x: cx + p.0 * cos(a) - p.1 * sin(a), y: cy + p.0 * sin(a) + p.1 * cos(a)) }
        corners = Array(corners[turn...] + corners[..<turn])
        return try #require(Quad(corners: corners))
    }

    /// Bytes that differ between the AVX2 and the portable warp of `quad` at each output size.
    static func differing(_ planes: NoisePlanes, _ quad: Quad, sizes: [(Int, Int)]) throws -> [Int] {
        try planes.withPixels { p in
            try sizes.map { (ow, oh) in
                var fast = [UInt8](repeating: 0, count: ow * oh * 3), loop = fast
                try fast.withUnsafeMutableBufferPointer {
                    try PerspectiveWarp.warp(planes: p, quad: quad, outputWidth: ow, outputHeight: oh, into: $0)
                }
                try loop.withUnsafeMutableBufferPointer {
                    try PerspectiveWarp.warp(
                        planes: p, quad: quad, outputWidth: ow, outputHeight: oh, into: $0, vectorized: false)
                }
                return zip(fast, loop).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
            }
        }
    }

    /// Turns (degrees) and keystones: axis-aligned, near-straight, far turned, a strong
    /// perspective, each upright, sideways and upside down.
    @Test(arguments: [
        (0.0, 0.0), (0.4, 0.0), (-1.5, 0.0), (4.0, 0.0), (11.0, 0.0), (-19.0, 0.0), (30.0, 0.0), (2.0, 0.35),
        (-8.0, 0.5)
    ])
    func kernelEqualsThePortableLoop(_ page: (degrees: Double, keystone: Double)) throws {
        guard SIMDWarp.planarAvailable else { return }  // only the portable loop runs here
        for (verticalShift, turn) in [(1, 0), (1, 1), (0, 2), (1, 3)] {
            let planes = NoisePlanes(width: 403, height: 301, verticalShift: verticalShift)
            let quad = try Self.quad(
                cx: 201, cy: 150, w: 280, h: 200, degrees: page.degrees, keystone: page.keystone, turn: turn)
            // Same size (a source pixel a page pixel), shrunk (runs spanning 14 source columns
            // at 8 pixels: the loads' widest) and enlarged; odd sizes leave partial runs.
            let sizes = turn % 2 == 0 ? [(280, 200), (141, 101), (467, 333)] : [(200, 280), (101, 141), (333, 467)]
            let bad = try Self.differing(planes, quad, sizes: sizes)
            #expect(bad.allSatisfy { $0 == 0 }, "\(page) turn \(turn) 4:2:\(verticalShift == 1 ? 0 : 2): \(bad)")
        }
    }
}
