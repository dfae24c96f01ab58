import VipsBridge

/// The clean-up step after correction: scanner edges filled with the paper colour, then the
/// page's tones as asked (`CleanOptions`). Edges are looked for on the preview, which the
/// pipeline makes anyway, so a page with nothing to do costs one pass over a small copy and is
/// passed through untouched.
struct PageCleaner {
    var options: CleanOptions

    /// Side of the small copy edges are looked for on.
    static let analysisSize = 600

    /// Scanner edges found on a page, and the paper colour to fill them with.
    struct Edges {
        var found: ScannerEdges.Found
        var colour: [UInt8]
        /// Share of the page filled.
        var share: Double { Double(found.area) / Double(max(1, found.width * found.height)) }
    }

    /// Looks for scanner edges on `copy`, a small copy of the page (its preview, or one made
    /// when the preview is too small to see them); nil when there are none or `--edges keep`.
    func edges(in copy: VIPSImage) throws -> Edges? {
        guard options.edges == .auto else { return nil }
        let resize =
            max(copy.width, copy.height) > Self.analysisSize * 5 / 4
            || max(copy.width, copy.height) < Self.analysisSize / 2
        // Most pages have no dark pixel along their border: the strips bars grow from are
        // made first, and the whole small copy (the same lazy resize) only when one of them
        // could start a bar.
        var small = copy
        if resize {
            guard let seeding = try Self.seedingCopy(copy) else { return nil }
            small = seeding
        }
        let bytes = try small.pixelBytes()
        let grey = PageTone.grey(bytes, bands: small.bands)
        let paper = PageTone.percentile(grey, 0.9)
        guard let found = ScannerEdges.find(grey: grey, width: small.width, height: small.height, paper: paper) else {
            return nil
        }
        return Edges(
            found: found, colour: Self.colour(of: bytes, grey: grey, bands: small.bands, atLeast: paper * 97 / 100))
    }

    /// Whether the seed margin (`ScannerEdges.seedMargin`) of `copy` fitted inside
    /// `analysisSize` holds a pixel that could start a bar (`ScannerEdges.maySeed`). Only the
    /// four strips are computed, from a lazy resize: libvips makes a region's pixels the same
    /// whichever region is asked for, so they are the whole copy's (`PageCleanerBorderTests`).
    static func borderMaySeed(_ copy: VIPSImage) throws -> Bool { try seedingCopy(copy) != nil }

    /// The lazy resize of `copy` inside `analysisSize` whose strips `borderMaySeed` looks at,
    /// when one could start a bar (nil when none could): the edges look computes it whole
    /// instead of building the same `vips_resize` again.
    static func seedingCopy(_ copy: VIPSImage) throws -> VIPSImage? {
        let size = VIPSImage.fittedSize(width: copy.width, height: copy.height, inside: analysisSize)
        let small = try copy.resized(toWidth: size.width, height: size.height)
        let (w, h) = (small.width, small.height)
        let m = ScannerEdges.seedMargin(width: w, height: h)
        guard 2 * m.x < w, 2 * m.y < h else { return small }
        let strips = [
            (0, 0, w, m.y), (0, h - m.y, w, m.y), (0, m.y, m.x, h - 2 * m.y), (w - m.x, m.y, m.x, h - 2 * m.y)
        ]
        for (x, y, width, height) in strips {
            let bytes = try small.cropped(x: x, y: y, width: width, height: height).pixelBytes()
            if ScannerEdges.maySeed(PageTone.grey(bytes, bands: small.bands)) { return small }
        }
        return nil
    }

