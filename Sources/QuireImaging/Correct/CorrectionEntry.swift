import QuireGeometry

/// What a person decided about one source page in the review (`docs/processing.md#corrections`):
/// its corners, its quarter turn, how a spread is split, or that it is left out. A nil field
/// leaves Quire's own decision.
public struct CorrectionEntry: Sendable, Hashable, Codable {
    /// How a spread is split: kept whole, cut where Quire finds the gutter, or cut at a share
    /// of the corrected spread's width.
    public enum Split: Sendable, Hashable, Codable {
        case join
        case gutter
        case at(Double)
    }

    /// Page corners TL, TR, BR, BL in display pixels of the oriented source.
    public var corners: Quad?
    /// Clockwise quarter turn of the corrected page (0, 90, 180, 270), replacing Quire's.
    public var rotate: Int?
    public var split: Split?
    /// The page (all parts of a split source page) is left out of the batch's outputs.
    public var exclude: Bool = false

    /// The quarter turns a `rotate` may be.
    public static let rotations: Set<Int> = [0, 90, 180, 270]
    /// The shares of the width a split may be made at: nearer an edge it would cut a page's
    /// text rather than a spread's gutter (`SpreadFinder` looks in the same middle band).
    public static let splitRange: ClosedRange<Double> = 0.2...0.8

    /// An entry with the given fields (nil = Quire decides).
    public init(corners: Quad? = nil, rotate: Int? = nil, split: Split? = nil, exclude: Bool = false) {
        self.corners = corners
        self.rotate = rotate
        self.split = split
        self.exclude = exclude
    }

    /// True for `{}`: no correction at all (the same as no entry).
    public var isEmpty: Bool { corners == nil && rotate == nil && split == nil && !exclude }

    /// The entry's canonical JSON (keys sorted, corners to 0.01 px): written into the
    /// corrections file and hashed into the page's resume key, so an edit redoes the page and
    /// an unchanged entry does not.
    public var jsonText: String {
        var fields: [String] = []
        if let corners {
            let list = corners.corners.map { "[\(Self.number($0.x)), \(Self.number($0.y))]" }.joined(separator: ", ")
            fields.append("\"corners\": [\(list)]")
        }
        if exclude { fields.append("\"exclude\": true") }
        if let rotate { fields.append("\"rotate\": \(rotate)") }
        switch split {
        case .join?: fields.append("\"split\": false")
        case .gutter?: fields.append("\"split\": true")
        case .at(let x)?: fields.append("\"split\": \(Self.number(x, places: 4))")
        case nil: break
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// `v` rounded to `places` decimals, written without a trailing `.0`.
    static func number(_ v: Double, places: Int = 2) -> String {
        let scale = places == 2 ? 100.0 : 10_000.0
        let r = max(0, (v * scale).rounded() / scale)
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
