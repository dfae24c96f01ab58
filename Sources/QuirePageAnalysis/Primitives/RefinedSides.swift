import QuireGeometry

/// The sides refined during one decision on one image, each kept with what measuring it gave:
/// the candidates made of the same lines share sides, and a side shared by several is measured
/// once. A side's refinement (`SideRefiner.refine`) reads only its line, its two ends, the
/// polarity, the side of the line the quad's centroid lies on, the search radius and the
/// pixels, so a side met again with the same inputs, bit for bit, gets the line measuring it
/// again would give (`RefinedSidesTests`). One instance serves one image: the detection copy
/// of one decision (`DetectionFront.refinedSides`).
package final class RefinedSides {
    /// What a side's refinement reads besides the pixels, as bit patterns: -0 and 0 differ.
    struct Key: Hashable {
        var nx: UInt64, ny: UInt64, c: UInt64
        var ax: UInt64, ay: UInt64, bx: UInt64, by: UInt64
        var searchRadius: UInt64
        var insideBrighter: Bool
        var centroidAhead: Bool
    }

    private var known: [Key: PageDetector.Line?] = [:]

    package init() {}
    /// Sides measured, and sides looked up instead, for the tests.
    private(set) var measured = 0
    private(set) var reused = 0

    /// `refiner.refine(line, from: a, to: b, ...)`, measured the first time these inputs are met.
    func side<Field: IntensityField>(
        _ line: PageDetector.Line, from a: Point, to b: Point, insideBrighter: Bool, centroid: Point,
        searchRadius: Double, refiner: SideRefiner<Field>
    ) -> PageDetector.Line? {
        let key = Key(
            nx: line.nx.bitPattern, ny: line.ny.bitPattern, c: line.c.bitPattern,
            ax: a.x.bitPattern, ay: a.y.bitPattern, bx: b.x.bitPattern, by: b.y.bitPattern,
            searchRadius: searchRadius.bitPattern, insideBrighter: insideBrighter,
            centroidAhead: line.distance(to: centroid) > 0)
        if let found = known[key] {
            reused += 1
            return found
        }
        let found = refiner.refine(
            line, from: a, to: b, insideBrighter: insideBrighter, centroid: centroid, searchRadius: searchRadius)
        known.updateValue(found, forKey: key)
        measured += 1
        return found
    }
}
