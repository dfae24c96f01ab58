import Foundation
import QuireLayout

// Reading and writing layout.json: the Foundation half of `LayoutReport` (the model itself is
// in QuireLayout, so apps can decode it without Foundation's JSON coders being Quire's choice).
extension LayoutReport {
    /// The deterministic encoding: sorted keys, pretty-printed, unescaped slashes, trailing newline.
    public func encoded() throws -> Data {
        try JSONOutput.encode(self.roundedForOutput(), .document)
    }

    /// Reads `OUT/layout.json`.
    /// - Throws: a `LayoutReportError` naming the file when it is missing, unreadable, or of
    ///   another schema.
    public static func read(from url: URL) throws -> LayoutReport {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw LayoutReportError(path: url.path, reason: "cannot be read (\(error.localizedDescription))")
        }
        let report: LayoutReport
        do {
            report = try JSONDecoder().decode(LayoutReport.self, from: data)
        } catch {
            throw LayoutReportError(path: url.path, reason: "is not a Quire layout.json (\(error))")
        }
        guard report.schema == schemaIdentifier else {
            throw LayoutReportError(path: url.path, reason: "has schema \(report.schema), expected \(schemaIdentifier)")
        }
        return report
    }

}

/// A layout.json that cannot be used, with the file and the reason.
public struct LayoutReportError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
