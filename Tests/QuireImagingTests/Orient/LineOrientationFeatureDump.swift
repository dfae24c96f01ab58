import Foundation
import Testing
import TesseractBridge
import VipsBridge
@testable import QuireImaging

/// The measurements `Tools/accuracy/fit_line_orientation.py` fits the line look's thresholds on:
/// runs only when `QUIRE_ORIENT_PAGES` names a list of upright corrected pages (one
/// `source<TAB>path` a line, as `Tools/accuracy/orientation_features.sh` writes it) and
/// `QUIRE_ORIENT_FEATURES` the file to write. Each page is turned four ways and looked at on
/// the grey copy the pipeline gives the look; every sure finding must have the right turn.
/// `QUIRE_ORIENT_OSD=1` adds Tesseract's crop and fallback readings of every copy with text,
/// `QUIRE_ORIENT_OSD=unsure` only of those the look is not sure of; `QUIRE_ORIENT_OSD_CHARS` sets
/// the characters the crop reads, and `QUIRE_ORIENT_FALLBACK=0` leaves the whole-page reading out.
@Suite struct LineOrientationFeatureDump {
    @Test func dumpFeatures() throws {
        let env = ProcessInfo.processInfo.environment
        guard let list = env["QUIRE_ORIENT_PAGES"], let out = env["QUIRE_ORIENT_FEATURES"] else { return }
        let osd = ["1", "unsure"].contains(env["QUIRE_ORIENT_OSD"]) ? TesseractOSD.installed : nil
        // "unsure": Tesseract only on copies the look is not sure of (what the detector asks it
        // on), so a dump of every real page finishes in minutes, not the better part of an hour.
        let onlyUnsure = env["QUIRE_ORIENT_OSD"] == "unsure"
        var rows = [
            "source\tpage\tturn\tneeded\tglyphs\tvotes\tshare\tpieces\tmargin\tfound\tosd_rotate\tosd_conf\tosd_script\tosd_ms"
                + "\tfb_rotate\tfb_conf\tfb_script\tfb_ms\tud0\tud90\tud_ms\tboxes"
        ]
        for line in try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 2 else { continue }
            let upright = try VIPSImage.load(file: fields[1]).materialized()
            for turns in 0..<4 {
                let page = try upright.rotated(quarterTurns: turns).materialized()
                let look = try PageCorrector.gray(page, longSide: TextPresence.longSide)
                let glyphs = TextPresence.hasReadableText(gray: look.gray, width: look.width, height: look.height)
                let (found, boxes) = LineOrientation.look(gray: look.gray, width: look.width, height: look.height)
                let needed = LineOrientationTests.needed(turns)
                if let found, found.isSure {
                    #expect(found.rotate == needed, "\(fields[1]) turned \(turns * 90): \(found)")
                }
                let f =
                    found.map {
                        "\($0.votes)\t\($0.directionShare)\t\($0.linePieces)\t\($0.edgeMargin)\t\($0.rotate)"
                    } ?? "0\t0\t0\t0\t-1"
                // Leptonica's up-or-down reading as is and turned a quarter clockwise.
                var ud = "0\t0\t0"
                if let threshold = LineOrientation.inkThreshold(gray: look.gray) {
                    let before = Self.cpuMilliseconds()
                    let up = TextUpDown.confidence(
                        gray: look.gray, width: look.width, height: look.height, below: threshold)
                    let ms = Self.cpuMilliseconds() - before
                    let side = TextUpDown.confidence(
                        gray: look.gray, width: look.width, height: look.height, below: threshold,
                        turnedClockwise: true)
                    ud = "\(up ?? 0)\t\(side ?? 0)\t\(ms)"
                }
                var o = "-1\t0\t0\t0", fallback = "-1\t0\t0\t0"
                if let osd, glyphs, !(onlyUnsure && found?.isSure == true) {
                    var before = Self.cpuMilliseconds()
                    let guess = try osd.tesseractGuess(
                        page, boxes: boxes, copyWidth: look.width, copyHeight: look.height,
                        characters: Int(env["QUIRE_ORIENT_OSD_CHARS"] ?? "") ?? TesseractOSD.cropCharacters)
                    let ms = Self.cpuMilliseconds() - before
                    o = "\(guess?.rotate ?? -1)\t\(guess?.confidence ?? 0)\t\(guess?.scriptConfidence ?? 0)\t\(ms)"
                    // The whole page read once more when the crop is unsure (`fallbackGuess`), on its own.
                    if let guess, TesseractOSD.fallsBack(guess), !boxes.isEmpty, env["QUIRE_ORIENT_FALLBACK"] != "0" {
                        before = Self.cpuMilliseconds()
                        let whole = try osd.tesseractGuess(page, characters: TesseractOSD.fallbackCharacters)
                        let fms = Self.cpuMilliseconds() - before
                        fallback =
                            "\(whole?.rotate ?? -1)\t\(whole?.confidence ?? 0)\t\(whole?.scriptConfidence ?? 0)\t\(fms)"
                    }
                }
                rows.append(
                    "\(fields[0])\t\(fields[1])\t\(turns * 90)\t\(needed)\t\(glyphs ? 1 : 0)\t\(f)\t\(o)\t\(fallback)\t\(ud)\t\(boxes.count)"
                )
            }
            // Written after every page: a dump stopped part way keeps what it measured.
            try (rows.joined(separator: "\n") + "\n").write(toFile: out, atomically: true, encoding: .utf8)
        }
    }

    /// User + system CPU of this process so far, in milliseconds.
    static func cpuMilliseconds() -> Double {
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        let user = Double(usage.ru_utime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec) / 1000
        let system = Double(usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_stime.tv_usec) / 1000
        return user + system
    }
}
