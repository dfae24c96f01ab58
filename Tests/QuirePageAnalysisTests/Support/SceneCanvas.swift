/// The synthetic scenes the detection tests paint: RGB pixels, row by row, each pixel's colour
/// from the scene's own rule and a grain of noise, so that a flat desk or page has the texture a
/// camera gives it (flat colours make edges and paper checks too easy).
enum SceneCanvas {
    /// A `w` x `h` RGB scene: `colour(x, y, grain)` for every pixel in row order, `grain` the top
    /// `grainBits` bits of a linear congruential sequence started at `seed` (the same scene every
    /// run). Channels are stored as `UInt8(value)`: a rule giving a value outside 0...255 traps.
    static func paint(
        width w: Int, height h: Int, seed: UInt32, grainBits: UInt32 = 4,
        _ colour: (_ x: Int, _ y: Int, _ grain: Int) -> (Int, Int, Int)
    ) -> [UInt8] {
        var px = [UInt8](repeating: 0, count: w * h * 3)
        var state = seed
        for y in 0..<h {
            for x in 0..<w {
                state = state &* 1664525 &+ 1013904223
                let c = colour(x, y, Int(state >> (32 - grainBits)))
                let o = (y * w + x) * 3
                (px[o], px[o + 1], px[o + 2]) = (UInt8(c.0), UInt8(c.1), UInt8(c.2))
            }
        }
        return px
    }
}
