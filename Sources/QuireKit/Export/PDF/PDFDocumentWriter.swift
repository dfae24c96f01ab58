import Foundation
import VipsBridge

/// A PDF of page images written one page at a time, with an optional invisible text layer per
/// page and, when asked, the parts PDF/A-2b requires.
///
/// Quire writes its PDFs itself (no cairo): a JPEG page goes in as its own bytes (a `DCTDecode`
/// image stream that is the file), any other page as its pixels, Flate-compressed (lossless);
/// memory holds one page whatever the page count. The text layer is `PDFTextLayer`'s, in the
/// one-glyph font of `GlyphlessFont`, written once per document. Not thread-safe: one writer per
/// document, from one thread.
final class PDFDocumentWriter {
    /// Document information; nil fields are left out.
    struct Info: Equatable {
        var title: String
        var author: String?
        var creator: String
        /// ISO 8601 UTC (`2026-11-24T21:00:00Z`); nil writes no date, so reruns give the same bytes.
        var creationDate: String?
    }

    /// A page's image.
    enum Image {
        /// A baseline or progressive JPEG file, 8-bit, grey (1 component) or colour (3).
        case jpeg(path: String, width: Int, height: Int, components: Int)
        /// 8-bit pixels, rows top to bottom, 1 (grey) or 3 (RGB) bands.
        case pixels([UInt8], width: Int, height: Int, bands: Int)
    }

    /// What the file claims to be.
    enum Conformance: Equatable {
        case plain
        /// PDF/A-2b: XMP metadata, an sRGB output intent with its ICC profile, fonts embedded.
        case pdfA2b
    }

    static let producer = "Quire"

    private let writer: PDFObjectWriter
    private let info: Info
    private let conformance: Conformance
    private let pagesRef: PDFObjectWriter.Ref
    private var pageRefs: [PDFObjectWriter.Ref] = []
    private var bookmarks: [(title: String, page: Int)] = []
    private var fontRef: PDFObjectWriter.Ref?
    /// Bytes of text-layer content written so far (for the size report).
    private(set) var textBytes = 0

    /// Starts the file at `path`.
    init(path: String, info: Info, conformance: Conformance) throws {
        writer = try PDFObjectWriter(path: path, minorVersion: 5)
        self.info = info
        self.conformance = conformance
        pagesRef = writer.reserve()
    }

    /// Pages added so far.
    var pageCount: Int { pageRefs.count }

    /// Adds a page showing `image` placed by `placement`, with `text` as its invisible text layer.
    func addPage(_ image: Image, placement: PDFPagePlacement, text: OCRPage?) throws {
        let imageRef = writer.reserve()
        let pixelWidth: Int, pixelHeight: Int
        switch image {
        case .jpeg(let path, let width, let height, let components):
            (pixelWidth, pixelHeight) = (width, height)
            try writer.stream(
                imageRef, dictionary: imageDictionary(width, height, components) + " /Filter /DCTDecode", file: path)
        case .pixels(let bytes, let width, let height, let bands):
            (pixelWidth, pixelHeight) = (width, height)
            guard bytes.count == width * height * bands else {
                throw ExportError(path: "pdf", reason: "page pixels do not match \(width)x\(height)x\(bands)")
            }
            try writer.stream(
                imageRef, dictionary: imageDictionary(width, height, bands) + " /Filter /FlateDecode",
                data: try Deflate.compress(bytes))
        }
        let imageY = placement.pageHeight - placement.y - placement.height
        var content = "q \(n(placement.width)) 0 0 \(n(placement.height)) \(n(placement.x)) \(n(imageY)) cm /Im0 Do Q\n"
        var resources = "/XObject << /Im0 \(imageRef.text) >>"
        if let text {
            let layer = PDFTextLayer.operators(
                for: text, pixelWidth: pixelWidth, pixelHeight: pixelHeight, placement: placement)
            if !layer.isEmpty {
                content += layer
                textBytes += layer.utf8.count
                resources += " /Font << /\(PDFTextLayer.fontName) \(try font().text) >>"
            }
        }
        let contentRef = writer.reserve()
        try writer.stream(
            contentRef, dictionary: "/Filter /FlateDecode", data: try Deflate.compress(Array(content.utf8)))
        let pageRef = writer.reserve()
        try writer.object(
            pageRef,
            """
            << /Type /Page /Parent \(pagesRef.text) /MediaBox [0 0 \(n(placement.pageWidth)) \(n(placement.pageHeight))] \
            /Resources << \(resources) >> /Contents \(contentRef.text) >>
            """)
        pageRefs.append(pageRef)
    }

    /// A top-level bookmark `title` that opens page `page` (from 1).
    func addBookmark(_ title: String, page: Int) {
        bookmarks.append((title, page))
    }

