import VipsBridge

/// The encodings Quire writes pages, previews and thumbnails in (`--format`).
public enum OutputFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg, png, webp

    /// The file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        }
    }

    var saveFormat: VIPSImage.SaveFormat {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .webp: .webp
        }
    }
}

/// How a page's three renditions are sized and encoded (`--preview-size`, `--thumb-size`,
/// `--format`, `--quality`).
public struct RenditionOptions: Sendable, Hashable, Codable {
    public var format: OutputFormat
    /// 1-100, for JPEG and WebP.
    public var quality: Int
    /// The preview fits inside a square of this many pixels (never enlarged).
    public var previewSize: Int
    /// The thumbnail fits inside a square of this many pixels (never enlarged).
    public var thumbnailSize: Int
    /// JPEG: optimised Huffman tables (`--optimize-coding`): smaller files for a second pass of
    /// the encoder (see `VIPSImage.SaveOptions.optimizeCoding`).
    public var optimizeCoding: Bool

    /// Renditions with `quire process`'s defaults: JPEG at quality 85, previews in 1600 px, thumbnails in 256 px.
    public init(
        format: OutputFormat = .jpeg, quality: Int = 85, previewSize: Int = 1600, thumbnailSize: Int = 256,
        optimizeCoding: Bool = false
    ) {
        self.format = format
        self.quality = quality
        self.previewSize = previewSize
        self.thumbnailSize = thumbnailSize
        self.optimizeCoding = optimizeCoding
    }

    // Decoding tolerates reports and manifests written before `optimizeCoding` existed.
    /// Decodes options, taking `optimizeCoding` as false when a report or manifest written before it existed lacks it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(OutputFormat.self, forKey: .format)
        quality = try c.decode(Int.self, forKey: .quality)
        previewSize = try c.decode(Int.self, forKey: .previewSize)
        thumbnailSize = try c.decode(Int.self, forKey: .thumbnailSize)
        optimizeCoding = try c.decodeIfPresent(Bool.self, forKey: .optimizeCoding) ?? false
    }

    var saveOptions: VIPSImage.SaveOptions {
        VIPSImage.SaveOptions(
            format: format.saveFormat, quality: quality, stripMetadata: true,
            optimizeCoding: optimizeCoding)
    }
}
