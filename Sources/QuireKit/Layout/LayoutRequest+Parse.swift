import Foundation
import QuireLayout

extension LayoutRequest {
    /// Parses and validates one request document.
    /// - Throws: `LayoutRequestError` naming the first bad field.
    public static func parse(_ data: Data) throws -> LayoutRequest {
        guard data.count <= LayoutLimits.maximumRequestBytes else {
            throw LayoutRequestError(
                field: "", message: "the request is longer than \(LayoutLimits.maximumRequestBytes) bytes, the limit")
        }
        let value: LayoutJSON
        do {
            value = try LayoutJSON.parse(data)
        } catch {
            throw LayoutRequestError(field: "", message: "the request is not valid JSON")
        }
        return try LayoutRequest(json: value)
    }
}
