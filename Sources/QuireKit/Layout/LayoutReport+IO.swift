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
    /// - Throws: a `LayoutReportError` naming the file when it is missing, unreadable, of
    ///   another schema, not of the model's shape or types, or holds a number outside
    ///   `LayoutReportRanges` (the message names its JSON path: `pages[3].width`).
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
            throw LayoutReportError(path: url.path, reason: Self.decodingReason(data, error))
        }
        guard report.schema == schemaIdentifier else {
            throw LayoutReportError(path: url.path, reason: "has schema \(report.schema), expected \(schemaIdentifier)")
        }
        do {
            try report.checkRanges()
        } catch {
            throw LayoutReportError(path: url.path, reason: "\(error)")
        }
        return report
    }

    /// Why `data` did not decode, in one line: another schema, or the JSON path and what was
    /// expected there (`JSONTreeDecoder`); `error` itself when neither says more.
    static func decodingReason(_ data: Data, _ error: any Error) -> String {
        guard let tree = try? LayoutJSON.parse(data) else {
            return "is not valid JSON, or holds a number beyond a Double's range"
        }
        if case .object(let root) = tree, case .string(let schema)? = root["schema"], schema != schemaIdentifier {
            return "has schema \(schema), expected \(schemaIdentifier)"
        }
        let reason = JSONTreeDecoder.reason(decoding: LayoutReport.self, from: tree)
        return "is not a Quire layout.json: " + (reason ?? "\(error)")
    }
}

/// A layout.json that cannot be used, with the file and the reason.
public struct LayoutReportError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
