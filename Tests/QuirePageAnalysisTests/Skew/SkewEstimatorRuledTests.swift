import Foundation
import Testing

@testable import QuirePageAnalysis

/// Sparse handwriting on ruled paper: a few strokes give the text search too little, and the
/// blue rules, 10-17 grey levels under the paper in a grey copy, are under the ink contrast.
/// The rules are long lines across the page and give the angle (two real note scans were left
/// 0.37 degree crooked).
@Suite struct SkewEstimatorRuledTests {
    /// A grey page (paper 238 with a little deterministic grain) whose faint rules, `pitch` px
    /// apart and `depth` levels under the paper, rise at `degrees`, with `marks` dark strokes
    /// scattered where no line of text would put them.
    static func ruledPage(
        width: Int, height: Int, degrees: Double, depth: Double = 14, pitch: Double = 27, marks: Int = 14
    ) -> [UInt8] {
        let a = degrees * .pi / 180
        let (c, s) = (cos(a), sin(a))
        let (cx, cy) = (Double(width) / 2, Double(height) / 2)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        var paper = [Double](repeating: 238, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                // The unturned page's row shown at (x, y): turn back clockwise on screen.
                let v = (Double(x) - cx) * s + (Double(y) - cy) * c + cy
                let d = abs(v - (v / pitch).rounded() * pitch)
                paper[y * width + x] += 3 * (next() - 0.5) - depth * max(0, 1 - d)
            }
        }
        // Strokes: short dark segments a few pixels thick at random places and directions.
        for _ in 0..<marks {
            let (x0, y0) = (Double(width) * (0.1 + 0.8 * next()), Double(height) * (0.1 + 0.8 * next()))
            let (angle, length) = (2 * Double.pi * next(), 15 + 25 * next())
            for t in stride(from: 0.0, through: length, by: 0.5) {
                let (x, y) = (Int(x0 + t * cos(angle)), Int(y0 + t * sin(angle)))
                for dy in -1...1 {
                    for dx in -1...1 where (0..<width).contains(x + dx) && (0..<height).contains(y + dy) {
                        paper[(y + dy) * width + x + dx] = 40
                    }
                }
            }
        }
        return paper.map { UInt8(max(0, min(255, $0.rounded()))) }
    }

    /// The rules give the angle within 0.05 degree, confidently enough (0.3) for a page filling
    /// the frame to be turned. Without the ruled pass: 0 at confidence under 0.15.
    @Test(arguments: [0.38, -0.37, 1.6, -4.2])
    func faintRulesUnderSparseStrokesGiveTheAngle(degrees: Double) {
        let (width, height) = (780, 1024)
        let gray = Self.ruledPage(width: width, height: height, degrees: degrees)
        let found = SkewEstimator.estimate(gray: gray, width: width, height: height)
        #expect(abs(found.degrees - degrees) <= 0.05, "at \(degrees): \(found)")
        #expect(found.confidence >= 0.3, "at \(degrees): \(found)")
    }

    /// The same strokes on plain paper (grain, no rules) are still left alone: the ruled pass
    /// finds no lines where there are none.
    @Test func sparseStrokesOnPlainPaperStayUnturned() {
        let (width, height) = (780, 1024)
        let gray = Self.ruledPage(width: width, height: height, degrees: 1.6, depth: 0)
        let found = SkewEstimator.estimate(gray: gray, width: width, height: height)
        #expect(found.confidence < SkewEstimator.minimumConfidence, "\(found)")
        #expect(found.degrees == 0, "\(found)")
    }

    /// Six faint long lines (rules 170 px apart) are no ruled sheet: a picture's few edges look
    /// like that (a colour plate read 0.12 degree from 6), and the page is left alone.
    @Test func fewFaintLinesAreNoRuling() {
        let (width, height) = (780, 1024)
        let gray = Self.ruledPage(width: width, height: height, degrees: 1.6, pitch: 170)
        let found = SkewEstimator.estimate(gray: gray, width: width, height: height)
        #expect(found.confidence < SkewEstimator.minimumConfidence, "\(found)")
    }

    /// Rules that fan out as on a page photographed at a slant (each rule's angle running from
    /// 1.2 degrees at the top to -0.4 at the bottom) are not one sheet's skew: the halves read
    /// about 0.8 degree apart, and the page is left alone.
    @Test func rulesFanningOutAreNoFlatSheet() {
        let (width, height) = (780, 1024)
        var gray = Self.ruledPage(width: width, height: height, degrees: 0, depth: 0)
        let cx = Double(width) / 2
        for k in 1..<Int(Double(height) / 27) {
            let y0 = Double(k) * 27
            let slope = tan((1.2 - 1.6 * y0 / Double(height)) * .pi / 180)
            for x in 0..<width {
                // Rising to the right: the row falls as x grows.
                let y = y0 - slope * (Double(x) - cx)
                for row in Int(y.rounded(.down)) - 1...Int(y.rounded(.down)) + 1 where (0..<height).contains(row) {
                    let shade = 14 * max(0, 1 - abs(Double(row) - y))
                    gray[row * width + x] = UInt8(max(0, Double(gray[row * width + x]) - shade))
                }
            }
        }
        let found = SkewEstimator.estimate(gray: gray, width: width, height: height)
        #expect(found.confidence < SkewEstimator.minimumConfidence, "\(found)")
    }
}
