import QuireGeometry

/// The model of `OUT/layout.json` (schema `quire.layout/1`): the contract other apps consume.
///
/// It lives in QuireLayout, which links neither libvips nor Foundation, so an app decodes
/// layout.json with `JSONDecoder().decode(LayoutReport.self, from: data)` and this module alone
/// (and can lay the pages out again for its own viewport with `relaidOut`). Every field is
/// documented in docs/layout-json.md and `Schemas/quire.layout-1.schema.json`. Quire's writer
/// (QuireKit) encodes it deterministically: sorted keys, numbers rounded to
/// `LayoutReport.precision` decimal places, no timestamps, paths relative to OUT — two runs give
/// byte-identical files.
public struct LayoutReport: Codable, Sendable, Equatable {
    public static let schemaIdentifier = "quire.layout/1"
    /// Decimal places kept for every non-integer number.
    public static let precision = 4

    public var schema: String
    public var viewport: Viewport
    /// The options that shaped the batch (nil in files written before they were recorded).
    public var options: BatchOptions?
    public var pages: [Page]
    public var errors: [PageError]
    /// Pages a corrections file left out (`"exclude": true`), in batch order, so a viewer can
    /// list them and take the exclusion back; nil when none was.
    public var excluded: [ExcludedPage]?
    /// The corrections file the batch applied, relative to OUT, when it lives in OUT
    /// (`corrections.json`, the review's); nil otherwise.
    public var corrections: String?

    /// A report of `pages` (already laid out) and `errors` for `viewport`; see `init(viewport:pages:errors:)` taking `PageInput`s to compute the geometry.
    public init(viewport: Viewport, options: BatchOptions? = nil, pages: [Page], errors: [PageError]) {
        self.schema = Self.schemaIdentifier
        self.viewport = viewport
        self.options = options
        self.pages = pages
        self.errors = errors
    }

    /// The `quire process` options that decided what the files are, so an app knows what it
    /// is showing (and a person what to pass to redo it) without the command line.
    public struct BatchOptions: Codable, Sendable, Equatable {
        /// The pages' format: `jpeg`, `png` or `webp`.
        public var format: String
        /// JPEG and WebP quality, 1-100.
        public var quality: Int
        /// Previews fit inside this many pixels; thumbnails inside `thumbnailSize`.
        public var previewSize: Int
        public var thumbnailSize: Int
        /// `--correct`: `auto` or `none`.
        public var correct: String
        /// `--paper`: `auto`, `a4`, `letter` or `legal`.
        public var paper: String
        /// The resolution PDF pages were rendered at (`--dpi`).
        public var pdfDPI: Double
        /// Only thumbnails were written (`--thumbnails-only`): pages and previews are absent.
        public var thumbnailsOnly: Bool
        /// Clean-up: `--edges` (`auto`, `keep`), `--background` (`keep`, `white`), `--mode`
        /// (`colour`, `grey`, `bw`); nil in files written before them.
        public var edges: String?
        public var background: String?
        public var mode: String?
        /// `--rotate`: `auto` or `none`; nil in files written before it.
        public var rotate: String?
        /// `--split` (`auto`, `none`) and `--split-order` (`ltr`, `rtl`); nil in files written before them.
        public var split: String?
        public var splitOrder: String?

        /// The recorded options of a batch.
        public init(
            format: String, quality: Int, previewSize: Int, thumbnailSize: Int, correct: String, paper: String,
            pdfDPI: Double, thumbnailsOnly: Bool, edges: String? = nil, background: String? = nil, mode: String? = nil,
            rotate: String? = nil, split: String? = nil, splitOrder: String? = nil
        ) {
            self.rotate = rotate
            self.split = split
            self.splitOrder = splitOrder
            self.edges = edges
            self.background = background
            self.mode = mode
            self.format = format
            self.quality = quality
            self.previewSize = previewSize
            self.thumbnailSize = thumbnailSize
            self.correct = correct
            self.paper = paper
            self.pdfDPI = pdfDPI
            self.thumbnailsOnly = thumbnailsOnly
        }
    }

    /// A page's resolution in dots per inch: written as one number when it is the same across
    /// and down (nearly always), as `{"x", "y"}` otherwise (a fax's 204 x 196).
    public struct DPI: Codable, Sendable, Equatable {
        public var x: Double
        public var y: Double

        /// `x` dots per inch across, `y` down.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }

        public init(from decoder: any Decoder) throws {
            if let single = try? decoder.singleValueContainer(), let value = try? single.decode(Double.self) {
                self.init(x: value, y: value)
                return
            }
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(x: try c.decode(Double.self, forKey: .x), y: try c.decode(Double.self, forKey: .y))
        }

