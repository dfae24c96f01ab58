import QuireGeometry

/// The recognised text of one page: its lines and words with their boxes, in the page's own
/// pixel coordinates (x right, y down from the top-left of `OUT/pages/NNNN.jpg`).
///
/// Read from the hOCR file `quire process --ocr` writes beside each page (`HOCRReader`); the PDF
/// text layer, the IIIF annotations and the viewer's search index are all made from it, so the
/// three agree word for word.
public struct OCRPage: Sendable, Hashable {
    /// The page's size in pixels, as the hOCR's `ocr_page` bbox gives it.
    public var width: Int
    public var height: Int
    /// Lines in reading order.
    public var lines: [OCRLine]

    public init(width: Int, height: Int, lines: [OCRLine]) {
        self.width = width
        self.height = height
        self.lines = lines
    }

    /// Every word, in reading order.
    public var words: [OCRWord] { lines.flatMap(\.words) }

    /// The page's text: words joined by spaces, lines by newlines.
    public var text: String { lines.map { $0.words.map(\.text).joined(separator: " ") }.joined(separator: "\n") }
}

/// One line of text.
public struct OCRLine: Sendable, Hashable {
    /// The line's box.
    public var box: Rect
    /// The baseline as hOCR gives it: y = box.maxY + offset + slope * (x - box.minX); nil when absent.
    public var baseline: (slope: Double, offset: Double)?
    /// Words in reading order.
    public var words: [OCRWord]

    public init(box: Rect, baseline: (slope: Double, offset: Double)? = nil, words: [OCRWord]) {
        self.box = box
        self.baseline = baseline
        self.words = words
    }

    /// The baseline's y at `x` (the box's bottom when no baseline is known).
    public func baselineY(at x: Double) -> Double {
        guard let baseline else { return box.maxY }
        return box.maxY + baseline.offset + baseline.slope * (x - box.minX)
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.box == b.box && a.words == b.words && a.baseline?.slope == b.baseline?.slope
            && a.baseline?.offset == b.baseline?.offset
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(box)
        hasher.combine(words)
    }
}

/// One recognised word.
public struct OCRWord: Sendable, Hashable {
    public var text: String
    /// The word's box.
    public var box: Rect
    /// Tesseract's confidence, 0-100; nil when absent.
    public var confidence: Double?
    /// Written right to left (Arabic, Hebrew): its characters run from the box's right edge.
    public var rightToLeft: Bool

    public init(text: String, box: Rect, confidence: Double? = nil, rightToLeft: Bool = false) {
        self.text = text
        self.box = box
        self.confidence = confidence
        self.rightToLeft = rightToLeft
    }
}
