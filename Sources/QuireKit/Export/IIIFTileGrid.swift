/// The tiles a IIIF Image API 3.0 level-0 service must hold for one image: what its `info.json`
/// advertises, named as clients ask for them.
///
/// For scale factor `s` and tile size `t`, tile `(n, m)` covers the region
/// `x = n·t·s, y = m·t·s, w = min(t·s, width − x), h = min(t·s, height − y)` and is served at
/// `ceil(w/s) x ceil(h/s)` pixels (Image API 3.0, "Implementation notes: tiles"). Its URL path
/// uses the canonical forms: region `full` when one tile covers the whole image, size `max` when
/// it is served at full size. OpenSeadragon (the engine of Mirador and Universal Viewer) asks for
/// exactly these paths, so a tile stored only under `0,0,W,H/...` is missing to it.
public struct IIIFTileGrid: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var tileSize: Int

    /// One tile: its region in full-size pixels, its served size, and its path under the image's folder.
    public struct Tile: Sendable, Equatable, Hashable {
        public var scaleFactor: Int
        public var x: Int, y: Int, regionWidth: Int, regionHeight: Int
        public var width: Int, height: Int

        /// `{region}/{size}/0/default.jpg`, canonical.
        public func path(imageWidth: Int, imageHeight: Int) -> String {
            let whole = x == 0 && y == 0 && regionWidth == imageWidth && regionHeight == imageHeight
            let region = whole ? "full" : "\(x),\(y),\(regionWidth),\(regionHeight)"
            let size = whole && width == imageWidth && height == imageHeight ? "max" : "\(width),\(height)"
            return "\(region)/\(size)/0/default.jpg"
        }

        /// The same tile named `x,y,w,h/sw,sh/...` as libvips's dzsave names every tile (even
        /// one that covers the whole image).
        public var dzsavePath: String { "\(x),\(y),\(regionWidth),\(regionHeight)/\(width),\(height)/0/default.jpg" }
    }

    /// The grid of a `width` x `height` image in tiles of `tileSize` pixels.
    public init(width: Int, height: Int, tileSize: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        self.tileSize = max(1, tileSize)
    }

    /// 1, 2, 4 ... up to the first factor at which one tile covers the whole image, so a client
    /// can show the whole page from a single small image.
    public var scaleFactors: [Int] {
        var factors = [1]
        while tileSize * factors.last! < max(width, height) { factors.append(factors.last! * 2) }
        return factors
    }

    /// `ceil(n / s)`.
    static func divideUp(_ n: Int, _ s: Int) -> Int { (n + s - 1) / s }

    /// The full image's size at scale factor `s` (what region `full` is served at).
    public func levelSize(scaleFactor s: Int) -> (width: Int, height: Int) {
        (Self.divideUp(width, s), Self.divideUp(height, s))
    }

    /// Every tile at scale factor `s`, row by row.
    public func tiles(scaleFactor s: Int) -> [Tile] {
        let span = tileSize * s
        var result: [Tile] = []
        for y in stride(from: 0, to: height, by: span) {
            for x in stride(from: 0, to: width, by: span) {
                let w = min(span, width - x), h = min(span, height - y)
                result.append(
                    Tile(
                        scaleFactor: s, x: x, y: y, regionWidth: w, regionHeight: h,
                        width: Self.divideUp(w, s), height: Self.divideUp(h, s)))
            }
        }
        return result
    }

    /// Every tile at every advertised scale factor.
    public var allTiles: [Tile] { scaleFactors.flatMap { tiles(scaleFactor: $0) } }

    /// Whole-image sizes served under `full/`: every scale factor at which one tile covers the
    /// image, smallest first (the `sizes` of info.json, and the thumbnails of the manifest).
    public var fullSizes: [(width: Int, height: Int)] {
        scaleFactors.reversed().filter { tileSize * $0 >= max(width, height) }.map { levelSize(scaleFactor: $0) }
    }
}
