import Foundation
import VipsBridge

/// The resolution a written page really has, decided from what is known about it.
///
/// - A page kept as it is, or deskewed and trimmed, has its source's pixels at their own scale:
///   it keeps the source's resolution (a scan's density, a PDF page's render resolution),
///   across and down swapped when an EXIF orientation turned it a quarter.
/// - A photo straightened from a page quad has a pixel scale the camera chose: it has a
///   resolution only when the paper is known (`--paper a4|letter|legal`), the page's width
///   over the paper's width (its long side when the page is landscape).
/// - Otherwise nil: nothing is claimed (JPEGs carry no density; formats that must say
///   something say 72 dpi, what readers assume anyway).
enum PageDPI {
    /// Paper sizes in inches, short side then long side.
    static func inches(_ paper: CorrectionOptions.Paper) -> (short: Double, long: Double)? {
        switch paper {
        case .auto: nil
        case .a4: (210 / 25.4, 297 / 25.4)
        case .letter: (8.5, 11)
        case .legal: (8.5, 14)
        }
    }

    /// The resolution of a page `width` x `height` pixels written after `correction`.
    /// - Parameters:
    ///   - sourceDPI: what the source file states (`PageResolution.ofSource`), in stored orientation.
    ///   - orientation: the EXIF orientation (1-8) applied to the source.
    static func of(
        page width: Int, _ height: Int, correction: CorrectionRecord.Kind, paper: CorrectionOptions.Paper,
        sourceDPI: @autoclosure () -> Resolution?, orientation: Int
    ) -> Resolution? {
        switch correction {
        case .none, .deskew:
            guard let sourceDPI = sourceDPI() else { return nil }
            return orientation >= 5 ? sourceDPI.transposed : sourceDPI
        case .perspective:
            guard let paper = inches(paper), width > 0, height > 0 else { return nil }
            let across = width <= height ? paper.short : paper.long
            return Resolution(Double(width) / across)
        }
    }
}