        public func encode(to encoder: any Encoder) throws {
            if x == y {
                var single = encoder.singleValueContainer()
                try single.encode(x)
            } else {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(x, forKey: .x)
                try c.encode(y, forKey: .y)
            }
        }

        private enum CodingKeys: String, CodingKey { case x, y }
    }

    /// A pixel size as `{"width", "height"}`.
    public struct PixelSizeValue: Codable, Sendable, Equatable {
        public var width: Int
        public var height: Int

        /// `width` x `height` pixels.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// The reference viewport the geometry was computed for, in points.
    public struct Viewport: Codable, Sendable, Equatable {
        public var width: Double
        public var height: Double
        /// Height of the thumbnail strip (the strip spans the full width).
        public var stripHeight: Double

        /// A reference viewport; the defaults are an iPhone's 390 x 844 points with a 66 pt strip.
        public init(width: Double = 390, height: Double = 844, stripHeight: Double = 66) {
            self.width = width
            self.height = height
            self.stripHeight = stripHeight
        }
    }

    /// A rect as `{"x","y","width","height"}`.
    public struct RectValue: Codable, Sendable, Equatable {
        public var x: Double, y: Double, width: Double, height: Double

        /// The JSON form of `rect`.
        public init(_ rect: Rect) {
            x = rect.x; y = rect.y; width = rect.width; height = rect.height
        }

        public var rect: Rect { Rect(x: x, y: y, width: width, height: height) }

        /// Every number passed through `round` (layout.json's fixed precision).
        public func map(_ round: (Double) -> Double) -> RectValue {
            RectValue(Rect(x: round(x), y: round(y), width: round(width), height: round(height)))
        }
    }

    /// Output files of one page, relative to OUT.
    public struct Files: Codable, Sendable, Equatable {
        public var page: String
        public var preview: String
        public var thumbnail: String
        /// `masks/NNNN.png` when `--masks` was given.
        public var mask: String?

        /// A page's files, relative to OUT; `mask` only with `--masks`.
        public init(page: String, preview: String, thumbnail: String, mask: String? = nil) {
            self.page = page
            self.preview = preview
            self.thumbnail = thumbnail
            self.mask = mask
        }
    }

    /// Preview-pager geometry of one page at rest (docs/layout-formulas.md#pager), in viewport points.
    public struct PagerGeometry: Codable, Sendable, Equatable {
        /// The cell frame in content coordinates: `(i·W, 0, W, H)`.
        public var frame: RectValue
        /// The aspect-fit image rect in cell coordinates (the cell's mask).
        public var mask: RectValue
        /// The content offset x that shows this page.
        public var snapOffset: Double

        /// A page's pager geometry: its cell, its image rect inside the cell, and the offset that shows it.
        public init(frame: RectValue, mask: RectValue, snapOffset: Double) {
            self.frame = frame
            self.mask = mask
            self.snapOffset = snapOffset
        }
    }

    /// Thumbnail-strip geometry of one page (docs/layout-formulas.md#strip), in points, strip coordinates.
    public struct StripGeometry: Codable, Sendable, Equatable {
        /// The cell at rest (no page focused near it): `w x h` centred on its slot.
        public var frame: RectValue
        /// The cell when the strip rests on this page: expanded to the page's aspect ratio.
        public var focusedFrame: RectValue
        /// The content offset x that focuses this page.
        public var snapOffset: Double

        /// A page's strip geometry: its cell at rest and focused, and the offset that focuses it.
        public init(frame: RectValue, focusedFrame: RectValue, snapOffset: Double) {
            self.frame = frame
            self.focusedFrame = focusedFrame
            self.snapOffset = snapOffset
        }
    }

    /// Which page of an open book a written page is: its source (one photo or scan of a spread)
    /// was split in two at the gutter.
    public struct Split: Codable, Sendable, Equatable {
        /// Which half of a spread a page is; written as `left` or `right`.
        public enum Side: String, Codable, Sendable, Hashable, CaseIterable { case left, right }
        /// What showed a spread's gutter; written as `margins`, `fold` or `given` (the corrections file said where).
        public enum Gutter: String, Codable, Sendable, Hashable, CaseIterable { case margins, fold, given }

        /// The page's place among the spread's pages in reading order (1 or 2; with
        /// `--split-order rtl` the right page is 1).
        public var part: Int
        /// How many pages the spread was split into (2).
        public var count: Int
        /// `left` or `right`: which half of the spread it is.
        public var side: Side
        /// The half, in pixels of the corrected spread before it was split.
        public var rect: RectValue
        /// What showed the gutter: `margins` (no ink crosses the middle) or `fold` (the dark
        /// line where a photographed book's pages meet).
        public var gutter: Gutter

