import Testing
@testable import QuireImaging

/// Every wording `LoaderMessage` recognises, each in a message as libvips (or the library
/// under it) prints it, and messages that must not be taken for one.
@Suite struct LoaderMessageTests {
    @Test(arguments: [
        "jpegsave: /o/.quire/staging/x/page.jpg: No space left on device",
        "cannot decode (jpegsave: Output file write error --- out of disk space?)",
        "pngsave: Disk quota exceeded",
        "vips__file_write: write failed: disk full",
        "write: ENOSPC",
        "write: EDQUOT"
    ])
    func fullDisks(message: String) {
        #expect(LoaderMessage.diskFull.isSaid(by: message))
    }

    @Test(arguments: [
        "VipsJpeg: Premature end of JPEG file",
        "tiff2vips: TIFFReadDirectory: truncated strip",
        "gifload: unexpected end of GIF",
        "VipsForeignLoad: end of file reached",
        "heifload: EOF",
        "webpload: not enough data",
        "pngload: read error",
        "VipsSource: short read",
        "VipsJpeg: out of data",
        "gifload: incomplete image",
        "VipsJpeg: Corrupt JPEG data: 22 extraneous bytes",
        "pngload: CRC error",
        "VipsJpeg: Invalid SOS parameters",
        "VipsJpeg: Bad Huffman table",
        "tiffload: unable to read tile",
        "heifload: failed to read image",
        "VipsImage: out of order read -- at line 100, but line 20 requested",
        "tiff2vips: error reading strip",
        "webpload: read failed",
        "libspng: IDAT stream error",
        "libpng error: IDAT: invalid distance too far back",
        "webpload: unable to decode image"
    ])
    func truncationsAndCorruption(message: String) {
        #expect(LoaderMessage.recognise(message).contains(.truncated))
        #expect(!LoaderMessage.diskFull.isSaid(by: message))
    }

    @Test func everyWordingHasACase() {
        // The cases above cover each phrase; a phrase added without a case fails here.
        let messages = [
            "no space left on device", "out of disk space", "disk quota exceeded", "disk full", "enospc", "edquot",
            "premature end", "truncated", "unexpected end", "end of file", "eof", "not enough data", "read error",
            "short read", "out of data", "incomplete", "corrupt", "crc error", "invalid", "bad huffman",
            "unable to read",
            "failed to read", "out of order read", "error reading", "read failed", "libspng", "libpng", "decode",
            "the file is truncated"
        ]
        for kind in LoaderMessage.allCases {
            for phrase in kind.phrases {
                #expect(messages.contains { $0.contains(phrase) }, "\(kind): '\(phrase)' has no case")
            }
        }
    }

    @Test func quiresOwnJPEGReaderSaysTheFileEndsEarly() {
        let message = "cvips_jpeg: premature end of JPEG image (the file is truncated)"
        #expect(LoaderMessage.recognise(message) == [.truncated, .jpegEndsEarly])
        #expect(!LoaderMessage.jpegEndsEarly.isSaid(by: "VipsJpeg: Premature end of JPEG file"))
    }

    @Test func aMessageCanSayTwoThings() {
        #expect(
            LoaderMessage.recognise("cannot decode (jpegsave: Output file write error --- out of disk space?)")
                == [.diskFull, .truncated])
    }

    @Test(arguments: [
        "VipsForeignLoad: \"a.bmp\" is not a known file format", "VipsImage: memory area too small",
        "unknown error", ""
    ])
    func otherMessagesSayNothing(message: String) {
        #expect(LoaderMessage.recognise(message).isEmpty)
    }

    @Test func decodingFailuresUseTheRecogniser() {
        struct Failure: Error, CustomStringConvertible { var description: String }
        #expect(
            ImagingError.decoding(Failure(description: "VipsJpeg: Premature end of JPEG file"), path: "a.jpg").kind
                == .truncated)
        #expect(
            ImagingError.decoding(Failure(description: "vips_image_new: bad format"), path: "a.jpg").kind
                == .decodeFailed)
    }
}
