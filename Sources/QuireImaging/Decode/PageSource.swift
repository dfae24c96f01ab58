/// One page of one input file: the unit the pipeline processes.
public struct PageSource: Sendable, Hashable, Codable {
    /// The file's path on disk.
    public var path: String
    /// The page inside a multi-page file, from 0.
    public var page: Int
    /// Render resolution for PDF pages.
    public var dpi: Double
    /// Page `page` (from 0) of the file at `path`; PDF pages are rendered at `dpi`.
    public init(path: String, page: Int = 0, dpi: Double = 200) { self.path = path; self.page = page; self.dpi = dpi }
}
