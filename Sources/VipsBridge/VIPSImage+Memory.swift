internal import CVips
internal import CVipsShim

extension VIPSImage {
    /// The 8-bit pixels (interleaved, row by row), rendered by libvips straight into the
    /// returned array: one buffer, where `pixelBytes()` holds libvips's buffer and a copy of it
    /// at once (one whole frame less at the peak).
    /// - Throws: `VIPSError` when the image is not 8-bit or cannot be computed (e.g. a corrupt file).
    public func pixelBytesDirect() throws -> [UInt8] {
        try VIPSRuntime.start()
        guard format == .uchar else {
            throw VIPSError(operation: "write_into", message: "the image is not 8-bit (cast it first)")
        }
        let length = width * height * bands
        var status: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            status = cvips_write_into(pointer, buffer.baseAddress, length)
            count = length
        }
        guard status == 0 else { throw VIPSError(operation: "write_into", message: VIPSRuntime.takeErrorMessage()) }
        return bytes
    }

    /// A new 8-bit sRGB (3+ bands) or grey (1-2 bands) image whose pixels `fill` writes into
    /// libvips's own buffer (interleaved, `width * height * bands` bytes): no copy, where
    /// `fromPixels` copies an array. The buffer lives as long as the image.
    /// - Throws: `VIPSError` for a bad size or no memory, or what `fill` throws.
    public static func filled(
        width: Int, height: Int, bands: Int,
        _ fill: (UnsafeMutableBufferPointer<UInt8>) throws -> Void
    ) throws -> VIPSImage {
        var data: UnsafeMutableRawPointer? = nil
        let image = try make("new_owned_memory") {
            cvips_new_owned_uchar(Int32(width), Int32(height), Int32(bands), &data, $0)
        }
        guard let data else { throw VIPSError(operation: "new_owned_memory", message: "no buffer") }
        try fill(
            UnsafeMutableBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: width * height * bands))
        let interpretation: Int32 =
            bands >= 3
            ? Int32(VIPS_INTERPRETATION_sRGB.rawValue) : Int32(VIPS_INTERPRETATION_B_W.rawValue)
        return try make("copy") { cvips_set_interpretation(image.pointer, interpretation, $0) }
    }
}
