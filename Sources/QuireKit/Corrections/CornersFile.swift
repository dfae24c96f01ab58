import Foundation
import QuireGeometry
import QuireImaging
import QuireLayout

/// User-corrected page corners per source file: the `--corners FILE.json` input, typically the
/// output of a border-correction screen.
///
/// The file is one JSON object mapping a source to its four corners in display pixels (EXIF
/// orientation applied), top-left, top-right, bottom-right, bottom-left of the page as read:
/// `{"page1.jpg": [[x, y], [x, y], [x, y], [x, y]], "scans/doc.pdf#2": [...]}`. A key is a path
/// as given on the command line, a path relative to an input folder, or a bare file name; `#N`
/// picks page N of a multi-page file, counted from 1 (a key without it means the first page).
public struct CornersFile: Sendable, Hashable, Codable {
    /// Corners by key, as written in the file.
    public var entries: [String: Quad]

    /// The largest coordinate a corner may have, in pixels: libvips holds no image wider or
    /// higher (`VIPS_MAX_COORD`), so a larger one is a mistake, and it keeps every later
    /// conversion of a coordinate to an `Int` in range. Corners are checked again against the
    /// size of the image they are applied to.
    public static let maxCoordinate: Double = 10_000_000

    /// The deepest nesting of arrays and objects read: a corners file needs 3 (object, corner
    /// list, pair); deeper input is refused before the JSON parser recurses into it.
    public static let maxNesting = 16

    /// Corners by file key (path as given, relative path, bare name, or `name#N`).
    public init(entries: [String: Quad]) { self.entries = entries }

