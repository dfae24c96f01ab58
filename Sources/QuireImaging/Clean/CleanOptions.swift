/// What the clean-up step does to a page after correction (`quire process --edges`,
/// `--background`, `--mode`). The defaults leave the page's colours as they are and only fill
/// scanner edges, which are never page content.
public struct CleanOptions: Sendable, Hashable, Codable {
    /// Dark bars and shadows along the edges of a scan (the scanner lid's edge, the glass's border).
    public enum Edges: String, Sendable, Hashable, Codable, CaseIterable {
        /// Fill them with the paper colour (scans and pages left as they are; not straightened photos).
        case auto
        /// Leave them.
        case keep
    }

    /// The paper's tone.
    public enum Background: String, Sendable, Hashable, Codable, CaseIterable {
        /// As scanned.
        case keep
        /// Normalised to white, evening out uneven light; pictures keep their tones.
        case white
    }

    /// The colours written.
    public enum Mode: String, Sendable, Hashable, Codable, CaseIterable {
        case colour
        /// One grey band.
        case grey
        /// Black and white: the paper white, the ink black (a 1-bit PNG, or a small grey JPEG).
        case bw
    }

    public var edges: Edges
    public var background: Background
    public var mode: Mode

    /// Clean-up options; the defaults fill scanner edges and change nothing else.
    public init(edges: Edges = .auto, background: Background = .keep, mode: Mode = .colour) {
        self.edges = edges
        self.background = background
        self.mode = mode
    }

    /// Whether the page's tones are changed (background or mode), which needs its pixels.
    var changesTones: Bool { background != .keep || mode != .colour }
}
