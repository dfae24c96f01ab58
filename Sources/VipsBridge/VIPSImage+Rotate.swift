internal import CVips
internal import CVipsShim

extension VIPSImage {
    /// How pixels are sampled when an image is resampled off the pixel grid.
    public enum Interpolation: Sendable {
        case nearest, bilinear, bicubic

        var cValue: cvips_interpolate_kind {
            switch self {
            case .nearest: CVIPS_INTERPOLATE_NEAREST
            case .bilinear: CVIPS_INTERPOLATE_BILINEAR
            case .bicubic: CVIPS_INTERPOLATE_BICUBIC
            }
        }
    }

    /// Rotates by an arbitrary angle, clockwise as displayed for positive `degrees`, so that a
    /// scan whose content leans counter-clockwise can be turned back straight.
    ///
    /// The canvas grows to the bounding box of the rotated image (libvips's `vips_rotate`); the
    /// uncovered corners are filled with `background` (one value, or one per band; empty =
    /// black). Lazy like every operation: only the regions later read are computed.
    public func rotated(
        degrees: Double, background: [Double] = [],
        interpolation: Interpolation = .bilinear
    ) throws -> VIPSImage {
        try Self.make("rotate") { out in
            background.withUnsafeBufferPointer { bg in
                cvips_rotate(pointer, degrees, bg.baseAddress, Int32(bg.count), interpolation.cValue, out)
            }
        }
    }
}

extension VIPSImage {
    /// A cheap reduced copy for analysis (skew, trim): box-filtered by the integer part of
    /// `factor`, then linearly by the rest. About ten times cheaper than `resized` on a large
    /// page, at the price of a softer result; not meant for pages people look at. 8-bit
    /// images in memory are box-filtered in Quire's loop (the same bytes as libvips, several
    /// times cheaper).
    public func analysisShrunk(by factor: Double) throws -> VIPSImage {
        try analysisShrunk(by: factor, ownLoop: true)
    }

    /// `analysisShrunk(by:)`, or with `ownLoop` false libvips's shrink alone: internal, so only
    /// the tests (through `@testable import`) compare Quire's loop with libvips.
    func analysisShrunk(by factor: Double, ownLoop: Bool) throws -> VIPSImage {
        try Self.make("shrink") { cvips_analysis_shrink(pointer, max(1, factor), ownLoop ? 1 : 0, $0) }
    }

    /// `analysisShrunk(by:)` to fit `longSide` (never enlarging).
    public func analysisShrunk(toLongSide longSide: Int) throws -> VIPSImage {
        let factor = Double(max(width, height)) / Double(max(1, longSide))
        return factor > 1 ? try analysisShrunk(by: factor) : self
    }

    /// `analysisShrunk(toLongSide:)` by libvips's shrink alone (the same bytes), left lazy: for
    /// reading a few rows or columns of the copy, a crop of it computing only what it covers
    /// where Quire's loop would make the whole copy.
    public func analysisShrunkLazily(toLongSide longSide: Int) throws -> VIPSImage {
        let factor = Double(max(width, height)) / Double(max(1, longSide))
        return factor > 1 ? try analysisShrunk(by: factor, ownLoop: false) : self
    }
}