    /// Reads and validates a corners file.
    /// - Throws: `CornersFileError` naming the file and, for a bad entry, its key.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CornersFileError(file: path, key: nil, message: "cannot read the file")
        }
        try self.init(json: Array(data), file: path)
    }

    /// Parses corners from JSON bytes; `file` only labels errors.
    /// - Throws: `CornersFileError` for invalid JSON, a top level that is not an object, entries
    ///   that are not four [x, y] number pairs, non-finite or negative coordinates, and corners
    ///   that do not make a convex quad in TL, TR, BR, BL order.
    public init(json: [UInt8], file: String = "corners file") throws {
        let object = try Self.topLevelObject(json, file: file, of: "four [x, y] corners")
        var entries: [String: Quad] = [:]
        for (key, value) in object {
            try Self.checkKey(key, file: file)
            entries[key] = try Self.quad(value, file: file, key: key)
        }
        self.entries = entries
    }

    /// Refuses an empty key, or one whose `#` is followed by anything but a page number from 1.
    static func checkKey(_ key: String, file: String) throws {
        guard !key.isEmpty else { throw CornersFileError(file: file, key: key, message: "empty file name") }
        if let hash = key.lastIndex(of: "#") {
            let page = key[key.index(after: hash)...]
            guard let n = Int(page), n >= 1 else {
                throw CornersFileError(file: file, key: key, message: "the page after '#' must be a number from 1")
            }
        }
    }

    /// Four corners from a parsed JSON value, every coordinate range-checked, forming a convex
    /// quad in TL, TR, BR, BL order; `key` labels errors.
    static func quad(_ value: Any, file: String, key: String) throws -> Quad {
        guard let list = value as? [Any], list.count == 4 else {
            throw CornersFileError(file: file, key: key, message: "expected exactly four corners [[x, y], ...]")
        }
        var points: [Point] = []
        for (i, item) in list.enumerated() {
            guard let pair = item as? [Any], pair.count == 2,
                let x = (pair[0] as? NSNumber)?.doubleValue, let y = (pair[1] as? NSNumber)?.doubleValue,
                type(of: pair[0]) != Bool.self, type(of: pair[1]) != Bool.self
            else {
                throw CornersFileError(
                    file: file, key: key, message: "corner \(i + 1) is not an [x, y] pair of numbers")
            }
            guard x.isFinite, y.isFinite, x >= 0, y >= 0 else {
                throw CornersFileError(
                    file: file, key: key, message: "corner \(i + 1) has a negative or non-finite coordinate")
            }
            guard x <= Self.maxCoordinate, y <= Self.maxCoordinate else {
                throw CornersFileError(
                    file: file, key: key,
                    message: "corner \(i + 1) has a coordinate over \(Int(Self.maxCoordinate)) px")
            }
            points.append(Point(x: x, y: y))
        }
        let quad = Quad(corners: points)!
        guard quad.isConvex, quad.signedArea > 0 else {
            throw CornersFileError(
                file: file, key: key,
                message: "corners must form a convex quad in order top-left, top-right, bottom-right, bottom-left")
        }
        return quad
    }

    /// The JSON object at the top of a corners or corrections file, after the checks both share:
    /// nesting bounded before the parser recurses, valid JSON, an object at the top.
    /// - Parameter values: what the object maps file names to, for the error message.
    static func topLevelObject(_ json: [UInt8], file: String, of values: String) throws -> [String: Any] {
        guard nesting(of: json) <= maxNesting else {
            throw CornersFileError(file: file, key: nil, message: "nested deeper than \(maxNesting) levels")
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(json))
        } catch {
            throw CornersFileError(file: file, key: nil, message: "not valid JSON")
        }
        guard let object = root as? [String: Any] else {
            throw CornersFileError(file: file, key: nil, message: "expected an object mapping file names to \(values)")
        }
        return object
    }

    /// The deepest nesting of `[` and `{` in `json`, outside strings. O(n), no recursion.
    static func nesting(of json: [UInt8]) -> Int {
        var depth = 0, deepest = 0
        var inString = false, escaped = false
        for byte in json {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// The corners for one page of a source, or nil. A key naming the page (`#N`) wins over a
    /// plain key; a full path wins over a relative path, which wins over a bare file name.
    /// - Complexity: O(entries).
    public func quad(for source: PageSource) -> Quad? {
        Self.bestKey(in: entries.keys, for: source).flatMap { entries[$0] }
    }

    /// The key among `keys` that names `source` best (see `quad(for:)`), or nil.
    /// - Complexity: O(keys).
    static func bestKey<Keys: Sequence<String>>(in keys: Keys, for source: PageSource) -> String? {
        let path = source.path
        let name = (path as NSString).lastPathComponent
        var best: (rank: Int, key: String)? = nil
        for key in keys {
            var file = key
            var page = 0
            if let hash = key.lastIndex(of: "#"), let n = Int(key[key.index(after: hash)...]) {
                file = String(key[..<hash])
                page = n - 1
            }
            guard page == source.page else { continue }
            var rank: Int
            if file == path {
                rank = 3
            } else if path.hasSuffix("/" + file) {
                rank = 2
            } else if file == name {
                rank = 1
            } else {
                continue
            }
            if key.contains("#") { rank += 10 }
            // Ties (never two equal keys) go to the smaller key, so the choice does not depend
            // on the dictionary's order.
            if best == nil || rank > best!.rank || (rank == best!.rank && key < best!.key) { best = (rank, key) }
        }
        return best?.key
    }
}

extension CornersFile {
    /// The key of page `page` (from 0) of `source`: the path itself for the first page, `path#N`
    /// (N from 1) for the others, as `quad(for:)` reads it back. A name that holds a '#' always
    /// gets its page number, so the part after its own '#' is not read as one.
    public static func key(source: String, page: Int) -> String {
        page > 0 || source.contains("#") ? "\(source)#\(page + 1)" : source
    }

    /// The file's JSON: keys sorted, coordinates rounded to 0.01 px, one entry per line, so a
    /// person can edit it and a diff shows what they changed.
    public func jsonText() -> String {
        func number(_ v: Double) -> String {
            let r = max(0, (v * 100).rounded() / 100)
            return r == r.rounded() ? String(Int(r)) : String(r)
        }
        let lines = entries.keys.sorted().map { key -> String in
            let corners = entries[key]!.corners.map { "[\(number($0.x)), \(number($0.y))]" }.joined(separator: ", ")
            return "  \(LayoutJSON.quoted(key)): [\(corners)]"
        }
        return lines.isEmpty ? "{}\n" : "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }
}

/// A corners file that cannot be used, with the file and the entry at fault.
public struct CornersFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var key: String?
    public var message: String

    public var description: String {
        if let key { return "\(file): \"\(key)\": \(message)" }
        return "\(file): \(message)"
    }
}
