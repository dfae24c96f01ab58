// quire-deskew-score: scores skew estimation against ground truth in ../shared/data.
//
// Synthetic scans (synthetic/scans/truth.json, skew_deg positive = CCW) and the real OCRmyPDF
// PDFs whose content matrix gives the exact skew. Prints per-page results, then the mean and
// worst absolute error and the time per page (load + small copy + estimate, and estimate alone).
// Usage: quire-deskew-score [--data DIR] [--out DIR] [--time-deskew] [--real TSV]
//   --real scores the decision of `quire process` (deskewed by how much, or left alone) on the
//   real skewed scans listed in TSV (Tools/accuracy/real-skew.tsv), found under DIR (shared;
//   absent files are skipped) or in Tools/accuracy/real-scans (committed).
//   --out writes deskewed, trimmed pages; --time-deskew times deskew + trim + JPEG encode.
import Foundation
import QuireImaging
import VipsBridge

struct Case {
    var name: String
    var path: String
    var truth: Double
    var dpi: Double?
    var approximate: Bool = false
    /// No ground truth at all: printed (and written with --out) to be looked at, not scored.
    var unscored: Bool = false
}

func argument(_ flag: String) -> String? {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: flag), i + 1 < args.count else { return nil }
    return args[i + 1]
}

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let data = argument("--data") ?? root.appendingPathComponent("../shared/data").standardized.path
let outDir = argument("--out")
if let outDir { try? FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true) }

var cases: [Case] = []
let scans = data + "/synthetic/scans"
if let json = FileManager.default.contents(atPath: scans + "/truth.json"),
    let truth = try? JSONSerialization.jsonObject(with: json) as? [String: [String: Any]]
{
    for name in truth.keys.sorted() {
        guard let skew = truth[name]?["skew_deg"] as? Double else { continue }
        cases.append(Case(name: "synthetic/" + name, path: scans + "/" + name, truth: skew))
    }
}
// OCRmyPDF: the skew is the angle of the image x-axis in the content matrix (y up, CCW > 0);
// rotated_skew.pdf is shown with /Rotate 90, which takes 90 degrees off that angle.
let ocr = data + "/real/ocrmypdf-test-resources"
let realCases: [(String, Double)] = [
    ("skew.pdf", atan2(-19.9187622, 611.6731567) * 180 / .pi),
    ("rotated_skew.pdf", atan2(611.2716064, -29.8081055) * 180 / .pi - 90)
]
for (name, skew) in realCases where FileManager.default.fileExists(atPath: ocr + "/" + name) {
    cases.append(Case(name: "real/ocrmypdf/" + name, path: ocr + "/" + name, truth: skew, dpi: 150))
}
// Not scored: the gatherer's own estimate, not a source value (SOURCES.md says "about 9.2").
let textR = data + "/real/opencv-samples-data/imageTextR.png"
if FileManager.default.fileExists(atPath: textR) {
    cases.append(Case(name: "real/opencv/imageTextR.png (approx.)", path: textR, truth: 9.2, approximate: true))
}

// Real skewed scans without a stated angle: shown for inspection only.
for name in [
    "unpaper-tests/imgsrc001.png", "unpaper-tests/imgsrc002.png", "unpaper-tests/imgsrc003.png",
    "unpaper-tests/imgsrc004.png", "unpaper-tests/imgsrc005.png", "unpaper-tests/imgsrcE001.png",
    "tesseract-test-images/8071_093.3B.tif", "tesseract-test-images/8087_054.3B.tif",
    "tesseract-test-images/phototest.tif", "scikit-image-data/page.png"
]
where FileManager.default.fileExists(atPath: data + "/real/" + name) {
    cases.append(Case(name: "real/" + name + " (no truth)", path: data + "/real/" + name, truth: .nan, unscored: true))
}

if let realList = argument("--real") {
    scoreRealDecisions(
        list: realList, data: data, repoScans: root.appendingPathComponent("Tools/accuracy/real-scans").path,
        outDir: outDir)
    exit(0)
}

if cases.isEmpty {
    print("no scans with ground truth under \(data); nothing to score")
    exit(0)
}

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func threadMilliseconds(_ body: () throws -> Void) rethrows -> Double {
    var start = timespec(), end = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
    try body()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
    return Double(end.tv_sec - start.tv_sec) * 1e3 + Double(end.tv_nsec - start.tv_nsec) / 1e6
}

let timeDeskew = CommandLine.arguments.contains("--time-deskew")
var deskewMs: [Double] = []
var floorMs: [Double] = []
var errors: [Double] = []
var totalMs: [Double] = []
var estimateMs: [Double] = []
print(
    "page".padding(toLength: 44, withPad: " ", startingAt: 0)
        + "   truth  estimate   error  conf  total ms  est ms (wall, cpu)")
