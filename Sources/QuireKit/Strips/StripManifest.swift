import Foundation

/// The model of `OUT/strips/strip.json` (schema `quire.strip/1`): where each page's thumbnail
/// sits inside the sprite images, so an app can show any page from one download.
///
/// Paths are relative to OUT (like layout.json); rects are in pixels of the sprite file.
/// Encoding is deterministic: sorted keys, no timestamps.
public struct StripManifest: Codable, Sendable, Equatable {
    public static let schemaIdentifier = "quire.strip/1"

    public var schema: String
    /// Thumbnail height in points (before `scale`).
    public var height: Double
    /// Device pixels per point.
    public var scale: Int
    /// Thumbnail height in pixels: `round(height * scale)`.
    public var pixelHeight: Int
    /// Pixels between neighbouring thumbnails (the strip layout's spacing times scale).
    public var spacing: Int
    /// Encoding of the sprites: jpeg, png or webp.
    public var format: String
    /// Colour of the gaps, `#rrggbb` or `#rrggbbaa`.
    public var background: String
    public var sprites: [Sprite]
    public var pages: [PageRect]
    /// `strip-focus-K.png` pictures written in the same run.
    public var focus: [FocusPicture]
    /// The contact sheet, when one was written.
    public var contactSheet: String?

    /// One sprite image.
    public struct Sprite: Codable, Sendable, Equatable {
        public var file: String
        public var width: Int
        public var height: Int
        /// Batch indices of the first and last page in this sprite.
        public var firstPage: Int
        public var lastPage: Int
    }

    /// One page's thumbnail inside a sprite.
    public struct PageRect: Codable, Sendable, Equatable {
        /// The page's batch index (layout.json `pages[].index`).
        public var index: Int
        /// Position of the sprite in `sprites`.
        public var sprite: Int
        /// The sprite's file, repeated for convenience.
        public var file: String
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
    }

    /// One focus-strip picture.
    public struct FocusPicture: Codable, Sendable, Equatable {
        public var index: Int
        public var file: String
        public var width: Int
        public var height: Int
    }

    /// The deterministic encoding: sorted keys, pretty-printed, trailing newline.
    public func encoded() throws -> Data {
        try JSONOutput.encode(self, .document)
    }

    /// Reads a strip.json.
    public static func read(from url: URL) throws -> StripManifest {
        try JSONDecoder().decode(StripManifest.self, from: Data(contentsOf: url))
    }
}
