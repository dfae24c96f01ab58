internal import CVips
internal import CVipsShim

extension VIPSImage {
    /// Computes the pipeline and returns its pixels, row-major and band-interleaved, in the
    /// image's own band format (8-bit for everything Quire writes).
    public func pixelBytes() throws -> [UInt8] {
        try VIPSRuntime.start()
        var length = 0
        guard let raw = cvips_write_to_memory(pointer, &length) else {
            throw VIPSError(operation: "write_to_memory", message: VIPSRuntime.takeErrorMessage())
        }
        defer { cvips_free(raw) }
        return Array(UnsafeRawBufferPointer(start: raw, count: length))
    }

    /// An 8-bit image from interleaved pixels (`width * height * bands` bytes).
    /// - Parameter gray: marks a one-band image as grey (B_W) rather than multiband.
    public static func fromPixels(_ bytes: [UInt8], width: Int, height: Int, bands: Int) throws -> VIPSImage {
        guard width > 0, height > 0, bands > 0, bytes.count == width * height * bands else {
            throw VIPSError(
                operation: "new_from_memory",
                message: "\(bytes.count) bytes do not make a \(width)x\(height)x\(bands) image")
        }
        let image = try bytes.withUnsafeBytes { raw in
            try make("new_from_memory") {
                cvips_new_from_memory_copy(
                    raw.baseAddress, raw.count, Int32(width), Int32(height),
                    Int32(bands), Int32(BandFormat.uchar.rawValue), $0)
            }
        }
        let interpretation: Int32 =
            bands >= 3
            ? Int32(VIPS_INTERPRETATION_sRGB.rawValue) : Int32(VIPS_INTERPRETATION_B_W.rawValue)
        return try make("copy") { cvips_set_interpretation(image.pointer, interpretation, $0) }
    }

    /// A black (zero) image.
    public static func black(width: Int, height: Int, bands: Int = 1) throws -> VIPSImage {
        try make("black") { cvips_black(Int32(width), Int32(height), Int32(bands), $0) }
    }

    /// The mean of all pixel values over all bands.
    public func average() throws -> Double {
        var value = 0.0
        try Self.check("avg", cvips_average(pointer, &value))
        return value
    }
}
