import QuirePageAnalysis

/// YCbCr planes are an intensity field, so a photo decoded to planes has its corners refined on
/// them directly (`PageDetector.refine`); the planes belong to QuireImaging, the refiner to QuirePageAnalysis.
extension PlanarPixels: IntensityField {
    /// R + G + B from the planes: 3 Y + (1.772 - 0.344136) Cb' + (1.402 - 0.714136) Cr'.
    package func intensity(_ x: Double, _ y: Double) -> Double? {
        guard contains(x, y) else { return nil }
        return intensityInside(x, y)
    }

    package func contains(_ x: Double, _ y: Double) -> Bool {
        x >= 0 && y >= 0 && x < Double(width - 1) && y < Double(height - 1)
    }

    package func intensityInside(_ x: Double, _ y: Double) -> Double {
        let (l, b, r) = ycc(x, y)
        return 3 * l + 1.427864 * (b - 128) + 0.687864 * (r - 128)
    }
}
