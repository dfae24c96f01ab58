import Foundation
import QuireLayout

/// The page list of the last `quire layout` request, kept so that the next request over the
/// same pages does not rebuild it.
///
/// Building a layout is linear in the page count (an array of 10^6 ratios, the pager's
/// filled copy, or a re-read `layout.json`), while a query touches only the pages near the
/// offset. A client that keeps `quire layout --lines` open sends many requests over the same
/// pages; with this cache each of them costs what its query costs. The layouts hold their
/// arrays by value (copy-on-write), so handing them the cached arrays copies nothing.
///
/// Keys: `count` by its value; `pagesFrom` by path, size and modification date (a rewritten
/// layout.json is read again). Inline `aspectRatios` are parsed per line anyway, so they are
/// not cached beyond the pager's filled copy of an equal list.
public final class LayoutCache {
    /// Where the items came from, as far as identity goes.
    enum Key: Equatable {
        case count(Int)
        case pagesFrom(path: String, size: UInt64, modified: Date?)
    }

    /// A request's resolved items.
    public struct Resolved {
        /// Per-page aspect ratio (nil: the layout's default).
        public var ratios: [Double?]
        /// The viewport stored in `layout.json` (pagesFrom only).
        var reportViewport: LayoutReport.Viewport?
        fileprivate let owner: LayoutCache?
        fileprivate let cacheable: Bool

        /// The ratios with missing ones filled with `fill` (the pager's cell aspect).
        func filled(_ fill: Double) -> [Double] {
            if cacheable, let owner, let f = owner.filledRatios, f.fill == fill || (f.fill.isNaN && fill.isNaN) {
                owner.hits += 1
                return f.ratios
            }
            let out = ratios.map { $0 ?? fill }
            if cacheable, let owner { owner.filledRatios = (fill, out) }
            return out
        }
    }

    private var key: Key?
    private var ratios: [Double?] = []
    private var reportViewport: LayoutReport.Viewport?
    private var filledRatios: (fill: Double, ratios: [Double])?
    /// How many lookups were answered from the cache (tests read it).
    public private(set) var hits = 0

    public init() {}

    /// The items of `request`, from the cache when they are the same pages as last time.
    /// - Throws: `LayoutRequestError` (field `pagesFrom`) when the report cannot be read.
    public func items(for request: LayoutRequest) throws -> Resolved {
        let newKey: Key
        switch request.items {
        case .aspectRatios(let values):
            return Resolved(ratios: values, reportViewport: nil, owner: nil, cacheable: false)
        case .count(let n):
            newKey = .count(n)
        case .pagesFrom(let path):
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            newKey = .pagesFrom(
                path: path, size: (attributes?[.size] as? NSNumber)?.uint64Value ?? 0,
                modified: attributes?[.modificationDate] as? Date)
        }
        if newKey == key {
            hits += 1
            return Resolved(ratios: ratios, reportViewport: reportViewport, owner: self, cacheable: true)
        }
        switch request.items {
        case .count(let n):
            ratios = Array(repeating: nil, count: n)
            reportViewport = nil
        case .pagesFrom(let path):
            let report: LayoutReport
            do {
                report = try LayoutReport.read(from: URL(fileURLWithPath: path))
            } catch {
                key = nil
                throw LayoutRequestError(field: "pagesFrom", message: "\(error)")
            }
            guard report.pages.count <= LayoutLimits.maximumItemCount else {
                key = nil
                throw LayoutRequestError(
                    field: "pagesFrom", message: "has more than \(LayoutLimits.maximumItemCount) pages")
            }
            // A ratio outside the request bounds takes the default, like a missing one.
            ratios = report.pages.map { LayoutLimits.aspectRatioRange.contains($0.aspectRatio) ? $0.aspectRatio : nil }
            reportViewport = report.viewport
        case .aspectRatios: break
        }
        key = newKey
        filledRatios = nil
        return Resolved(ratios: ratios, reportViewport: reportViewport, owner: self, cacheable: true)
    }
}
