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

        public init(id: String, label: String, width: Int, height: Int, thumbnailWidth: Int, thumbnailHeight: Int) {
            self.id = id
            self.label = label
            self.width = width
            self.height = height
            self.thumbnailWidth = thumbnailWidth
            self.thumbnailHeight = thumbnailHeight
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

    enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, label, behavior, viewingDirection, thumbnail, items
    }

    /// The manifest of `pages` (in order) served under `baseURL` (no trailing slash).
    public init(baseURL: String, label: String, pages: [PageEntry], behavior: Behavior = .individuals,
                viewingDirection: ViewingDirection = .leftToRight) {
        context = Self.context
        id = "\(baseURL)/manifest.json"
        self.label = Label(label)
        self.behavior = [behavior.rawValue]
        self.viewingDirection = viewingDirection.rawValue
        items = pages.map { page in
            let service = [Service(id: "\(baseURL)/\(page.id)")]
            let canvas = "\(baseURL)/canvas/\(page.id)"
            let full = Image(id: "\(baseURL)/\(page.id)/full/max/0/default.jpg", width: page.width, height: page.height,
                             service: service)
            let small = page.thumbnailWidth == page.width && page.thumbnailHeight == page.height ? full
                : Image(id: "\(baseURL)/\(page.id)/full/\(page.thumbnailWidth),\(page.thumbnailHeight)/0/default.jpg",
                        width: page.thumbnailWidth, height: page.thumbnailHeight, service: service)
            return Canvas(id: canvas, label: Label(page.label), width: page.width, height: page.height, thumbnail: [small],
                          items: [AnnotationPage(id: "\(canvas)/page", items: [
                              Annotation(id: "\(canvas)/page/image", target: canvas, body: full),
                          ])])
        }
        thumbnail = items.first.map(\.thumbnail) ?? []
    }

    /// Deterministic JSON: sorted keys (`@context` first), pretty-printed, trailing newline.
    public func encoded() throws -> Data { try IIIFJSON.encode(self) }
}