    /// Writes the page tree, bookmarks, metadata and cross-reference table, and closes the file.
    func close() throws {
        try writer.object(
            pagesRef,
            "<< /Type /Pages /Kids [\(pageRefs.map(\.text).joined(separator: " "))] /Count \(pageRefs.count) >>")
        var catalog = "/Type /Catalog /Pages \(pagesRef.text)"
        if let outlines = try writeOutlines() { catalog += " /Outlines \(outlines.text) /PageMode /UseOutlines" }
        let infoRef = writer.reserve()
        var infoText =
            "/Title \(PDFSyntax.textString(info.title)) /Creator \(PDFSyntax.textString(info.creator)) /Producer \(PDFSyntax.textString(Self.producer))"
        if let author = info.author { infoText += " /Author \(PDFSyntax.textString(author))" }
        if let date = info.creationDate.flatMap(PDFSyntax.date(fromISO:)) { infoText += " /CreationDate (\(date))" }
        try writer.object(infoRef, "<< \(infoText) >>")
        if conformance == .pdfA2b {
            let metadata = writer.reserve()
            let xmp = PDFAMetadata.xmp(
                title: info.title, author: info.author, creator: info.creator, producer: Self.producer,
                createDate: info.creationDate)
            try writer.stream(metadata, dictionary: "/Type /Metadata /Subtype /XML", data: Array(xmp.utf8))
            let profile = writer.reserve()
            try writer.stream(
                profile, dictionary: "/N 3 /Filter /FlateDecode",
                data: try Deflate.compress(try VIPSRuntime.iccProfile(named: "srgb")))
            catalog +=
                " /Metadata \(metadata.text) /OutputIntents [<< /Type /OutputIntent /S /GTS_PDFA1"
                + " /OutputConditionIdentifier (sRGB IEC61966-2.1) /Info (sRGB IEC61966-2.1) /DestOutputProfile \(profile.text) >>]"
        }
        let catalogRef = writer.reserve()
        try writer.object(catalogRef, "<< \(catalog) >>")
        try writer.finish(root: catalogRef, info: infoRef)
    }

    /// Closes the file without finishing it.
    func abandon() { writer.abandon() }

    private func imageDictionary(_ width: Int, _ height: Int, _ components: Int) -> String {
        "/Type /XObject /Subtype /Image /Width \(width) /Height \(height) /ColorSpace \(components == 1 ? "/DeviceGray" : "/DeviceRGB") /BitsPerComponent 8"
    }

    private func n(_ value: Double) -> String { PDFSyntax.number(value) }

    /// The text layer's font, written on first use: a Type 0 font over the one-glyph TrueType
    /// program, every 2-byte code mapped to glyph 1 (never to .notdef, which PDF/A forbids) and
    /// back to the same UTF-16 code unit for extraction.
    private func font() throws -> PDFObjectWriter.Ref {
        if let fontRef { return fontRef }
        let type0 = writer.reserve(), cidFont = writer.reserve(), cidToGID = writer.reserve()
        let toUnicode = writer.reserve(), descriptor = writer.reserve(), program = writer.reserve()
        let width = GlyphlessFont.characterWidth
        try writer.object(
            type0,
            "<< /Type /Font /Subtype /Type0 /BaseFont /GlyphLessFont /Encoding /Identity-H"
                + " /DescendantFonts [\(cidFont.text)] /ToUnicode \(toUnicode.text) >>")
        try writer.object(
            cidFont,
            "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /GlyphLessFont"
                + " /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>"
                + " /FontDescriptor \(descriptor.text) /DW \(width) /CIDToGIDMap \(cidToGID.text) >>")
        var map = [UInt8](repeating: 0, count: 2 * 65536)
        for i in stride(from: 1, to: map.count, by: 2) { map[i] = 1 }
        try writer.stream(cidToGID, dictionary: "/Filter /FlateDecode", data: try Deflate.compress(map, level: 9))
        let cmap = """
            /CIDInit /ProcSet findresource begin
            12 dict begin
            begincmap
            /CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
            /CMapName /Adobe-Identity-UCS def
            /CMapType 2 def
            1 begincodespacerange
            <0000> <FFFF>
            endcodespacerange
            1 beginbfrange
            <0000> <FFFF> <0000>
            endbfrange
            endcmap
            CMapName currentdict /CMap defineresource pop
            end
            end
            """
        try writer.stream(toUnicode, dictionary: "/Filter /FlateDecode", data: try Deflate.compress(Array(cmap.utf8)))
        try writer.object(
            descriptor,
            "<< /Type /FontDescriptor /FontName /GlyphLessFont /Flags 5 /FontBBox [0 0 \(width) 1000]"
                + " /ItalicAngle 0 /Ascent 1000 /Descent -1 /CapHeight 1000 /StemV 80 /FontFile2 \(program.text) >>")
        try writer.stream(program, dictionary: "/Length1 \(GlyphlessFont.program.count)", data: GlyphlessFont.program)
        fontRef = type0
        return type0
    }

    /// The outline (one item per bookmark, in order), or nil when there is none.
    private func writeOutlines() throws -> PDFObjectWriter.Ref? {
        let bookmarks = self.bookmarks.filter { $0.page >= 1 && $0.page <= pageRefs.count }
        guard !bookmarks.isEmpty else { return nil }
        let root = writer.reserve()
        let items = bookmarks.map { _ in writer.reserve() }
        for (i, bookmark) in bookmarks.enumerated() {
            var entry =
                "/Title \(PDFSyntax.textString(bookmark.title)) /Parent \(root.text) /Dest [\(pageRefs[bookmark.page - 1].text) /Fit]"
            if i > 0 { entry += " /Prev \(items[i - 1].text)" }
            if i + 1 < items.count { entry += " /Next \(items[i + 1].text)" }
            try writer.object(items[i], "<< \(entry) >>")
        }
        try writer.object(
            root,
            "<< /Type /Outlines /First \(items[0].text) /Last \(items[items.count - 1].text) /Count \(items.count) >>")
        return root
    }
}
