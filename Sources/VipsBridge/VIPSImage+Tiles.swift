internal import CVips
internal import CVipsShim

extension VIPSImage {
    /// Writes the image as IIIF Image API 3.0 level-0 static tiles (libvips's `dzsave`, layout
    /// `iiif3`) into the folder `directory`, whose last component is the image's name: its
    /// `info.json` says `id` + "/" + name. Tiles are JPEGs of `quality` under
    /// `{x},{y},{w},{h}/{sw},{sh}/0/default.jpg`.
    ///
    /// libvips 8.14 leaves some things to its caller: it advertises fewer scale factors than it
    /// writes, writes no `full/...` sizes and no `sizes` list; QuireKit's IIIF export checks and
    /// completes the result.
    /// - Throws: `VIPSError` (operation `dzsave`).
    public func saveIIIFTiles(to directory: String, id: String, tileSize: Int, quality: Int) throws {
        try VIPSImage.check("dzsave", cvips_dzsave_iiif3(pointer, directory, id, Int32(tileSize), Int32(quality)))
    }
}
