import QuireImaging
import QuireLayout

extension LayoutReport {
    /// One written page, as the report builder needs it.
    public struct PageInput: Sendable, Equatable {
        /// The input's name in the report (path as given, or relative to its folder).
        public var source: String
        public var result: PageResult
        /// Output files relative to OUT.
        public var files: Files
        /// The page's text files relative to OUT (`--ocr`), when its text was read.
        public var textFiles: (hocr: String, txt: String)?
        /// The review capture of the page's source, relative to OUT (`captures/NNNN.jpg`).
        public var captureFile: String?
        /// The page's key in a corrections file.
        public var correctionKey: String?

        /// A written page: its name in the report, what the pipeline produced, and its files
        /// relative to OUT (`textFiles` when its text was read).
        public init(source: String, result: PageResult, files: Files, textFiles: (hocr: String, txt: String)? = nil) {
            self.source = source
            self.result = result
            self.files = files
            self.textFiles = textFiles
        }

        public static func == (a: PageInput, b: PageInput) -> Bool {
            a.source == b.source && a.result == b.result && a.files == b.files
                && a.captureFile == b.captureFile && a.correctionKey == b.correctionKey
                && a.textFiles?.hocr == b.textFiles?.hocr && a.textFiles?.txt == b.textFiles?.txt
        }

        /// layout.json's `text` of the page: its files and what was read; nil when its text
        /// was not read.
        var text: PageText? {
            guard let record = result.text, let files = textFiles else { return nil }
            // Word confidences are whole numbers: one decimal is all their mean says.
            let mean = record.meanConfidence.map { ($0 * 10).rounded() / 10 }
            return PageText(
                hocr: files.hocr, txt: files.txt, language: record.language, meanConfidence: mean, words: record.words)
        }
    }

    /// Builds the report for written pages, computing each page's preview-pager and
    /// thumbnail-strip geometry with QuireLayout (docs/layout-formulas.md#pager, #strip) for `viewport`: the
    /// pager fills the viewport, the strip is `viewport.width` x `viewport.stripHeight`.
    /// - Complexity: O(n) layout queries for n pages.
    public init(viewport: Viewport, options: BatchOptions? = nil, pages: [PageInput], errors: [PageError]) {
        let ratios = pages.map { Double($0.result.width) / Double(max(1, $0.result.height)) }
        let geometry = ReferenceGeometry(viewport: viewport, aspectRatios: ratios)
        let records = pages.enumerated().map { index, input -> Page in
            let r = input.result
            let record = Page(
                index: index, source: input.source, sourcePage: r.source.page, orientation: r.orientation,
                width: r.width, height: r.height, aspectRatio: ratios[index], files: input.files,
                correction: CorrectionKind(rawValue: r.correction.kind.rawValue) ?? .none,
                quad: r.correction.quad.map { $0.corners.map { [$0.x, $0.y] } },
                quadConfidence: r.correction.quadConfidence,
                skewDegrees: r.correction.skewDegrees,
                crop: r.correction.crop.map(RectValue.init),
                edgeFill: r.correction.edgeFill,
                rotation: r.correction.rotation, rotationConfidence: r.correction.rotationConfidence,
                dpi: r.dpi.map { DPI(x: $0.x, y: $0.y) },
                previewSize: r.previewSize.map { PixelSizeValue(width: $0.width, height: $0.height) },
                thumbnailSize: r.thumbnailSize.map { PixelSizeValue(width: $0.width, height: $0.height) },
                split: r.split.map {
                    Split(
                        part: $0.part, count: $0.count, side: Split.Side($0.side),
                        rect: RectValue($0.rect), gutter: Split.Gutter($0.gutter))
                },
                text: input.text,
                pager: geometry.pager(index), strip: geometry.strip(index))
            var page = record
            if let file = input.captureFile, let size = r.captureSize, let source = r.captureCovers ?? r.sourceSize {
                page.capture = Capture(
                    file: file, width: size.width, height: size.height,
                    sourceWidth: source.width, sourceHeight: source.height)
            }
            page.correctionKey = input.correctionKey
            page.corrected = r.corrected.map(Corrected.init)
            return page
        }
        self.init(viewport: viewport, options: options, pages: records, errors: errors)
    }
}

extension LayoutReport.Split.Side {
    /// The record's side of a split page (the same two halves, named alike).
    init(_ side: PageSplit.Side) {
        switch side {
        case .left: self = .left
        case .right: self = .right
        }
    }
}

extension LayoutReport.Split.Gutter {
    /// The record's name for what showed the gutter.
    init(_ kind: SpreadFinder.Gutter.Kind) {
        switch kind {
        case .margins: self = .margins
        case .fold: self = .fold
        case .given: self = .given
        }
    }
}

extension LayoutReport.Corrected {
    /// layout.json's form of a corrections-file entry.
    init(_ entry: CorrectionEntry) {
        let split: SplitValue? =
            switch entry.split {
            case .join?: .flag(false)
            case .gutter?: .flag(true)
            case .at(let x)?: .at(x)
            case nil: nil
            }
        self.init(
            corners: entry.corners.map { $0.corners.map { [$0.x, $0.y] } }, rotate: entry.rotate, split: split,
            exclude: entry.exclude ? true : nil)
    }
}
