internal import CVips
internal import CVipsShim

extension VIPSImage {
    /// A multi-page image from pages of equal size: stacked top to bottom with `pageHeight`
    /// set, which `save(to:)` writes as a multi-page TIFF (one IFD per page).
    /// - Throws: `VIPSError` (operation `"join_pages"`) when there are no pages or their sizes differ.
    public static func joiningPages(_ pages: [VIPSImage]) throws -> VIPSImage {
        var pointers: [UnsafeMutablePointer<VipsImage>?] = pages.map { $0.pointer }
        return try withExtendedLifetime(pages) {
            try pointers.withUnsafeMutableBufferPointer { buffer in
                try make("join_pages") { cvips_join_pages(buffer.baseAddress, Int32(buffer.count), $0) }
            }
        }
    }
}