for c in cases {
    do {
        var estimate = SkewEstimate.none
        var copy: (gray: [UInt8], width: Int, height: Int) = ([], 0, 0)
        var image: VIPSImage? = nil
        // As the pipeline does it: a shrink-on-load copy (JPEG DCT scaling, small PDF render)
        // about 1000 px on the long side, made grey, then the estimate.
        let total = try milliseconds {
            let small = try VIPSImage.thumbnail(file: c.path, width: 1000, height: 1000)
            copy = try SkewEstimate.analysisCopy(of: small)
            estimate = SkewEstimate.estimate(gray: copy.gray, width: copy.width, height: copy.height)
        }
        if timeDeskew || outDir != nil {
            image = try VIPSImage.load(file: c.path, options: .init(dpi: c.dpi))
        }
        // Time the estimate alone as CPU time of this thread (it is single-threaded), the best of
        // three runs, so that other work on a shared machine does not inflate it.
        var est = Double.infinity
        for _ in 0..<3 {
            est = min(
                est,
                threadMilliseconds {
                    _ = SkewEstimate.estimate(gray: copy.gray, width: copy.width, height: copy.height)
                })
        }
        let error = abs(estimate.degrees - c.truth)
        if !c.approximate && !c.unscored {
            errors.append(error)
            totalMs.append(total)
            estimateMs.append(est)
        }
        print(
            c.name.padding(toLength: 44, withPad: " ", startingAt: 0)
                + (c.unscored
                    ? String(
                        format: "       -  %8.3f       -  %4.2f  %8.1f  %6.1f", estimate.degrees,
                        estimate.confidence, total, est)
                    : String(
                        format: " %7.3f  %8.3f  %6.3f  %4.2f  %8.1f  %6.1f", c.truth, estimate.degrees,
                        error, estimate.confidence, total, est)))
        if timeDeskew, let image, !c.unscored {
            // Deskew + trim + JPEG encode, against the floor of encoding the page as it is.
            let ready = try image.displayReady().materialized()
            let floor = try milliseconds { _ = try ready.encoded() }
            var cropText = "none"
            let deskew = try milliseconds {
                let (page, crop) = try ready.deskewedAndTrimmed(skew: estimate)
                _ = try page.encoded()
                if let crop { cropText = "\(Int(crop.width))x\(Int(crop.height))" }
            }
            deskewMs.append(deskew)
            floorMs.append(floor)
            print(
                String(format: "    deskew+trim+encode %.0f ms (encode alone %.0f ms), crop ", deskew, floor) + cropText
            )
        }
        if let outDir, let image {
            let (page, crop) = try image.displayReady().deskewedAndTrimmed(skew: estimate)
            let file =
                outDir + "/"
                + c.name.replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: " ", with: "_") + ".jpg"
            try page.thumbnail(width: 1200, height: 1200).save(to: file)
            print(
                "    -> \(file) crop \(crop.map { "\(Int($0.x)),\(Int($0.y)) \(Int($0.width))x\(Int($0.height))" } ?? "none")"
            )
        }
    } catch {
        print(c.name + ": error: \(error)")
    }
}
if !errors.isEmpty {
    let mean = errors.reduce(0, +) / Double(errors.count)
    print(
        String(
            format: "\n%d pages with known skew: mean abs error %.3f deg, worst %.3f deg (targets <= 0.1, <= 0.5)",
            errors.count, mean, errors.max() ?? 0))
    print(
        String(
            format:
                "time per page: %.1f ms shrink-on-load copy + estimate (wall), %.1f ms estimate alone (thread CPU) (means)",
            totalMs.reduce(0, +) / Double(totalMs.count), estimateMs.reduce(0, +) / Double(estimateMs.count)))
}
if !deskewMs.isEmpty {
    print(
        String(
            format: "deskew + trim + encode: %.0f ms per page against %.0f ms to encode the page as it is (means)",
            deskewMs.reduce(0, +) / Double(deskewMs.count), floorMs.reduce(0, +) / Double(floorMs.count)))
}

