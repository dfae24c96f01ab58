/// Grey test pages of text columns, for the spread finder's tests (QuirePageAnalysisTests) and
/// the splitter's (QuireImagingTests).
public enum TextColumns {
    /// A grey page `width` x `height` on `paper`: text lines (dark dashes every 14 rows) over the
    /// column spans given as shares of the width, and a `shade` function darkening columns.
    public static func page(
        width: Int = 1000, height: Int = 700, paper: UInt8 = 235, columns: [ClosedRange<Double>],
        shade: (Double) -> Double = { _ in 0 }
    ) -> [UInt8] {
        var gray = [UInt8](repeating: paper, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x) / Double(width)
                var value = Double(paper) - shade(u)
                let inText = columns.contains { $0.contains(u) } && y > 40 && y < height - 40
                if inText, y % 14 < 4, (x / 9) % 6 != 5 { value = 30 }
                gray[y * width + x] = UInt8(max(0, min(255, value)))
            }
        }
        return gray
    }
}
