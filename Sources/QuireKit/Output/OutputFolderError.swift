/// Why a strip or a render of an output folder cannot be made; each case names what to fix.
public enum OutputFolderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The folder does not exist or holds nothing.
    case emptyOutput(path: String)
    /// The folder has no layout.json (run `quire process` first).
    case missingLayout(path: String)
    /// layout.json lists no pages.
    case noPages(path: String)
    /// A page index outside the batch.
    case unknownPage(index: Int, count: Int)
    /// A page's image files are all missing or unreadable.
    case missingImage(page: Int, path: String, reason: String)
    /// A layout or animation the renderer knows by name whose engine is not built in yet.
    case notYetAvailable(String)
    /// An option value that cannot work, with the reason.
    case invalidOption(String)

    public var description: String {
        switch self {
        case .emptyOutput(let path):
            return "\(path) is empty or missing: run `quire process INPUT -o \(path)` first"
        case .missingLayout(let path):
            return "\(path) not found: the output folder has no layout.json (run `quire process` first)"
        case .noPages(let path):
            return "\(path) lists no pages: nothing to draw"
        case .unknownPage(let index, let count):
            return count == 1
                ? "unknown page \(index): the batch has 1 page (index 0)"
                : "unknown page \(index): the batch has \(count) pages (indices 0-\(count - 1))"
        case .missingImage(let page, let path, let reason):
            return "page \(page): cannot read \(path) (\(reason))"
        case .notYetAvailable(let what):
            return "\(what) is not yet available in this build"
        case .invalidOption(let reason):
            return reason
        }
    }
}
