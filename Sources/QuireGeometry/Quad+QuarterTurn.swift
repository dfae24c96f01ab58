extension Quad {
    /// This quad, given in pixels of a frame that is a `sourceWidth` x `sourceHeight` source
    /// turned `quarterTurns` quarter turns clockwise, in pixels of the source itself (both
    /// continuous: a frame spans 0...width). The corners keep their names: they are the page's
    /// own corners as it reads wherever it lies, so warping the source from this quad gives the
    /// same page as warping the turned frame from the original.
    ///
    /// Why: a page kept whole, turned upright and only then found has its quad measured on the
    /// turned frame, while layout.json, the review and `--corrections` read quads in the source
    /// frame.
    public func unturned(quarterTurns: Int, sourceWidth: Double, sourceHeight: Double) -> Quad {
        let k = ((quarterTurns % 4) + 4) % 4
        // A clockwise quarter turn shows source (x, y) at (H - y, x); these are the inverses.
        func back(_ p: Point) -> Point {
            switch k {
            case 1: Point(x: p.y, y: sourceHeight - p.x)
            case 2: Point(x: sourceWidth - p.x, y: sourceHeight - p.y)
            case 3: Point(x: sourceWidth - p.y, y: p.x)
            default: p
            }
        }
        return Quad(
            topLeft: back(topLeft), topRight: back(topRight), bottomRight: back(bottomRight),
            bottomLeft: back(bottomLeft))
    }
}
