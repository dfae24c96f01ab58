import ArgumentParser
import Foundation
import QuireKit

/// `quire detect INPUT...`: finds the page in each input and prints one JSON document, without
/// writing any page.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Find the page quad (photos) or skew (scans) in each input and print JSON.",
        discussion: """
            Prints {"results": [{"source", "width", "height", "kind", "quad", "confidence", "skewDegrees"}]}: \
            width, height and corners (TL, TR, BR, BL) in display pixels after EXIF orientation; \
            quad is null when no page was found or the input is a scan; skewDegrees is null for \
            photos; kind is photo, scan or none (what `quire process` does with the page); rotation is \
            the clockwise turn process applies (0, 90, 180, 270; to a scan before skewDegrees is \
            measured, to a photo's page once straightened, its quad then naming the page's own \
            corners) and rotationConfidence Tesseract's confidence. Inputs that \
            cannot be read get "error" and "code" fields (codes as in layout.json) and one line on \
            stderr; the others are still detected. --corners-out writes the quads found as a \
            corners file for `quire process --corners`, to be corrected by hand in between. \
            Exit status as `quire process`: 0 when every input was read, 1 when one could not be, 2 for \
            a usage error.
            """)

    @Argument(
        help:
            "Image files or folders (a folder contributes its image files in natural order, as `quire process` finds them)."
    )
    var inputs: [String]

    @Flag(help: "Also print the milliseconds spent in detection per input.")
    var timing = false

    @Option(
        help:
            "Pages scanned sideways or upside down, photos taken sideways: auto (say the turn `quire process` applies, with Tesseract) or none."
    )
    var rotate: CorrectionOptions.Rotate = .auto

    @Option(
        name: .customLong("corners-out"),
        help: ArgumentHelp(
            "Also write the page corners found (photos only) as a corners file that `quire process --corners` reads.",
            valueName: "file"))
    var cornersOut: String?

    @Option(
        help: ArgumentHelp(
            "Refuse pages with more pixels than this (checked from the header, before decoding), as `quire process` does; suffixes K, M, G. (default: \(PixelCount(ProcessJob.defaultMaxPixels)))",
            valueName: "pixels"), transform: PixelCount.init(parsing:))
    var maxPixels = PixelCount(ProcessJob.defaultMaxPixels)

    func run() throws {
        // As `quire process`: the detection copy and detection's working arrays (gradients,
        // masks), freed after each input, are reused from the heap instead of being mapped and
        // zeroed by the kernel anew for the next.
        ImagingRuntime.keepPageBuffersInHeap()
        let limit = maxPixels.value
        let found = InputDiscovery.discover(inputs)
        var results: [DetectionRecord] = []
        var corners = CornersFile(entries: [:])
        var failures = 0
        for input in found {
            // What the user reads: the path, or for a name that is not UTF-8 its escaped bytes.
            let file = input.path.hasPrefix(InputDiscovery.aliasPrefix) ? input.source : input.path
            var result: DetectionResult
            do {
                result = try Detector.detect(
                    file: input.path, fullResolution: true, maxPixels: limit,
                    orientation: rotate == .auto ? TesseractOSD.installed : nil)
                result.source = file
            } catch {
                let failure = ImagingError.decoding(error, path: file)
                result = DetectionResult(source: file, error: failure.reason, errorCode: failure.kind.code)
                failures += 1
                FileHandle.standardError.write(Data("quire detect: \(file): \(failure.reason)\n".utf8))
            }
            results.append(DetectionRecord(result, timing: timing))
            if let quad = result.quad, result.kind == .photo {
                corners.entries[CornersFile.key(source: file, page: result.page)] = quad
            }
        }
        if let cornersOut {
            do {
                try AtomicFile.write(Data(corners.jsonText().utf8), to: cornersOut)
            } catch {
                FileHandle.standardError.write(
                    Data("quire detect: \(cornersOut): cannot write the corners file (\(error))\n".utf8))
                throw ExitCode(1)
            }
        }
        FileHandle.standardOutput.write(try DetectionDocument(results: results).json())
        // The same contract as `quire process`: the JSON is complete, and the status says that
        // an input could not be read, so a script does not take a partial answer for a whole one.
        if failures > 0 { throw ExitCode(1) }
    }

    /// Files as given; folders replaced by their image files in natural order, as
    /// `quire process` finds them (`InputDiscovery`), entries that cannot be taken included.
    static func expand(_ inputs: [String]) -> [String] {
        InputDiscovery.discover(inputs).map(\.path)
    }
}
