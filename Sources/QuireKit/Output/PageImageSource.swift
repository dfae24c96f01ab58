import Foundation
import VipsBridge

/// Gives page images at exact pixel sizes from an output folder, cutting each from the
/// smallest written file that is large enough (thumbnail, then preview, then the page) with
/// libvips's shrink-on-load, and reusing a file untouched when it is already the right size.
///
/// Not thread-safe: one source per strip or render job.
public final class PageImageSource {
    /// Which file an image was cut from; counted in `usage` so reports can say what was read.
    public enum Origin: String, Sendable, Codable, CaseIterable {
        /// The thumbnail file used as it is (already the requested size).
        case thumbnailAsIs
        case thumbnail, preview, page
    }

    private let folder: OutputFolder
    private var headers: [String: PixelSize] = [:]
    private var cache: [Int: VIPSImage] = [:]
    private var cacheOrder: [Int] = []
    /// How many images came from each kind of file.
    public private(set) var usage: [Origin: Int] = [:]
    /// Decoded images kept for repeated draws of the same page (renders and sweeps).
    public var cacheLimit = 12

    /// Page images of `folder`, decoded on demand and cached (`cacheLimit`).
    public init(folder: OutputFolder) {
        self.folder = folder
    }

    /// Page `page` (a `LayoutReport.Page`) as an opaque 8-bit sRGB image of exactly
    /// `width` x `height` pixels.
    /// - Throws: `OutputFolderError.missingImage` when none of the page's files can be read.
    public func image(of page: LayoutReport.Page, width: Int, height: Int) throws -> VIPSImage {
        guard width > 0, height > 0 else {
            throw OutputFolderError.invalidOption("page \(page.index): empty target size \(width)x\(height)")
        }
        let candidates: [(Origin, String)] = [
            (.thumbnail, page.files.thumbnail), (.preview, page.files.preview), (.page, page.files.page)
        ]
        // The smallest file covering the target (1 px of slack for rounding), else the largest;
        // headers are read in size order and only until one covers.
        var readable: [(Origin, String, PixelSize)] = []
        var covering: (Origin, String, PixelSize)?
        var lastError = "no image files listed"
        for (origin, relative) in candidates where !relative.isEmpty {
            let path = folder.path(relative)
            do {
                let size = try header(of: path)
                readable.append((origin, path, size))
                if size.width + 1 >= width && size.height + 1 >= height {
                    covering = (origin, path, size)
                    break
                }
            } catch {
                lastError = "\(relative): \(error)"
            }
        }
        guard !readable.isEmpty else {
            throw OutputFolderError.missingImage(page: page.index, path: page.files.thumbnail, reason: lastError)
        }
        let (origin, path, size) = covering ?? readable.max { $0.2.pixelCount < $1.2.pixelCount }!
        do {
            if origin == .thumbnail && size.width == width && size.height == height {
                usage[.thumbnailAsIs, default: 0] += 1
                return try VIPSImage.load(file: path).autorotated().displayReady(keepGray: false)
            }
            usage[origin, default: 0] += 1
            let shrunk = try VIPSImage.thumbnail(file: path, width: width, height: height)
                .displayReady(keepGray: false)
            return try shrunk.resized(toWidth: width, height: height)
        } catch {
            throw OutputFolderError.missingImage(page: page.index, path: path, reason: "\(error)")
        }
    }

    /// Like `image(of:width:height:)`, but keeps a decoded copy per page (at the largest size
    /// asked so far) so repeated draws in a sweep decode each page once.
    public func cachedImage(of page: LayoutReport.Page, width: Int, height: Int) throws -> VIPSImage {
        if let cached = cache[page.index], cached.width + 1 >= width, cached.height + 1 >= height {
            return cached.width == width && cached.height == height
                ? cached : try cached.resized(toWidth: width, height: height)
        }
        let image = try self.image(of: page, width: width, height: height).materialized()
        cache[page.index] = image
        cacheOrder.removeAll { $0 == page.index }
        cacheOrder.append(page.index)
        while cacheOrder.count > cacheLimit {
            cache[cacheOrder.removeFirst()] = nil
        }
        return image
    }

    private func header(of path: String) throws -> PixelSize {
        if let known = headers[path] { return known }
        let image = try VIPSImage.load(file: path)
        // Orientation 5-8 swaps the displayed sides.
        let swapped = image.orientation >= 5
        let size = PixelSize(width: swapped ? image.height : image.width, height: swapped ? image.width : image.height)
        headers[path] = size
        return size
    }
}