        /// The record of page `part` of `count`, the `side` half `rect` of its spread.
        public init(part: Int, count: Int, side: Side, rect: RectValue, gutter: Gutter) {
            self.part = part
            self.count = count
            self.side = side
            self.rect = rect
            self.gutter = gutter
        }
    }

    /// The text `quire process --ocr` read on a page: its files (relative to OUT) and how
    /// much it found. Boxes in the hOCR are in the written page's own pixels.
    public struct PageText: Codable, Sendable, Equatable {
        /// `text/NNNN.hocr`: Tesseract's hOCR of the page (words, lines, boxes, confidences).
        public var hocr: String
        /// `text/NNNN.txt`: the plain text, UTF-8.
        public var txt: String
        /// The languages it was read in, as Tesseract names them: `eng`, `eng+deu`.
        public var language: String
        /// The mean of the words' confidences, 0-100; null when no word was found.
        public var meanConfidence: Double?
        /// How many words were found.
        public var words: Int

        /// A page's text record.
        public init(hocr: String, txt: String, language: String, meanConfidence: Double?, words: Int) {
            self.hocr = hocr
            self.txt = txt
            self.language = language
            self.meanConfidence = meanConfidence
            self.words = words
        }

        /// Encodes every key, `meanConfidence` as null when no word was found.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(hocr, forKey: .hocr)
            try c.encode(txt, forKey: .txt)
            try c.encode(language, forKey: .language)
            try c.encode(meanConfidence, forKey: .meanConfidence)
            try c.encode(words, forKey: .words)
        }

        private enum CodingKeys: String, CodingKey { case hocr, txt, language, meanConfidence, words }
    }

    /// A source page left out by a corrections file's `exclude`.
    public struct ExcludedPage: Codable, Sendable, Equatable {
        public var source: String
        /// Page inside a multi-page file, from 0.
        public var sourcePage: Int
        /// The page's key in the corrections file.
        public var correctionKey: String

        /// Page `sourcePage` of `source`, excluded under `correctionKey`.
        public init(source: String, sourcePage: Int, correctionKey: String) {
            self.source = source
            self.sourcePage = sourcePage
            self.correctionKey = correctionKey
        }
    }

    /// The review's capture of a page's source: a small JPEG of the whole oriented source (before
    /// correction). `quad` coordinates map onto it as `x * width / sourceWidth`.
    public struct Capture: Codable, Sendable, Equatable {
        /// `captures/NNNN.jpg`, relative to OUT (both pages of a split source share one).
        public var file: String
        /// The capture's pixel size.
        public var width: Int
        public var height: Int
        /// The oriented source's size in display pixels: the frame of `quad`.
        public var sourceWidth: Int
        public var sourceHeight: Int

        /// A capture `width` x `height` of a source `sourceWidth` x `sourceHeight`.
        public init(file: String, width: Int, height: Int, sourceWidth: Int, sourceHeight: Int) {
            self.file = file
            self.width = width
            self.height = height
            self.sourceWidth = sourceWidth
            self.sourceHeight = sourceHeight
        }
    }

    /// The corrections-file entry applied to a page, as the file holds it.
    public struct Corrected: Codable, Sendable, Equatable {
        /// A `split` value: `false` (kept whole), `true` (cut at the gutter found) or a share
        /// of the spread's width.
        public enum SplitValue: Codable, Sendable, Equatable {
            case flag(Bool)
            case at(Double)

            public init(from decoder: any Decoder) throws {
                let c = try decoder.singleValueContainer()
                if let flag = try? c.decode(Bool.self) {
                    self = .flag(flag)
                } else {
                    self = .at(try c.decode(Double.self))
                }
            }

            public func encode(to encoder: any Encoder) throws {
                var c = encoder.singleValueContainer()
                switch self {
                case .flag(let flag): try c.encode(flag)
                case .at(let x): try c.encode(x)
                }
            }
        }
        /// Corners TL, TR, BR, BL as `[x, y]` in display pixels of the oriented source.
        public var corners: [[Double]]?
        /// Clockwise quarter turn: 0, 90, 180 or 270.
        public var rotate: Int?
        public var split: SplitValue?
        public var exclude: Bool?

        /// An entry with the given fields (nil = not in the entry).
        public init(corners: [[Double]]? = nil, rotate: Int? = nil, split: SplitValue? = nil, exclude: Bool? = nil) {
            self.corners = corners
            self.rotate = rotate
            self.split = split
            self.exclude = exclude
        }
    }