/// Scores what `quire process` does with each real skewed scan: the angle it turned the page by
/// (0 when it left the page alone) against the known angle, over every page, and whether
/// `quire detect` took the same decision.
func scoreRealDecisions(list: String, data: String, repoScans: String, outDir: String?) {
    guard let text = try? String(contentsOfFile: list, encoding: .utf8) else {
        print("cannot read \(list)"); return
    }
    let work = outDir ?? NSTemporaryDirectory() + "quire-deskew-real-\(getpid())"
    try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    // Skew is scored on whole pages: unpaper's spreads are judged as one page (left alone).
    let pipeline = PagePipeline(split: SplitOptions(mode: .none))
    var errors: [Double] = [], worse = 0, skipped = 0, disagree = 0, wrongRegions = 0
    print("real page".padding(toLength: 40, withPad: " ", startingAt: 0) + "   truth  decision   turned   error")
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        let f = line.split(separator: "\t").map(String.init)
        guard f.count >= 3, let truth = Double(f[2]) else { continue }
        var path = (f[0] == "repo" ? repoScans : data) + "/" + f[1]
        guard FileManager.default.fileExists(atPath: path) else { skipped += 1; continue }
        var name = f[1].replacingOccurrences(of: "/", with: "_")
        // "turned:A": a real scan turned A degrees counter-clockwise here (white corners), so
        // its truth is its own measured skew plus A: the large angles of a page laid crooked.
        // The page's own area, to tell a quad around the page from one around a picture on it.
        var pageArea: Double? = nil
        if f[0].hasPrefix("turned:"), let turn = Double(f[0].dropFirst("turned:".count)) {
            name += "-turned\(f[0].dropFirst("turned:".count))"
            let turnedPath = work + "/" + name + ".png"
            do {
                let original = try VIPSImage.load(file: path).autorotated()
                pageArea = Double(original.width * original.height)
                try original.rotated(degrees: -turn, background: [255]).save(
                    to: turnedPath, options: .init(format: .png))
            } catch { print("\(name): cannot turn (\(error))"); continue }
            path = turnedPath
        }
        let dpi = path.hasSuffix(".pdf") ? 150.0 : 200.0
        do {
            let outputs = PageOutputPaths(
                page: work + "/" + name + ".jpg", preview: work + "/" + name + ".preview.jpg",
                thumbnail: work + "/" + name + ".thumb.jpg")
            let result = try pipeline.process(PageSource(path: path, page: 0, dpi: dpi), to: outputs)[0]
            let detected = try Detector.detect(
                file: path, dpi: dpi, fullResolution: true, orientation: TesseractOSD.installed)
            var turned = 0.0
            var decision = result.correction.kind.rawValue
            switch result.correction.kind {
            case .deskew: turned = result.correction.skewDegrees ?? 0
            case .none: turned = 0
            case .perspective:
                // Warped by a page quad: the turn is whatever remains in the written page, if
                // the quad holds the page. A quad around less than 60 % of it (a picture on the
                // page) is a wrong page, whatever its angle: scored as 90 degrees off.
                let frame = try VIPSImage.load(file: path).autorotated()
                let area = pageArea ?? Double(frame.width * frame.height)
                if let quad = result.correction.quad, quad.area < 0.6 * area {
                    turned = truth - 90
                    decision = "WRONG-REGION"
                    wrongRegions += 1
                } else {
                    let page = try VIPSImage.load(file: outputs.page)
                    turned = truth - (try SkewEstimate.estimate(page: page)).degrees
                    decision = "perspective*"
                }
            }
            let same =
                (detected.kind == .scan && result.correction.kind == .deskew
                    && abs((detected.skewDegrees ?? 0) - turned) < 1e-6)
                || (detected.kind == .photo && result.correction.kind == .perspective)
                || (detected.kind == DetectionResult.Kind.none && result.correction.kind == .none)
            if !same { disagree += 1 }
            let error = abs(truth - turned)
            if error > abs(truth) + 1e-9 { worse += 1 }
            errors.append(error)
            print(
                f[1].padding(toLength: 40, withPad: " ", startingAt: 0)
                    + String(format: " %7.3f  %-12@ %7.3f  %6.3f", truth, decision as NSString, turned, error)
                    + (same ? "" : "  detect: \(detected.kind?.rawValue ?? "error")"))
        } catch {
            print(f[1] + ": error: \(error)")
        }
    }
    if !errors.isEmpty {
        print(
            String(
                format: "\n%d real scans (%d absent, skipped): mean abs error %.3f deg, worst %.3f deg "
                    + "(targets <= 0.1, <= 0.3); %d made worse; %d cropped to a wrong region; "
                    + "%d where detect and process disagree",
                errors.count, skipped, errors.reduce(0, +) / Double(errors.count), errors.max() ?? 0, worse,
                wrongRegions, disagree))
        print("(perspective*: warped as a photo; its remaining skew is Quire's own estimate on the written page)")
    } else {
        print("no real scans present (\(skipped) listed, none found)")
    }
}
