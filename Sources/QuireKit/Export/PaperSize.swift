/// Paper sizes a corrected photo's PDF page can take (`quire pdf --paper`).
public enum PaperSize: String, Sendable, Codable, CaseIterable, Equatable {
    case a3, a4, a5, letter, legal

    /// The short and long sides in millimetres (ISO 216; US sizes from their inches).
    public var millimetres: (short: Double, long: Double) {
        switch self {
        case .a3: (297, 420)
        case .a4: (210, 297)
        case .a5: (148, 210)
        case .letter: (215.9, 279.4)
        case .legal: (215.9, 355.6)
        }
    }

    /// The sides in PDF points (1/72 inch).
    public var points: (short: Double, long: Double) {
        let mm = millimetres
        return (mm.short * PDFPageSize.pointsPerMillimetre, mm.long * PDFPageSize.pointsPerMillimetre)
    }
}
