import Foundation
import QuireImaging
import QuireLayout

/// Writes `OUT/text/search.js` (`SearchIndex`) from the hOCR files layout.json names, whenever
/// the viewer is written (`quire process`, `quire view`), so the index never lags the text.
public enum SearchIndexWriter {
    /// The index's path inside OUT; the viewer loads it from there.
    public static let path = "text/search.js"

    /// Writes the index when at least one page of the batch has text (`--ocr`); does nothing
    /// otherwise (the viewer then says the batch has no text). A page whose hOCR is missing or
    /// unreadable is left out and named in the returned warnings (one line each); the others
    /// are still indexed.
    /// - Returns: the warnings.
    /// - Throws: `ViewerWriterError` when the index cannot be written.
    public static func write(into folder: URL) throws -> [String] {
        guard let out = try? OutputFolder(url: folder) else { return [] }
        let withText = out.pages.filter { $0.text != nil }
        guard !withText.isEmpty else { return [] }
        var pages: [SearchIndex.Page] = []
        var warnings: [String] = []
        for page in withText {
            guard let hocr = PDFExport.textFile(page, in: out) else {
                warnings.append(
                    "\(out.path(page.text?.hocr ?? "text")): not searchable (no such hOCR file inside the folder)")
                continue
            }
            guard let bytes = FileManager.default.contents(atPath: hocr) else {
                warnings.append("\(hocr): not searchable (cannot be read)")
                continue
            }
            do {
                pages.append(SearchIndex.Page(index: page.index, ocr: try HOCRReader.read(Array(bytes))))
            } catch {
                warnings.append("\(hocr): not searchable (\(error))")
            }
        }
        let url = folder.appendingPathComponent(path)
        AtomicFile.removeAbandoned(in: url.deletingLastPathComponent().path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.writeUnsynced(Data(SearchIndex.script(pages).utf8), to: url.path)
        } catch let error as AtomicFileError {
            throw ViewerWriterError(path: url.path, reason: "cannot be written (\(error.reason))")
        } catch {
            throw ViewerWriterError(path: url.path, reason: "cannot be written (\(error.localizedDescription))")
        }
        return warnings
    }
}
