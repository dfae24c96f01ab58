internal import CVipsShim

/// A JPEG decoded to its own planes: luma at full size and the two chroma planes at the file's
/// subsampling (4:2:0 or 4:2:2), before any upsampling or conversion to RGB.
///
/// Why: a 4:2:0 capture held this way takes half the memory of RGB, so a batch fits two whole frames in its budget and keeps both cores decoding; the
/// page cut out of the photo is converted pixel by pixel as it is warped, so only the page is
/// ever RGB. `rgbFrame()` gives the whole image as libjpeg would have decoded it, for the pages
/// that are kept whole (scans, pages with no quad).
///
/// Rows that are no longer needed can be handed back to the kernel (`releaseRows`).
public final class YCbCrFrame: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let chromaWidth: Int
    public let chromaHeight: Int
    /// Luma samples per chroma sample across (2) and down (2 for 4:2:0, 1 for 4:2:2).
    public let horizontalFactor: Int
    public let verticalFactor: Int
    /// Bytes per row of the luma and of each chroma plane.
    public let lumaStride: Int
    public let chromaStride: Int
    public let luma: UnsafeMutablePointer<UInt8>
    public let cb: UnsafeMutablePointer<UInt8>
    public let cr: UnsafeMutablePointer<UInt8>
    /// Bytes of the three planes (the memory the frame holds at most).
    public let byteCount: Int
    /// The box averages made while the planes were decoded, when asked for
    /// (`decodingJPEG(file:width:height:averagingBy:admit:)`) and not yet taken.
    public private(set) var averages: PlaneBoxAverages?

    /// `averages`, handed over: the frame lets go of them, so they live no longer than their
    /// taker (the frame itself lives on until the page is cut out of it).
    public func takeAverages() -> PlaneBoxAverages? {
        defer { averages = nil }
        return averages
    }
    private let layout: cvips_jpeg_planes
    private let base: UnsafeMutableRawPointer
    private let lumaBytes: Int, chromaBytes: Int

    private init(layout: cvips_jpeg_planes) throws {
        lumaBytes = layout.y_stride * layout.y_rows
        chromaBytes = layout.c_stride * layout.c_rows
        byteCount = lumaBytes + 2 * chromaBytes
        guard let base = cvips_map_pixels(byteCount) else {
            throw VIPSError(operation: "jpegload", message: "out of memory (\(byteCount) bytes)")
        }
        self.base = base
        self.layout = layout
        luma = base.assumingMemoryBound(to: UInt8.self)
        cb = luma + lumaBytes
        cr = cb + chromaBytes
        width = Int(layout.width)
        height = Int(layout.height)
        chromaWidth = Int(layout.chroma_width)
        chromaHeight = Int(layout.chroma_height)
        horizontalFactor = Int(layout.h_factor)
        verticalFactor = Int(layout.v_factor)
        lumaStride = layout.y_stride
        chromaStride = layout.c_stride
    }

    deinit { cvips_unmap_pixels(base, byteCount) }

    /// Decodes a `width` x `height` JPEG file to planes.
    /// - Parameter averagingBy: a box factor (1...257) to average the planes by while they are
    ///   decoded (`averages`, the bytes `PlaneBoxAverage.rgb` gives on the whole planes); nil
    ///   for none. `averages` stays nil too when the averages' memory cannot be had.
    /// - Parameter admit: called with the planes' size in bytes once the header is read and
    ///   before memory is taken or any pixel decoded (where a batch waits for room).
    /// - Returns: nil when the file is not a 4:2:0 or 4:2:2 YCbCr JPEG of that size without an
    ///   ICC profile (decode it to RGB instead); `admit` is not called then.
    /// - Throws: `VIPSError` when the file cannot be decoded (truncation included).
    public static func decodingJPEG(
        file path: String, width: Int, height: Int, averagingBy factor: Int? = nil,
        admit: (Int) -> Void = { _ in }
    ) throws -> YCbCrFrame? {
        var decoder: OpaquePointer?
        var layout = cvips_jpeg_planes()
        let status = cvips_jpeg_planar_open(path, Int32(width), Int32(height), &decoder, &layout)
        if status == 1 { return nil }
        try VIPSImage.check("jpegload", status)
        let frame: YCbCrFrame
        do {
            admit(layout.y_stride * layout.y_rows + 2 * layout.c_stride * layout.c_rows)
            frame = try YCbCrFrame(layout: layout)
        } catch {
            cvips_jpeg_planar_close(decoder)
            throw error
        }
        try frame.decode(decoder, averagingBy: factor)
        return frame
    }

    /// Decodes the opened file into the planes, averaging them by `factor` on the way when it
    /// is given and in range.
    private func decode(_ decoder: OpaquePointer?, averagingBy factor: Int?) throws {
        let factor = factor.flatMap { (1...257).contains($0) ? $0 : nil }
        let (w, h) = (factor.map { width / $0 } ?? 0, factor.map { height / $0 } ?? 0)
        guard let factor, w >= 1, h >= 1, w * h < Int(Int32.max) / 3 else {
            try VIPSImage.check("jpegload", cvips_jpeg_planar_decode(decoder, luma, cb, cr))
            return
        }
        var status: Int32 = 0
        var made = false
        let pixels = [UInt8](unsafeUninitializedCapacity: w * h * 3) { buffer, count in
            let box = cvips_box_rows_new(
                luma, lumaStride, cb, cr, chromaStride, Int32(chromaWidth), Int32(chromaHeight),
                Int32(horizontalFactor.trailingZeroBitCount), Int32(verticalFactor.trailingZeroBitCount),
                Int32(factor), Int32(w), Int32(h), buffer.baseAddress!)
            defer { cvips_box_rows_free(box) }
            status = cvips_jpeg_planar_decode_averaging(decoder, luma, cb, cr, box)
            made = box != nil && status == 0
            if !made { buffer.initialize(repeating: 0) }
            count = buffer.count
        }
        try VIPSImage.check("jpegload", status)
        if made { averages = PlaneBoxAverages(factor: factor, width: w, height: h, pixels: pixels) }
    }

    /// Hands the memory of luma `rows` back to the kernel, with the chroma rows only they use
    /// (a chroma row is kept while any luma row within one chroma row of it is). Released rows
    /// read as zero afterwards.
    public func releaseRows(_ rows: Range<Int>) {
        let rows = rows.clamped(to: 0..<height)
        guard !rows.isEmpty else { return }
        let v = verticalFactor
        _ = cvips_frame_release(luma, rows.lowerBound * lumaStride, rows.count * lumaStride)
        // Chroma rows whose every neighbouring luma row is inside `rows`.
        let first = rows.lowerBound == 0 ? 0 : rows.lowerBound / v + 2
        let last = rows.upperBound >= height ? chromaHeight : rows.upperBound / v - 1
        guard first < last else { return }
        _ = cvips_frame_release(cb, first * chromaStride, (last - first) * chromaStride)
        _ = cvips_frame_release(cr, first * chromaStride, (last - first) * chromaStride)
    }

    /// The whole image in RGB, byte for byte what libjpeg's own decode gives (its triangle
    /// chroma upsampling and fixed-point conversion), made in bands of rows; with
    /// `releasing`, each band's planes go back to the kernel once it is made, so the planes
    /// and the RGB frame are not both held whole.
    public func rgbFrame(releasing: Bool = false) throws -> VIPSFrame {
        let frame = try VIPSFrame(width: width, height: height, bands: 3)
        var layout = layout
        let band = 64
        for row0 in stride(from: 0, to: height, by: band) {
            let row1 = min(height, row0 + band)
            cvips_jpeg_planes_to_rgb(
                &layout, luma, cb, cr, Int32(row0), Int32(row1),
                frame.pixels.baseAddress! + row0 * width * 3)
            // The next band reads from the chroma row above its first row on.
            if releasing { releaseRows(0..<max(0, row1 - 2 * verticalFactor)) }
        }
        if releasing { releaseRows(0..<height) }
        return frame
    }

    /// `rgbFrame()` turned `quarterTurns` quarter turns clockwise (the pixels libvips's `rot`
    /// gives), each band of stored rows converted into a small buffer and written straight to
    /// its place in the turned frame, the band's planes handed back to the kernel once it is.
    ///
    /// Why: a capture stored sideways and kept whole (a scan-like page) was converted to a
    /// stored RGB frame and then turned into a second one: two RGB frames at once. Made this way
    /// it holds the planes (half an RGB frame for 4:2:0) and the turned frame at most.
    public func rgbFrame(quarterTurns: Int) throws -> VIPSFrame {
        let turns = ((quarterTurns % 4) + 4) % 4
        guard turns != 0 else { return try rgbFrame(releasing: true) }
        let sideways = turns != 2
        let frame = try VIPSFrame(width: sideways ? height : width, height: sideways ? width : height, bands: 3)
        var layout = layout
        let band = 64
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: band * width * 3)
        defer { rows.deallocate() }
        for row0 in stride(from: 0, to: height, by: band) {
            let row1 = min(height, row0 + band)
            cvips_jpeg_planes_to_rgb(&layout, luma, cb, cr, Int32(row0), Int32(row1), rows)
            place(rows, rows: row0..<row1, turns: turns, into: frame)
            releaseRows(0..<max(0, row1 - 2 * verticalFactor))
        }
        releaseRows(0..<height)
        return frame
    }

    /// Writes stored `rows` (RGB, `width` pixels each, the first at `source`) to where
    /// `turns` clockwise quarter turns put them in `frame`.
    private func place(_ source: UnsafePointer<UInt8>, rows: Range<Int>, turns: Int, into frame: VIPSFrame) {
        let dst = frame.pixels.baseAddress!, out = frame.width
        let (w, h) = (width, height)
        func copy(_ from: UnsafePointer<UInt8>, _ to: UnsafeMutablePointer<UInt8>) {
            to[0] = from[0]
            to[1] = from[1]
            to[2] = from[2]
        }
        switch turns {
        case 1:  // stored (x, y) -> turned (h - 1 - y, x): a stored column becomes a row
            for x in 0..<w {
                let line = dst + x * out * 3
                for y in rows { copy(source + ((y - rows.lowerBound) * w + x) * 3, line + (h - 1 - y) * 3) }
            }
        case 2:  // stored (x, y) -> (w - 1 - x, h - 1 - y)
            for y in rows {
                let line = dst + (h - 1 - y) * out * 3, from = source + (y - rows.lowerBound) * w * 3
                for x in 0..<w { copy(from + x * 3, line + (w - 1 - x) * 3) }
            }
        default:  // 3: stored (x, y) -> (y, w - 1 - x)
            for x in 0..<w {
                let line = dst + (w - 1 - x) * out * 3
                for y in rows { copy(source + ((y - rows.lowerBound) * w + x) * 3, line + y * 3) }
            }
        }
    }
}
