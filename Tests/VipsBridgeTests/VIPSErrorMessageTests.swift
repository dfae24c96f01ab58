import Foundation
import Testing
@testable import VipsBridge

/// A failure's message says what went wrong with this file: not what an earlier file left in
/// libvips's process-wide error buffer, and not "unknown" when libvips only said why in a
/// warning.
@Suite struct VIPSErrorMessageTests {
    @Test func aFileReportsOnlyWhatWasSaidSinceItBegan() throws {
        let dir = NSTemporaryDirectory() + "quire-errors-\(UUID().uuidString.prefix(8))"
        // Asking for a loader leaves libvips's "does not exist" in the buffer: the call answers
        // nil and nobody takes the message, as happens when a batch moves on to its next file.
        #expect(VIPSImage.loaderName(forFile: dir + "/earlier-file.png") == nil)
        VIPSRuntime.beginFileErrors()
        let error = #expect(throws: VIPSError.self) { try VIPSImage.load(file: dir + "/this-file.png") }
        let message = error?.message ?? ""
        #expect(message.contains("this-file"), "\(message)")
        #expect(!message.contains("earlier-file"), "\(message)")
    }

    @Test func aLoaderThatOnlyWarnedGivesItsWarningAsTheReason() throws {
        // A PNG whose header chunk fails its CRC: libvips's loader fails with an empty error
        // buffer and says why only in a (silenced) GLib warning.
        let path = NSTemporaryDirectory() + "quire-badcrc-\(UUID().uuidString.prefix(8)).png"
        defer { unlink(path) }
        let image = try VIPSImage.fromPixels([UInt8](repeating: 128, count: 8 * 8), width: 8, height: 8, bands: 1)
        try image.save(to: path, options: .init(format: .png), viaLibvips: true)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // Signature (8) + length (4) + "IHDR" (4) + data (13): the IHDR CRC's first byte.
        bytes[8 + 4 + 4 + 13] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        VIPSRuntime.setWarningsSilenced(true)
        VIPSRuntime.beginFileErrors()
        let error = #expect(throws: VIPSError.self) {
            try VIPSImage.load(file: path, options: .init(failOn: .truncated)).pixelBytes()
        }
        let message = error?.message ?? ""
        #expect(message != VIPSError.unknownMessage, "\(message)")
        #expect(message.contains("CRC"), "\(message)")
    }
}
