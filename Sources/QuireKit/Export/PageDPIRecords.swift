import QuireImaging
import Foundation

/// The `dpi` each page record of layout.json carries, when the batch recorded one.
///
/// Read on its own (not through `LayoutReport`) so that exports work on every layout.json: one
/// written before pages had a `dpi`, and one whose `dpi` is a number or an `{"x","y"}` pair.
enum PageDPIRecords {
    private struct Report: Decodable { var pages: [Page] }
    private struct Page: Decodable {
        var index: Int
        var dpi: Value?
    }
    private enum Value: Decodable {
        case both(Double)
        case pair(x: Double, y: Double)

        init(from decoder: any Decoder) throws {
            if let single = try? decoder.singleValueContainer(), let d = try? single.decode(Double.self) {
                self = .both(d)
                return
            }
            if var list = try? decoder.unkeyedContainer(), let x = try? list.decode(Double.self),
                let y = try? list.decode(Double.self)
            {
                self = .pair(x: x, y: y)
                return
            }
            enum Keys: String, CodingKey { case x, y }
            let c = try decoder.container(keyedBy: Keys.self)
            self = .pair(x: try c.decode(Double.self, forKey: .x), y: try c.decode(Double.self, forKey: .y))
        }

        var dpi: PageResolution.DPI {
            switch self {
            case .both(let d): (d, d)
            case .pair(let x, let y): (x, y)
            }
        }
    }

    /// Page index -> resolution, for the pages of `layoutFile` that have a usable `dpi`.
    static func read(_ layoutFile: URL) -> [Int: PageResolution.DPI] {
        guard let data = try? Data(contentsOf: layoutFile),
            let report = try? JSONDecoder().decode(Report.self, from: data)
        else { return [:] }
        var result: [Int: PageResolution.DPI] = [:]
        for page in report.pages {
            if let dpi = page.dpi?.dpi, PDFPageSize.isMeaningful(dpi) {
                result[page.index] = dpi
            }
        }
        return result
    }
}
