import Foundation

/// The fewest bytes a JPEG's entropy-coded data can take for the size its header declares:
/// a file far smaller is refused as truncated before a pixel is decoded.
///
/// A file cut short is refused by the decoders already (they run out of bytes: `truncated`).
/// But when the data stops at an end marker, libjpeg fills the rest of the picture with grey
/// and only warns, so a 700-byte file whose header claims 15000 x 15000 (the data of a 64 x 64
/// image, then its end marker) would decode to a 675 MB grey page. Refusing every warning
/// (`fail_on=warning`) would also refuse camera files that decode fine apart from a few stray
/// bytes; the floor only catches files that cannot hold more than a sliver of the picture they
/// declare (a 12 MP capture needs 23 KB, and holds megabytes), so real files decode as before.
enum JPEGDataFloor {
    /// Bits each 8 x 8 block of the first component takes at the least in a Huffman-coded JPEG:
    /// its DC difference is one Huffman code, and a code is at least one bit (AC data can be a
    /// single end-of-band code for a whole run of blocks in a progressive file, so it may add
    /// nothing).
    static let minimumBitsPerBlock = 1

    /// The fewest bytes of image data a Huffman-coded JPEG of `width` x `height` holds.
    static func minimumBytes(width: Int, height: Int) -> Int {
        ((width + 7) / 8) * ((height + 7) / 8) * minimumBitsPerBlock / 8
    }

    /// Refuses the JPEG at `path` when it is smaller than its declared size allows. Files with
    /// arithmetic coding (which can code a flat block in a fraction of a bit) and files whose
    /// frame header cannot be read here pass unchecked.
    /// - Throws: `ImagingError` truncated, naming the sizes.
    static func check(path: String) throws {
        guard let header = JPEGFrameHeader.read(path: path), !header.arithmetic,
            header.width > 0, header.height > 0
        else { return }
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let bytes = Int(info.st_size)
        let floor = minimumBytes(width: header.width, height: header.height)
        if bytes < floor {
            throw ImagingError(
                .truncated, path: path,
                reason:
                    "truncated: the header declares \(header.width)x\(header.height), which needs at least \(floor) bytes of image data, but the file holds \(bytes)"
            )
        }
    }
}