    /// What the correction step did to a page.
    public enum CorrectionKind: String, Codable, Sendable, Equatable {
        /// Written as decoded (correction off, or nothing convincing found).
        case none
        /// A page quad was found (or given) in a photo and straightened.
        case perspective
        /// A scan was deskewed and trimmed.
        case deskew
    }

    /// One written page.
    public struct Page: Codable, Sendable, Equatable {
        /// Position in the batch, from 0 (files are numbered from 0001).
        public var index: Int
        /// The input path as given, or relative to the input folder it was found in.
        public var source: String
        /// Page inside a multi-page file (TIFF, PDF), from 0.
        public var sourcePage: Int
        /// The EXIF orientation (1-8) that was applied.
        public var orientation: Int
        /// Pixel size of the written page.
        public var width: Int
        public var height: Int
        /// width / height.
        public var aspectRatio: Double
        public var files: Files
        public var correction: CorrectionKind
        /// Detected (or user-given) page corners TL, TR, BR, BL as `[x, y]` in display pixels of
        /// the oriented source; null when no quad was used.
        public var quad: [[Double]]?
        public var quadConfidence: Double?
        /// Estimated skew of a scan (positive = content rotated counter-clockwise); null for photos.
        public var skewDegrees: Double?
        /// The trim rect kept after deskewing, in pixels of the deskewed image; null when untrimmed.
        public var crop: RectValue?
        /// Share of the page filled with the paper colour as scanner edge; null when none was.
        public var edgeFill: Double?
        /// The clockwise quarter turn applied so the text reads upright: 0, 90, 180 or 270 (nil
        /// in files written before it was recorded).
        public var rotation: Int?
        /// How sure the orientation detector was (Tesseract's confidence); null when it was not
        /// asked or could not tell.
        public var rotationConfidence: Double?
        /// The page's resolution, also written into its files; null when unknown (a photo
        /// straightened without `--paper`, a file that states none).
        public var dpi: DPI?
        /// Pixel sizes of the preview and the thumbnail files, so an app can lay them out before
        /// they load (null only in files written before they were recorded).
        public var previewSize: PixelSizeValue?
        public var thumbnailSize: PixelSizeValue?
        /// Which page of an open book this is, when its source was split into two pages; null
        /// for a page written whole (absent in files written before splitting).
        public var split: Split?
        /// The text read on the page with `--ocr`; absent when its text was not read.
        public var text: PageText?
        /// The review's capture of the page's source; absent when none was written.
        public var capture: Capture?
        /// The key naming this page in a corrections file (`source`, or `source#N` for page N of
        /// a multi-page file); absent in files written before corrections.
        public var correctionKey: String?
        /// The corrections-file entry applied to the page; absent when none was.
        public var corrected: Corrected?
        public var pager: PagerGeometry
        public var strip: StripGeometry

        /// A page record with every field given (the report builder and `quire merge` make them).
        public init(
            index: Int, source: String, sourcePage: Int, orientation: Int, width: Int, height: Int,
            aspectRatio: Double, files: Files, correction: CorrectionKind = .none,
            quad: [[Double]]? = nil, quadConfidence: Double? = nil, skewDegrees: Double? = nil,
            crop: RectValue? = nil, edgeFill: Double? = nil, rotation: Int? = nil,
            rotationConfidence: Double? = nil, dpi: DPI? = nil, previewSize: PixelSizeValue? = nil,
            thumbnailSize: PixelSizeValue? = nil, split: Split? = nil, text: PageText? = nil,
            pager: PagerGeometry, strip: StripGeometry
        ) {
            self.split = split
            self.text = text
            self.index = index
            self.source = source
            self.sourcePage = sourcePage
            self.orientation = orientation
            self.width = width
            self.height = height
            self.aspectRatio = aspectRatio
            self.files = files
            self.correction = correction
            self.quad = quad
            self.quadConfidence = quadConfidence
            self.skewDegrees = skewDegrees
            self.crop = crop
            self.edgeFill = edgeFill
            self.rotation = rotation
            self.rotationConfidence = rotationConfidence
            self.dpi = dpi
            self.previewSize = previewSize
            self.thumbnailSize = thumbnailSize
            self.pager = pager
            self.strip = strip
        }

