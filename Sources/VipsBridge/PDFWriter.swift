internal import CVips
internal import CVipsShim

/// A PDF written one page at a time (cairo's PDF surface, through CVipsShim's `cvips_pdf`).
///
/// Each page is written to the file when it is added, so memory holds one page whatever the
/// page count. JPEG files are embedded as they are (the PDF's image stream holds the file's own
/// bytes); other images losslessly. Not thread-safe: one writer per document, used from one
/// thread. Call `close()` to finish the file; a writer dropped without `close()` finishes it too,
/// but its errors are then lost.
public final class PDFWriter {
    /// Where a page's image sits: the page size and the image's rect on it, in PDF points
    /// (1/72 inch), y down from the page's top-left corner.
    public struct Placement: Sendable, Equatable {
        public var pageWidth: Double, pageHeight: Double
        public var x: Double, y: Double, width: Double, height: Double

        /// An image rect `(x, y, width, height)` on a `pageWidth` x `pageHeight` page, in points.
        public init(pageWidth: Double, pageHeight: Double, x: Double = 0, y: Double = 0, width: Double, height: Double) {
            self.pageWidth = pageWidth
            self.pageHeight = pageHeight
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        var cValue: cvips_pdf_placement {
            cvips_pdf_placement(page_width: pageWidth, page_height: pageHeight, x: x, y: y, width: width, height: height)
        }
    }

    /// Document information; nil fields are left out.
    public struct Info: Sendable, Equatable {
        public var title: String?
        public var author: String?
        public var subject: String?
        public var creator: String?
        /// ISO 8601, e.g. `2026-11-24T21:00:00Z`; nil writes no creation date (reproducible files).
        public var creationDate: String?

        /// Document information with the given fields.
        public init(title: String? = nil, author: String? = nil, subject: String? = nil,
                    creator: String? = nil, creationDate: String? = nil) {
            self.title = title
            self.author = author
            self.subject = subject
            self.creator = creator
            self.creationDate = creationDate
        }
    }

    private var document: OpaquePointer?
    public let path: String
    /// Pages added so far.
    public private(set) var pageCount = 0

    /// Starts a PDF at `path` (created or truncated) with document information `info`.
    /// - Throws: `VIPSError` (operation `pdf`) when the file cannot be created.
    public init(path: String, info: Info) throws {
        try VIPSRuntime.start()
        self.path = path
        guard let document = cvips_pdf_open(path) else {
            throw VIPSError(operation: "pdf", message: VIPSRuntime.takeErrorMessage())
        }
        self.document = document
        try VIPSImage.check("pdf", cvips_pdf_set_info(document, info.title, info.author, info.subject,
                                                       info.creator, info.creationDate))
    }

    deinit {
        if let document { _ = cvips_pdf_close(document) }
    }

    private func open() throws -> OpaquePointer {
        guard let document else { throw VIPSError(operation: "pdf", message: "\(path): already closed") }
        return document
    }

    /// Adds a page showing the JPEG file at `jpegFile` (`pixelWidth` x `pixelHeight`, upright),
    /// embedded byte for byte.
    public func addJPEGPage(file jpegFile: String, pixelWidth: Int, pixelHeight: Int, placement: Placement) throws {
        let document = try open()
        var place = placement.cValue
        try VIPSImage.check("pdf", cvips_pdf_add_jpeg_page(document, jpegFile, Int32(pixelWidth), Int32(pixelHeight), &place))
        pageCount += 1
    }

    /// Adds a page showing `image` (8-bit, 1 or 3 bands, no alpha: see `VIPSImage.displayReady`),
    /// embedded losslessly.
    public func addPage(image: VIPSImage, placement: Placement) throws {
        let document = try open()
        var place = placement.cValue
        try VIPSImage.check("pdf", cvips_pdf_add_image_page(document, image.pointer, &place))
        pageCount += 1
    }

    /// A top-level bookmark `title` that opens page `page` (from 1).
    public func addBookmark(_ title: String, page: Int) throws {
        try VIPSImage.check("pdf", cvips_pdf_add_outline(try open(), title, Int32(page)))
    }

    /// Finishes the file.
    /// - Throws: `VIPSError` when anything failed on the way (the file is then incomplete).
    public func close() throws {
        let document = try open()
        self.document = nil
        try VIPSImage.check("pdf", cvips_pdf_close(document))
    }
}
