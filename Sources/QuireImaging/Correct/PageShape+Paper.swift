import QuirePageAnalysis

/// The named papers of `--paper` as aspect ratios: the options belong to QuireImaging, the page
/// shape to QuirePageAnalysis, which knows sizes only as numbers.
extension PageShape {
    /// Paper aspect ratios (short side / long side).
    static func ratio(_ paper: CorrectionOptions.Paper) -> Double? {
        switch paper {
        case .auto: nil
        case .a4: 210.0 / 297.0
        case .letter: 8.5 / 11
        case .legal: 8.5 / 14
        }
    }

    /// Output pixel size for the page in `quad` at the named `paper`'s shape (or the estimated
    /// one for `auto`); see `outputSize(for:imageWidth:imageHeight:paperRatio:)`.
    static func outputSize(
        for quad: Quad, imageWidth: Int, imageHeight: Int,
        paper: CorrectionOptions.Paper
    ) -> (width: Int, height: Int) {
        outputSize(for: quad, imageWidth: imageWidth, imageHeight: imageHeight, paperRatio: ratio(paper))
    }
}
