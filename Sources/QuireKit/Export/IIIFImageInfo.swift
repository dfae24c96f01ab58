import Foundation

/// A IIIF Image API 3.0 `info.json` for a level-0 (static files) image service.
///
/// Written by Quire rather than kept from libvips's dzsave, whose 8.14 version advertises fewer
/// scale factors than it writes and lists no `sizes`.
public struct IIIFImageInfo: Codable, Sendable, Equatable {
    public static let context = "http://iiif.io/api/image/3/context.json"

    public struct TileSpec: Codable, Sendable, Equatable {
        public var width: Int
        public var height: Int
        public var scaleFactors: [Int]
    }

    public struct SizeSpec: Codable, Sendable, Equatable {
        public var width: Int
        public var height: Int
    }

    public var context: String
    public var id: String
    public var type: String
    public var `protocol`: String
    public var profile: String
    public var width: Int
    public var height: Int
    public var tiles: [TileSpec]
    public var sizes: [SizeSpec]

    enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, `protocol`, profile, width, height, tiles, sizes
    }

    /// The info.json of image service `id` for `grid`.
    public init(id: String, grid: IIIFTileGrid) {
        context = Self.context
        self.id = id
        type = "ImageService3"
        self.protocol = "http://iiif.io/api/image"
        profile = "level0"
        width = grid.width
        height = grid.height
        tiles = [TileSpec(width: grid.tileSize, height: grid.tileSize, scaleFactors: grid.scaleFactors)]
        var sizes = grid.fullSizes.map { SizeSpec(width: $0.width, height: $0.height) }
        if !sizes.contains(where: { $0.width == grid.width && $0.height == grid.height }) {
            sizes.append(SizeSpec(width: grid.width, height: grid.height))  // full/max/0/default.jpg
        }
        self.sizes = sizes
    }

    /// Deterministic JSON: sorted keys, pretty-printed, unescaped slashes, trailing newline.
    public func encoded() throws -> Data {
        try IIIFJSON.encode(self)
    }
}

/// The JSON encoding of every IIIF file Quire writes.
enum IIIFJSON {
    static func encode<T: Encodable>(_ value: T) throws -> Data {
        try JSONOutput.encode(value, .document)
    }
}