    /// The page with `edges` filled and its tones changed as asked; `page` itself when there is
    /// nothing to do.
    func apply(_ page: VIPSImage, edges: Edges?) throws -> VIPSImage {
        guard edges != nil || options.changesTones else { return page }
        // Edges alone: the page is computed once into a new frame and filled there, with no
        // byte array in between (two more whole-page copies).
        if let edges, !options.changesTones, page.format == .uchar {
            let frame = try VIPSFrame(rendering: page)
            Self.fill(
                frame.pixels, width: page.width, height: page.height, bands: page.bands, mask: edges.found,
                colour: edges.colour)
            return frame.image
        }
        var bytes = try page.pixelBytes()
        var bands = page.bands
        let (width, height) = (page.width, page.height)
        if let edges {
            Self.fill(&bytes, width: width, height: height, bands: bands, mask: edges.found, colour: edges.colour)
        }
        if options.changesTones {
            var grey = PageTone.grey(bytes, bands: bands)
            if options.background == .white || options.mode == .bw {
                let level = PageTone.paperLevel(
                    grey, width: width, height: height, block: max(8, min(width, height) / 40))
                PageTone.whitened(&bytes, bands: bands, paper: level)
                grey = PageTone.grey(bytes, bands: bands)
            }
            switch options.mode {
            case .colour:
                break
            case .grey:
                (bytes, bands) = (grey, 1)
            case .bw:
                (bytes, bands) = (
                    PageTone.blackAndWhite(grey, width: width, height: height, block: max(8, min(width, height) / 30)),
                    1
                )
            }
        }
        return try VIPSImage.fromPixels(bytes, width: width, height: height, bands: bands)
    }

    /// The rows of an 8-bit `page` that `apply` may change when it only fills `edges`: those
    /// whose mask row (as `fill` maps them) holds a filled cell. Nil when it may change any
    /// pixel (tones) or none (no edges).
    func changedRows(of page: VIPSImage, edges: Edges?) -> [Bool]? {
        guard let edges, !options.changesTones, page.format == .uchar else { return nil }
        let mask = edges.found
        guard page.height > 0, mask.width > 0, mask.height > 0, mask.mask.count >= mask.width * mask.height
        else { return nil }
        let filled = (0..<mask.height).map { mask.mask[($0 * mask.width)..<(($0 + 1) * mask.width)].contains(true) }
        return (0..<page.height).map { filled[min(mask.height - 1, $0 * mask.height / page.height)] }
    }

    /// The mean colour of the pixels at least as bright as `level`: the paper's colour.
    static func colour(of bytes: [UInt8], grey: [UInt8], bands: Int, atLeast level: Int) -> [UInt8] {
        var sums = [Int](repeating: 0, count: bands)
        var count = 0
        for i in 0..<grey.count where Int(grey[i]) >= level {
            for b in 0..<bands { sums[b] += Int(bytes[i * bands + b]) }
            count += 1
        }
        return sums.map { UInt8(count > 0 ? $0 / count : 255) }
    }

    /// Paints the pixels under `mask` (a smaller grid over the same page) with `colour`: page
    /// pixel (x, y) lies under mask cell (x * mask.width / width, y * mask.height / height).
    /// Rows whose mask row is empty are skipped whole, and the cell of each column is worked
    /// out once (a division per pixel was most of a cleaned page's clean-up time).
    static func fill(
        _ bytes: inout [UInt8], width: Int, height: Int, bands: Int, mask: ScannerEdges.Found, colour: [UInt8]
    ) {
        bytes.withUnsafeMutableBufferPointer { out in
            fill(out, width: width, height: height, bands: bands, mask: mask, colour: colour)
        }
    }

    /// `fill` on pixels in place (a frame's).
    static func fill(
        _ out: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int, bands: Int, mask: ScannerEdges.Found,
        colour: [UInt8]
    ) {
        guard width > 0, height > 0, mask.width > 0, mask.height > 0, colour.count >= bands,
            out.count >= width * height * bands, mask.mask.count >= mask.width * mask.height
        else { return }
        let cells = (0..<width).map { min(mask.width - 1, $0 * mask.width / width) }
        mask.mask.withUnsafeBufferPointer { m in
            for y in 0..<height {
                let row = min(mask.height - 1, y * mask.height / height) * mask.width
                guard m[row..<(row + mask.width)].contains(true) else { continue }
                for x in 0..<width where m[row + cells[x]] {
                    for b in 0..<bands { out[(y * width + x) * bands + b] = colour[b] }
                }
            }
        }
    }
}
