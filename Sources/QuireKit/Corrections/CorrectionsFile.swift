import Foundation
import QuireGeometry
import QuireImaging
import QuireLayout

/// The corrections file (`OUT/corrections.json`, `--corrections FILE`): the corners file
/// extended. One JSON object keyed like the corners file (`CornersFile.key(source:page:)`); a
/// value is the old four-corner array (meaning `{"corners": ...}`) or an object with any of
/// `corners`, `rotate`, `split`, `exclude`. Schema: `Schemas/quire.corrections-1.schema.json`.
public struct CorrectionsFile: Sendable, Hashable, Codable {
    /// Entries by key, as written in the file (empty objects are kept: they mean "none").
    public var entries: [String: CorrectionEntry]

    /// The keys an entry object may hold.
    static let knownKeys: Set<String> = ["corners", "rotate", "split", "exclude"]

    /// Entries by file key.
    public init(entries: [String: CorrectionEntry]) { self.entries = entries }

    /// The entries of an old corners file, as corrections of corners alone.
    public init(_ corners: CornersFile) {
        entries = corners.entries.mapValues { CorrectionEntry(corners: $0) }
    }

    /// Reads and validates a corrections (or corners) file.
    /// - Throws: `CornersFileError` naming the file and, for a bad entry, its key.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CornersFileError(file: path, key: nil, message: "cannot read the file")
        }
        try self.init(json: Array(data), file: path)
    }

    /// Parses a corrections file from JSON bytes; `file` only labels errors.
    /// - Throws: `CornersFileError` for invalid JSON, a top level that is not an object, a value
    ///   that is neither four corners nor an entry object, an unknown key, a wrong type or an
    ///   out-of-range value (naming the entry and the key at fault).
    public init(json: [UInt8], file: String = "corrections file") throws {
        let object = try CornersFile.topLevelObject(json, file: file, of: "corrections")
        var entries: [String: CorrectionEntry] = [:]
        for (key, value) in object {
            try CornersFile.checkKey(key, file: file)
            if value is [Any] {
                entries[key] = CorrectionEntry(corners: try CornersFile.quad(value, file: file, key: key))
                continue
            }
            guard let fields = value as? [String: Any] else {
                throw CornersFileError(
                    file: file, key: key, message: "expected four corners or an object of corrections")
            }
            var entry = CorrectionEntry()
            for (name, field) in fields {
                let label = key + "." + name
                switch name {
                case "corners":
                    entry.corners = try CornersFile.quad(field, file: file, key: label)
                case "rotate":
                    guard let n = Self.integer(field), CorrectionEntry.rotations.contains(n) else {
                        throw CornersFileError(file: file, key: label, message: "must be 0, 90, 180 or 270")
                    }
                    entry.rotate = n
                case "split":
                    if let flag = Self.bool(field) {
                        entry.split = flag ? .gutter : .join
                    } else if let x = (field as? NSNumber)?.doubleValue, Self.bool(field) == nil, x.isFinite,
                        CorrectionEntry.splitRange.contains(x)
                    {
                        entry.split = .at(x)
                    } else {
                        throw CornersFileError(
                            file: file, key: label, message: "must be true, false or a number from 0.2 to 0.8")
                    }
                case "exclude":
                    guard let flag = Self.bool(field) else {
                        throw CornersFileError(file: file, key: label, message: "must be true or false")
                    }
                    entry.exclude = flag
                default:
                    throw CornersFileError(
                        file: file, key: label,
                        message: "unknown key (expected corners, rotate, split or exclude)")
                }
            }
            entries[key] = entry
        }
        self.entries = entries
    }

    /// A JSON boolean's value; nil for anything else. JSONSerialization may give a boolean as
    /// `Bool` or as an `NSNumber` of a `char` (not of an integer, as it gives 0 and 1).
    static func bool(_ value: Any) -> Bool? {
        if type(of: value) == Bool.self { return value as? Bool }
        guard let n = value as? NSNumber, String(cString: n.objCType) == "c" else { return nil }
        return n.boolValue
    }

    /// A JSON number that is a whole number in Int's range; nil for booleans, fractions, others.
    static func integer(_ value: Any) -> Int? {
        guard bool(value) == nil, let n = value as? NSNumber else { return nil }
        let d = n.doubleValue
        guard d.isFinite, d == d.rounded(), abs(d) <= 1_000_000 else { return nil }
        return Int(d)
    }

    /// The entry for one page of a source (the corners file's matching: `quad(for:)`), nil when
    /// none or an empty one names it.
    /// - Complexity: O(entries).
    public func entry(for source: PageSource) -> CorrectionEntry? {
        guard let key = CornersFile.bestKey(in: entries.keys, for: source), let entry = entries[key], !entry.isEmpty
        else {
            return nil
        }
        return entry
    }

    /// The file's JSON: keys sorted, one entry per line, each entry in its canonical form
    /// (`CorrectionEntry.jsonText`), so a diff shows what a person changed.
    public func jsonText() -> String {
        let lines = entries.keys.sorted().map { "  \(LayoutJSON.quoted($0)): \(entries[$0]!.jsonText)" }
        return lines.isEmpty ? "{}\n" : "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }
}
