import Foundation
import QuireImaging

/// `OUT/.quire/shard.json`: what a `--shard K/N` run records beside its layout.json so that
/// `quire merge` can restore the whole batch's order.
///
/// A shard's layout.json is an ordinary one (its pages numbered 0001... within the shard); this
/// file adds, for each of its pages and errors in the same order, the position the page has in
/// the whole batch: `order` (the input file's place among all discovered inputs, which every
/// shard discovers in full and in the same order) and `sourcePage` (the page inside a
/// multi-page file; -1 for an error about a whole file). With it the merge needs no access to
/// the inputs. `inputs` (the command's arguments) and `shardCount` let the merge refuse shards
/// of different batches; `pageCount` (pages this shard attempted, failed ones included) lets it
/// pick the same file-name width as one run over everything.
public struct ShardRun: Codable, Sendable, Equatable {
    public static let schemaIdentifier = "quire.shard/1"
    /// Relative to OUT.
    public static let fileName = ".quire/shard.json"

    /// A page's (or an error's) place in the whole batch.
    public struct Position: Codable, Sendable, Hashable, Comparable {
        public var order: Int
        public var sourcePage: Int
        /// The page's place among the pages of a split spread (1, 2); nil for a page written whole.
        public var part: Int?

        /// Input number `order` in the whole batch, page `sourcePage` inside it (its page `part`
        /// when that page was split in two).
        public init(order: Int, sourcePage: Int, part: Int? = nil) {
            self.order = order
            self.sourcePage = sourcePage
            self.part = part
        }

        /// Batch order: by input, then by page inside the input, then by part of a split page.
        public static func < (a: Position, b: Position) -> Bool {
            (a.order, a.sourcePage, a.part ?? 0) < (b.order, b.sourcePage, b.part ?? 0)
        }
    }

    public var schema: String
    public var shardIndex: Int
    public var shardCount: Int
    public var inputs: [String]
    public var pageCount: Int
    public var thumbnailsOnly: Bool
    /// One per page of layout.json, in its order.
    public var pages: [Position]
    /// One per error of layout.json, in its order.
    public var errors: [Position]

    /// The record of one shard's run, as `quire merge` reads it back.
    public init(
        shard: ShardSelector, inputs: [String], pageCount: Int, thumbnailsOnly: Bool,
        pages: [Position], errors: [Position]
    ) {
        self.schema = Self.schemaIdentifier
        self.shardIndex = shard.index
        self.shardCount = shard.count
        self.inputs = inputs
        self.pageCount = pageCount
        self.thumbnailsOnly = thumbnailsOnly
        self.pages = pages
        self.errors = errors
    }

    /// Indices of the discovered inputs that belong to `shard` (by the hash of their source name).
    /// - Complexity: O(n) hashes of the names.
    public static func select(_ inputs: [DiscoveredInput], shard: ShardSelector) -> [Int] {
        inputs.indices.filter { shard.contains(source: inputs[$0].source) }
    }

    /// Writes `OUT/.quire/shard.json` atomically.
    /// - Throws: `ProcessError` when it cannot be written.
    public func write(to out: String) throws {
        let path = out + "/" + Self.fileName
        do {
            try FileManager.default.createDirectory(atPath: out + "/.quire", withIntermediateDirectories: true)
            try AtomicFile.write(try JSONOutput.encode(self, .document), to: path)
        } catch {
            throw ProcessError(path: path, reason: "cannot be written (\(error))")
        }
    }

    /// Reads the record of the shard output in `out`.
    /// - Throws: `ProcessError` naming the folder when it is not a shard output, and the file
    ///   and the JSON path when a field is of the wrong type or out of range.
    public static func read(from out: String) throws -> ShardRun {
        let path = out + "/" + fileName
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProcessError(
                path: out, reason: "is not the output of a `quire process --shard K/N` run (no \(fileName))")
        }
        let run: ShardRun
        do {
            run = try JSONDecoder().decode(ShardRun.self, from: data)
        } catch {
            throw ProcessError(
                path: path, reason: "cannot be read (\(JSONTreeDecoder.reason(data, ShardRun.self, error)))")
        }
        guard run.schema == schemaIdentifier else {
            throw ProcessError(path: path, reason: "has schema \(run.schema), expected \(schemaIdentifier)")
        }
        if let problem = run.rangeProblem { throw ProcessError(path: path, reason: problem) }
        return run
    }

    /// The most shards a batch is merged from: `quire merge` takes every shard folder on one
    /// command line, which holds far fewer; it bounds the merge's check for missing shards.
    static let maximumShardCount = 1_000_000

    /// The first number out of range, as `field: expected ..., found ...`; nil when all are in.
    var rangeProblem: String? {
        func problem(_ field: String, _ value: Int, _ range: ClosedRange<Int>) -> String? {
            range.contains(value)
                ? nil : "\(field): expected an integer in \(range.lowerBound)...\(range.upperBound), found \(value)"
        }
        let position = LayoutReportRanges.position
        // An error of a whole input (not of one of its pages) is recorded at page -1.
        let page = -1...position.upperBound
        var found =
            problem("shardCount", shardCount, 1...Self.maximumShardCount)
            ?? problem("shardIndex", shardIndex, 1...max(1, shardCount))
            ?? problem("pageCount", pageCount, position)
        for (name, list) in [("pages", pages), ("errors", errors)] {
            for (i, p) in list.enumerated() where found == nil {
                found =
                    problem("\(name)[\(i)].order", p.order, position)
                    ?? problem("\(name)[\(i)].sourcePage", p.sourcePage, page)
                    ?? p.part.flatMap { problem("\(name)[\(i)].part", $0, 1...2) }
            }
        }
        return found
    }
}
