import Foundation

/// A IIIF Presentation API 3.0 manifest of a batch: one canvas per page, in page order, each
/// painted by its page image with a level-0 image service.
///
/// Only the parts Quire writes are modelled. Identifiers are built from the base URL the
/// folder `OUT/iiif` is served at: `BASE/manifest.json`, `BASE/canvas/0001`, the image service
/// `BASE/0001` (whose `info.json` is `BASE/0001/info.json`).
public struct IIIFManifest: Encodable, Sendable, Equatable {
    public static let context = "http://iiif.io/api/presentation/3/context.json"

    /// How a viewer should present the canvases (Presentation 3 `behavior`).
    public enum Behavior: String, Sendable, Codable, CaseIterable {
        /// Each page on its own (a batch of separate documents).
        case individuals
        /// Pages of a bound book: viewers show facing pages.
        case paged
        /// One long strip (a scroll, or a receipt in parts).
        case continuous
    }

    /// The order pages are read in (Presentation 3 `viewingDirection`).
    public enum ViewingDirection: String, Sendable, Codable, CaseIterable {
        case leftToRight = "left-to-right"
        case rightToLeft = "right-to-left"
        case topToBottom = "top-to-bottom"
        case bottomToTop = "bottom-to-top"
    }

    /// A language map with one value and no language (`{"none": ["text"]}`).
    public struct Label: Encodable, Sendable, Equatable {
        public var none: [String]
        public init(_ text: String) { none = [text] }
    }

    public struct Service: Encodable, Sendable, Equatable {
        public var id: String
        public var type = "ImageService3"
        public var profile = "level0"
    }

    public struct Image: Encodable, Sendable, Equatable {
        public var id: String
        public var type = "Image"
        public var format = "image/jpeg"
        public var width: Int
        public var height: Int
        public var service: [Service]
    }

    public struct Annotation: Encodable, Sendable, Equatable {
        public var id: String
        public var type = "Annotation"
        public var motivation = "painting"
        public var target: String
        public var body: Image
    }

    public struct AnnotationPage: Encodable, Sendable, Equatable {
        public var id: String
        public var type = "AnnotationPage"
        public var items: [Annotation]
    }

    public struct Canvas: Encodable, Sendable, Equatable {
        public var id: String
        public var type = "Canvas"
        public var label: Label
        public var width: Int
        public var height: Int
        public var thumbnail: [Image]
        public var items: [AnnotationPage]
        /// The page's recognised text: one annotation page, referenced by its URL.
        public var annotations: [Reference]?
    }

    /// A resource named by its URL and type only (viewers fetch it when they need it).
    public struct Reference: Encodable, Sendable, Equatable {
        public var id: String
        public var type: String
    }

    /// A Range of the manifest's `structures`: the canvases one source file gave.
    public struct Range: Encodable, Sendable, Equatable {
        public var id: String
        public var type = "Range"
        public var label: Label
        public var items: [Reference]
    }

    /// An alternative rendering of the whole batch (the PDF).
    public struct Rendering: Encodable, Sendable, Equatable {
        public var id: String
        public var type = "Text"
        public var label: Label
        public var format: String
    }

    /// One `metadata` pair: a label and a value, shown by viewers in their information panel.
    public struct MetadataEntry: Encodable, Sendable, Equatable {
        public var label: Label
        public var value: Label
        public init(_ label: String, _ value: String) {
            self.label = Label(label)
            self.value = Label(value)
        }
    }

    /// One page as the manifest needs it.
    public struct PageEntry: Sendable, Equatable {
        /// The image service's name under BASE (the page file's number, `0001`).
        public var id: String
        public var label: String
        public var width: Int
        public var height: Int
        /// The whole-page size used as the thumbnail (one of info.json's `sizes`).
        public var thumbnailWidth: Int
        public var thumbnailHeight: Int
        /// The source file the page came from (a Range per file groups its pages).
        public var source: String
        /// The URL of the page's text annotations, when it has recognised text.
        public var text: String?

        public init(
            id: String, label: String, width: Int, height: Int, thumbnailWidth: Int, thumbnailHeight: Int,
            source: String = "", text: String? = nil
        ) {
            self.id = id
            self.label = label
            self.width = width
            self.height = height
            self.thumbnailWidth = thumbnailWidth
            self.thumbnailHeight = thumbnailHeight
            self.source = source
            self.text = text
        }
    }

    public var context: String
    public var id: String
    public var type = "Manifest"
    public var label: Label
    public var behavior: [String]
    public var viewingDirection: String
    public var thumbnail: [Image]
    public var items: [Canvas]
    /// One Range per source file (the canvases it gave, in order); nil when no page names its source.
    public var structures: [Range]?
    /// The batch's PDF, when it is published beside the manifest.
    public var rendering: [Rendering]?
    public var metadata: [MetadataEntry]

    enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, label, behavior, viewingDirection, thumbnail, items, structures, rendering, metadata
    }

    /// The manifest of `pages` (in order) served under `baseURL` (no trailing slash).
    /// - Parameters:
    ///   - pdf: the URL of the batch's PDF, when published.
    ///   - metadata: pairs shown in viewers' information panels.
    public init(
        baseURL: String, label: String, pages: [PageEntry], behavior: Behavior = .individuals,
        viewingDirection: ViewingDirection = .leftToRight, pdf: String? = nil, metadata: [MetadataEntry] = []
    ) {
        context = Self.context
        self.metadata = metadata
        rendering = pdf.map { [Rendering(id: $0, label: Label("PDF of all pages"), format: "application/pdf")] }
        id = "\(baseURL)/manifest.json"
        self.label = Label(label)
        self.behavior = [behavior.rawValue]
        self.viewingDirection = viewingDirection.rawValue
        items = pages.map { page in
            let service = [Service(id: "\(baseURL)/\(page.id)")]
            let canvas = "\(baseURL)/canvas/\(page.id)"
            let full = Image(
                id: "\(baseURL)/\(page.id)/full/max/0/default.jpg", width: page.width, height: page.height,
                service: service)
            let small =
                page.thumbnailWidth == page.width && page.thumbnailHeight == page.height
                ? full
                : Image(
                    id: "\(baseURL)/\(page.id)/full/\(page.thumbnailWidth),\(page.thumbnailHeight)/0/default.jpg",
                    width: page.thumbnailWidth, height: page.thumbnailHeight, service: service)
            return Canvas(
                id: canvas, label: Label(page.label), width: page.width, height: page.height, thumbnail: [small],
                items: [
                    AnnotationPage(
                        id: "\(canvas)/page",
                        items: [
                            Annotation(id: "\(canvas)/page/image", target: canvas, body: full)
                        ])
                ],
                annotations: page.text.map { [Reference(id: $0, type: "AnnotationPage")] })
        }
        thumbnail = items.first.map(\.thumbnail) ?? []
        var ranges: [Range] = []
        for (i, page) in pages.enumerated() where !page.source.isEmpty {
            let canvas = Reference(id: items[i].id, type: "Canvas")
            if let last = ranges.last, last.label.none.first == page.source, i > 0, pages[i - 1].source == page.source {
                ranges[ranges.count - 1].items.append(canvas)
            } else {
                ranges.append(
                    Range(id: "\(baseURL)/range/\(ranges.count + 1)", label: Label(page.source), items: [canvas]))
            }
        }
        structures = ranges.isEmpty ? nil : ranges
    }

    /// Deterministic JSON: sorted keys (`@context` first), pretty-printed, trailing newline.
    public func encoded() throws -> Data { try IIIFJSON.encode(self) }
}

/// The recognised text of one page as a IIIF annotation page (Presentation 3): one
/// `supplementing` annotation per line, its body the line's text, its target the line's region
/// of the canvas. Written as `OUT/iiif/text/0001.json` and referenced from the canvas, so the
/// manifest stays small and viewers (Mirador, Universal Viewer) load a page's text when shown.
public struct IIIFTextAnnotations: Encodable, Sendable, Equatable {
    public struct Body: Encodable, Sendable, Equatable {
        public var type = "TextualBody"
        public var value: String
        public var format = "text/plain"
    }

    public struct Annotation: Encodable, Sendable, Equatable {
        public var id: String
        public var type = "Annotation"
        public var motivation = "supplementing"
        public var body: Body
        public var target: String
    }

    public var context = IIIFManifest.context
    public var id: String
    public var type = "AnnotationPage"
    public var items: [Annotation]

    enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, items
    }

    /// The annotations of `text` on the canvas `canvas` (`width` x `height`), published at `id`.
    public init(id: String, canvas: String, width: Int, height: Int, text: OCRPage) {
        self.id = id
        let sx = Double(width) / Double(max(1, text.width)), sy = Double(height) / Double(max(1, text.height))
        items = text.lines.enumerated().compactMap { n, line in
            let value = line.words.map(\.text).joined(separator: " ")
            guard !value.isEmpty else { return nil }
            let x = max(0, Int((line.box.minX * sx).rounded(.down))),
                y = max(0, Int((line.box.minY * sy).rounded(.down)))
            let w = max(1, min(width - x, Int((line.box.width * sx).rounded(.up))))
            let h = max(1, min(height - y, Int((line.box.height * sy).rounded(.up))))
            return Annotation(
                id: "\(id)#line-\(n + 1)", body: Body(value: value), target: "\(canvas)#xywh=\(x),\(y),\(w),\(h)")
        }
    }

    /// Deterministic JSON, as the manifest's.
    public func encoded() throws -> Data { try IIIFJSON.encode(self) }
}
