import Foundation
import QuireLayout

extension LayoutJSON {
    /// Parses one JSON document.
    public static func parse(_ data: Data) throws -> LayoutJSON {
        try JSONDecoder().decode(LayoutJSON.self, from: data)
    }
}
