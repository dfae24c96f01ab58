/// The timing curves of the Photos-app sample's animator (docs/layout-formulas.md#sync-and-animations), as pure functions
/// of linear progress so an animation is a function of time that a test can evaluate.
public enum Easing: String, Hashable, Sendable, Codable, CaseIterable {
    /// `x`.
    case linear
    /// `2x²` below ½, `−2x² + 4x − 1` above: starts and ends slowly.
    case easeInOut
    /// `x²`: the sample calls it "easeOut" although it is an ease-in (it is unused there).
    case easeIn

    /// The eased value of `progress`, which is clamped to `[0, 1]` first (NaN counts as 0),
    /// so the result is always in `[0, 1]` and `0 ↦ 0`, `1 ↦ 1`.
    /// - Complexity: O(1).
    public func callAsFunction(_ progress: Double) -> Double {
        let x = progress.isNaN ? 0 : clamp(progress, 0, 1)
        switch self {
        case .linear: return x
        case .easeInOut: return x < 0.5 ? 2 * x * x : -2 * x * x + 4 * x - 1
        case .easeIn: return x * x
        }
    }
}

/// The animator's linear progress `min(1, elapsed/duration)` (docs/layout-formulas.md#sync-and-animations); a zero or
/// invalid duration gives 1 at once, as the original completes on its first tick.
/// - Complexity: O(1).
public func animationProgress(elapsed: Double, duration: Double) -> Double {
    guard duration > 0, duration.isFinite, elapsed.isFinite else { return 1 }
    return clamp(elapsed / duration, 0, 1)
}