        // Optional fields are written as explicit nulls so every page has the same keys.
        /// Encodes the page with every key present (absent optionals as `null`), so every page of layout.json has the same keys.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(index, forKey: .index)
            try c.encode(source, forKey: .source)
            try c.encode(sourcePage, forKey: .sourcePage)
            try c.encode(orientation, forKey: .orientation)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
            try c.encode(aspectRatio, forKey: .aspectRatio)
            try c.encode(files, forKey: .files)
            try c.encode(correction, forKey: .correction)
            try c.encode(quad, forKey: .quad)
            try c.encode(quadConfidence, forKey: .quadConfidence)
            try c.encode(skewDegrees, forKey: .skewDegrees)
            try c.encode(crop, forKey: .crop)
            try c.encode(edgeFill, forKey: .edgeFill)
            try c.encodeIfPresent(rotation, forKey: .rotation)
            try c.encode(rotationConfidence, forKey: .rotationConfidence)
            try c.encode(dpi, forKey: .dpi)
            try c.encode(previewSize, forKey: .previewSize)
            try c.encode(thumbnailSize, forKey: .thumbnailSize)
            try c.encode(split, forKey: .split)
            try c.encodeIfPresent(text, forKey: .text)
            try c.encodeIfPresent(capture, forKey: .capture)
            try c.encodeIfPresent(correctionKey, forKey: .correctionKey)
            try c.encodeIfPresent(corrected, forKey: .corrected)
            try c.encode(pager, forKey: .pager)
            try c.encode(strip, forKey: .strip)
        }
    }

    /// An input that produced no page, and why.
    public struct PageError: Codable, Sendable, Equatable {
        public var source: String
        /// The page inside a multi-page file, when the failure concerns one page only.
        public var sourcePage: Int?
        /// What went wrong, as a stable code for programs (`ImagingError.Kind.code`, or
        /// `no-images` for a folder without images); nil only in files written before codes.
        public var code: String?
        /// The same for a person, in words.
        public var message: String

        /// The code of an input folder in which no image was found.
        public static let noImagesCode = "no-images"

        /// A failure of `source` (page `sourcePage` of a multi-page file, from 0): `code` for
        /// programs, the reason `message` for people.
        public init(source: String, sourcePage: Int? = nil, code: String? = nil, message: String) {
            self.source = source
            self.sourcePage = sourcePage
            self.code = code
            self.message = message
        }
    }
}

extension LayoutReport {
    /// The magnitude (2^52) from which every Double is a whole number.
    static let noFractionMagnitude = 0x1p52

    /// Rounds to `precision` decimals (halves away from zero) and turns -0 into 0, so encoded
    /// numbers do not depend on the last bits of a computation. Never returns infinity or NaN.
    public static func round(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        // From 2^52 on a Double has no fraction left to round, and scaling it would overflow
        // to infinity near 1e308 (which JSON cannot hold).
        guard abs(value) < Self.noFractionMagnitude else { return value }
        let scale = 10_000.0
        let r = (value * scale).rounded(.toNearestOrAwayFromZero) / scale
        return r == 0 ? 0 : r
    }

    /// A copy with every floating-point number rounded as layout.json writes it.
    public func roundedForOutput() -> LayoutReport {
        func r(_ v: RectValue) -> RectValue { v.map(Self.round) }
        var copy = self
        copy.viewport = Viewport(
            width: Self.round(viewport.width), height: Self.round(viewport.height),
            stripHeight: Self.round(viewport.stripHeight))
        copy.options?.pdfDPI = Self.round(options?.pdfDPI ?? 0)
        copy.pages = pages.map { page in
            var p = page
            p.aspectRatio = Self.round(p.aspectRatio)
            p.quad = p.quad?.map { $0.map(Self.round) }
            p.quadConfidence = p.quadConfidence.map(Self.round)
            p.skewDegrees = p.skewDegrees.map(Self.round)
            p.crop = p.crop.map(r)
            p.edgeFill = p.edgeFill.map(Self.round)
            p.rotationConfidence = p.rotationConfidence.map(Self.round)
            let mean = p.text?.meanConfidence.map(Self.round)
            p.text?.meanConfidence = mean
            p.dpi = p.dpi.map { DPI(x: Self.round($0.x), y: Self.round($0.y)) }
            if var corrected = p.corrected {
                corrected.corners = corrected.corners?.map { $0.map(Self.round) }
                if case .at(let x)? = corrected.split { corrected.split = .at(Self.round(x)) }
                p.corrected = corrected
            }
            p.pager = PagerGeometry(
                frame: r(p.pager.frame), mask: r(p.pager.mask), snapOffset: Self.round(p.pager.snapOffset))
            p.strip = StripGeometry(
                frame: r(p.strip.frame), focusedFrame: r(p.strip.focusedFrame),
                snapOffset: Self.round(p.strip.snapOffset))
            return p
        }
        return copy
    }
}
