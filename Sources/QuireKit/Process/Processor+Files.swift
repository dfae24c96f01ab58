extension Processor {
    /// The output files of the page numbered `number` (from 0) of a batch, relative to OUT:
    /// `pages/0001.jpg` etc., zero-padded to `digits`. In a thumbnails-only run the thumbnail is
    /// the only file, and `page` and `preview` name it too (layout.json's three fields stay
    /// filled, so a viewer shows the thumbnail wherever it would show the page).
    public static func files(number: Int, digits: Int, extension ext: String, thumbnailsOnly: Bool)
        -> LayoutReport.Files
    {
        let name =
            String(repeating: "0", count: max(0, digits - String(number + 1).count)) + String(number + 1) + "." + ext
        let thumbnail = thumbnailsFolder + "/" + name
        if thumbnailsOnly { return LayoutReport.Files(page: thumbnail, preview: thumbnail, thumbnail: thumbnail) }
        return LayoutReport.Files(
            page: pagesFolder + "/" + name, preview: previewsFolder + "/" + name, thumbnail: thumbnail)
    }

    /// The zero-padded width of file numbers for a batch of `pageCount` pages (at least 4).
    public static func fileNumberDigits(pageCount: Int) -> Int { max(4, String(pageCount).count) }
}
