import Foundation

/// An output folder written by `quire process`: its layout.json and the page files it lists,
/// opened and checked once for the strip and render commands.
public struct OutputFolder: Sendable {
    /// The folder itself.
    public let url: URL
    /// The decoded layout.json.
    public let report: LayoutReport

    /// Opens `OUT` and reads `OUT/layout.json`.
    /// - Throws: `OutputFolderError.emptyOutput` when the folder is missing or empty,
    ///   `.missingLayout` when it has no layout.json, `.noPages` when the batch is empty, and
    ///   `LayoutReportError` when layout.json is not a Quire layout.
    public init(url: URL) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue,
            let contents = try? fm.contentsOfDirectory(atPath: url.path), !contents.isEmpty
        else {
            throw OutputFolderError.emptyOutput(path: url.path)
        }
        let layout = url.appendingPathComponent("layout.json")
        guard fm.fileExists(atPath: layout.path) else {
            throw OutputFolderError.missingLayout(path: layout.path)
        }
        let report = try LayoutReport.read(from: layout)
        guard !report.pages.isEmpty else { throw OutputFolderError.noPages(path: layout.path) }
        self.url = url
        self.report = report
    }

    /// Pages in batch order (sorted by index, whatever order layout.json lists them in).
    public var pages: [LayoutReport.Page] { report.pages.sorted { $0.index < $1.index } }

    /// The position of page `index` in `pages`.
    /// - Throws: `OutputFolderError.unknownPage`.
    public func position(ofPage index: Int) throws -> Int {
        guard let position = pages.firstIndex(where: { $0.index == index }) else {
            throw OutputFolderError.unknownPage(index: index, count: report.pages.count)
        }
        return position
    }

    /// An absolute path for a path relative to the folder.
    public func path(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : url.appendingPathComponent(relative).path
    }
}
