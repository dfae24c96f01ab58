/// The labelled candidate table the verifier is fitted on (Tools/accuracy/verifier/candidates.tsv):
/// one tab-separated row per candidate of every labelled photo, with where the photo comes from,
/// which generator proposed the candidate, its IoU with the true page and its features.
public struct CandidateRow: Sendable, Equatable {
    /// The photo set ("real", "generated", "synthetic").
    public var set: String
    /// The public source of a real photo (its repository), or the set's name.
    public var source: String
    /// Who published the source: the unit held out whole by every leave-one-out fit, so that
    /// two repositories of one owner (the same photographer, desk and phone) never score each
    /// other. The truth entry's `publisher` when it has one, else the repository's owner.
    public var publisher: String
    /// "held-out", "tuned-on" (real photos) or "generated".
    public var split: String
    public var photo: String
    public var generator: String
    /// IoU of the candidate with the true page.
    public var iou: Double
    /// The hand-set rules' confidence for this photo (the same on each of its rows), to score
    /// today's rules on the same candidates.
    public var rulesConfidence: Double
    /// IoU of the candidate with the rules' quad (0 when the rules keep the whole frame): whether
    /// the verifier's own best candidate agrees with the quad reported (`PageVerifier.agreed`).
    public var rulesIoU: Double
    public var features: [Double]

    /// A row of the table.
    public init(
        set: String, source: String, publisher: String? = nil, split: String, photo: String, generator: String,
        iou: Double, rulesConfidence: Double, rulesIoU: Double = 0, features: [Double]
    ) {
        self.set = set
        self.source = source
        self.publisher = publisher ?? Self.owner(of: source)
        self.split = split
        self.photo = photo
        self.generator = generator
        self.iou = iou
        self.rulesConfidence = rulesConfidence
        self.rulesIoU = rulesIoU
        self.features = features
    }

    /// The label: the candidate is the page.
    public var isPage: Bool { iou >= CandidateTable.pageIoU }

    /// The owner of an "owner/repository" source (the whole name when it has no owner).
    public static func owner(of source: String) -> String {
        source.split(separator: "/", maxSplits: 1).first.map(String.init) ?? source
    }
}

/// Reads and writes the candidate table.
public enum CandidateTable {
    /// A candidate is the page when its IoU with the true page is at least this (the 0.9 that
    /// "quads at confidence >= 0.75 are the page" is stated for).
    public static let pageIoU = 0.9
    /// Decimal places kept of every number: the fit reads what the table holds, so a re-run of
    /// the fit on the committed table gives the compiled-in weights exactly.
    static let places = 1e6

    static let leading = [
        "set", "source", "publisher", "split", "photo", "generator", "iou", "rules_confidence", "rules_iou"
    ]

    /// The header line: the leading columns, then `CandidateFeatures.names`.
    public static var header: String { (leading + CandidateFeatures.names).joined(separator: "\t") }

    /// A number as the table writes it (six decimals, shortest form).
    public static func number(_ value: Double) -> String {
        let rounded = (value * places).rounded() / places
        return rounded == 0 ? "0" : "\(rounded)"
    }

    /// One row as a line of the table.
    public static func line(_ row: CandidateRow) -> String {
        ([
            row.set, row.source, row.publisher, row.split, row.photo, row.generator, number(row.iou),
            number(row.rulesConfidence), number(row.rulesIoU)
        ]
            + row.features.map(number)).joined(separator: "\t")
    }

    /// The rows of a table's text.
    /// - Throws: `TableError` naming the line and the reason when a header or a row is malformed.
    public static func parse(_ text: String) throws -> [CandidateRow] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard let first = lines.first, String(first) == header else {
            throw TableError(line: 1, reason: "the header is not the features this build measures")
        }
        let width = leading.count + CandidateFeatures.names.count
        var rows: [CandidateRow] = []
        for (n, line) in lines.dropFirst().enumerated() {
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cells.count == width else {
                throw TableError(line: n + 2, reason: "\(cells.count) cells, expected \(width)")
            }
            let numbers = cells[6...].map { Double($0) }
            guard numbers.allSatisfy({ $0?.isFinite == true }) else {
                throw TableError(line: n + 2, reason: "a cell that is not a finite number")
            }
            let values = numbers.map { $0! }
            rows.append(
                CandidateRow(
                    set: cells[0], source: cells[1], publisher: cells[2], split: cells[3], photo: cells[4],
                    generator: cells[5],
                    iou: values[0], rulesConfidence: values[1], rulesIoU: values[2], features: Array(values[3...])))
        }
        return rows
    }

    /// A malformed table: which line and why.
    public struct TableError: Error, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "candidate table line \(line): \(reason)" }
    }
}
