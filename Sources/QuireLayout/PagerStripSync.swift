/// Keeps the preview pager and the thumbnail strip on the same page (docs/layout-formulas.md#sync-and-animations): the
/// pager's offset drives the strip continuously, the strip moves the pager page by page, and
/// a viewport change (rotation) re-derives both offsets from the active page.
///
/// Robust where the sample is not: the active index is always in `0...N−1` (nil with no
/// pages), also after deleting the last page, and empty or degenerate layouts give no offsets
/// instead of NaN.
public struct PagerStripSync: Hashable, Sendable {
    /// `configuring` while sizes change (initially, and during rotation): both layouts then
    /// force their offsets from `activeIndex`.
    public enum State: String, Hashable, Sendable, Codable { case configuring, ready }

    public var pager: Layouts.Pager
    public var strip: Layouts.Strip
    public var state: State
    /// The page both collections show; nil when there are no pages.
    public private(set) var activeIndex: Int?

    /// Ties `pager` and `strip` together on `activeIndex` (clamped to the pages); `configuring` until both have their sizes.
    public init(pager: Layouts.Pager, strip: Layouts.Strip, activeIndex: Int = 0, state: State = .configuring) {
        self.pager = pager
        self.strip = strip
        self.state = state
        self.activeIndex = nil
        setActiveIndex(activeIndex)
    }

    /// Pages both layouts can show.
    public var count: Int { min(pager.count, strip.count) }

    /// Sets the active index, clamped to `0...N−1` (nil when empty).
    public mutating func setActiveIndex(_ index: Int) {
        activeIndex = count > 0 ? clamp(index, 0, count - 1) : nil
    }

    /// `x_thumb = N(w+d)·((o_x/W_preview)/N) − farInset` (the strip follows the pager continuously).
    public func stripOffset(forPagerOffset offset: Point) -> Point? {
        guard count > 0, offset.isFinite, pager.viewport.width > 0 else { return nil }
        let n = Double(strip.count)
        let x =
            n * (strip.itemSize.width + strip.parameters.spacing) * ((offset.x / pager.viewport.width) / n)
            - strip.farInset
        return x.isFinite ? Point(x: x, y: 0) : nil
    }

    /// The pager moved: returns the strip's new offset and makes its nearest index active.
    public mutating func pagerDidScroll(to offset: Point) -> Point? {
        guard let x = stripOffset(forPagerOffset: offset) else { return nil }
        if let index = strip.nearestIndex(at: x) { setActiveIndex(index) }
        return x
    }

    /// The strip moved: when its nearest index differs from the active one, that index
    /// becomes active and the pager jumps to it (returned); otherwise nil (the pager stays).
    public mutating func stripDidScroll(to offset: Point) -> Point? {
        guard let index = strip.nearestIndex(at: offset), index != activeIndex else { return nil }
        setActiveIndex(index)
        return pager.offset(forIndex: index)
    }

    /// The offsets both layouts are forced to while configuring: the active page in each.
    public var configuredOffsets: (pager: Point, strip: Point)? {
        guard let index = activeIndex, let p = pager.offset(forIndex: index),
            let s = strip.offset(forIndex: index)
        else { return nil }
        return (p, s)
    }

    /// The pager's proposed-content-offset override: the active page while configuring,
    /// the proposal unchanged when ready.
    public func pagerTargetOffset(forProposed proposed: Point) -> Point {
        guard state == .configuring, let offsets = configuredOffsets else { return proposed }
        return offsets.pager
    }

    /// A viewport change (rotation): switches to configuring, resizes both layouts, returns
    /// the offsets that keep the active page, and goes back to ready.
    public mutating func changeViewports(pager pagerViewport: Size, strip stripViewport: Size) -> (
        pager: Point, strip: Point
    )? {
        state = .configuring
        pager.viewport = pagerViewport
        strip.viewport = stripViewport
        if let index = activeIndex { setActiveIndex(index) } else { setActiveIndex(0) }
        let offsets = configuredOffsets
        state = .ready
        return offsets
    }

    /// Removes page `index` from both layouts after a delete animation, keeping the active
    /// index in range (the sample leaves it at the old count − 1 when the last page goes).
    /// - Returns: the offsets that show the new active page, nil when no page remains.
    public mutating func didDelete(index: Int) -> (pager: Point, strip: Point)? {
        guard index >= 0, index < pager.aspectRatios.count, index < strip.aspectRatios.count else {
            return configuredOffsets
        }
        pager.aspectRatios.remove(at: index)
        strip.aspectRatios.remove(at: index)
        strip.updates = [:]
        setActiveIndex(min(activeIndex ?? 0, index))
        return configuredOffsets
    }
}
