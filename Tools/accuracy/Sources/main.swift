// QuireAccuracy: scores border detection (photos) and skew (scans) against ground truth, for
// Quire and for peers whose results were written as JSON, in one run.
//
//   QuireAccuracy [--peer NAME=FILE.json]... [--pages DIR] [--warp-bench] [--fast] DATASET...
//
// Photos are detected as `quire process` and `quire detect` do: the whole image decoded, the
// detection copy averaged from it and the corners refined on it. `--fast` scores the
// shrink-on-load copy alone (`Detector.detect(file:fullResolution: false)`), whose pixels
// differ slightly and can tip a borderline photo either way.
//
// A DATASET is a folder with truth.json: photo sets map file names to {"corners", ...}, scan
// sets map them to {"skew_deg", ...} (the format of ../shared/data/synthetic). A peer file is
// {"results": [{"source": name, "quad": [[x, y] x 4] or null, "ms": number}]}.
// When a detector finds no page, the whole frame is scored (it is what the user then gets).
import Foundation
import QuireImaging
import VipsBridge

struct Scores {
    var ious: [Double] = []
    var cornerErrors: [Double] = []
    var ms: [Double] = []
    var found = 0
    /// Quads reported sure (confidence >= 0.75) and how many of them are under IoU 0.9; nil for
    /// a detector that gives no confidence.
    var sure: Int?, sureOff = 0
    var aspectErrors: [Double] = []

    mutating func add(truth: Quad, quad: Quad?, width: Int, height: Int, ms: Double?, confidence: Double? = nil) {
        let used = quad ?? Quad(rect: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        if quad != nil { found += 1 }
        let iou = truth.intersectionOverUnion(with: used)
        if let confidence {
            if quad != nil, confidence >= 0.75 {
                sure = (sure ?? 0) + 1
                if iou < 0.9 { sureOff += 1 }
            } else if sure == nil {
                sure = 0
            }
        }
        ious.append(iou)
        let diagonal = (Double(width * width + height * height)).squareRoot()
        cornerErrors.append(truth.worstCornerDistance(to: used.readingOrdered()) / diagonal)
        if let ms { self.ms.append(ms) }
    }

    mutating func addAspect(estimated: Double, truth: Double) {
        aspectErrors.append(abs(estimated / truth - 1))
    }

    func line(_ name: String) -> String {
        guard !ious.isEmpty else { return "\(name): no images" }
        let n = Double(ious.count)
        let mean = ious.reduce(0, +) / n
        let share = Double(ious.filter { $0 >= 0.9 }.count) / n
        let corner = cornerErrors.reduce(0, +) / n
        // Harmful: the user would get the wrong region (IoU < 0.6 with the true page).
        let harmful = ious.filter { $0 < 0.6 }.count
        let msText = ms.isEmpty ? "-" : String(format: "%.1f", ms.reduce(0, +) / Double(ms.count))
        let aspect =
            aspectErrors.isEmpty
            ? ""
            : String(
                format: "  aspect err mean %.1f%% worst %.1f%%",
                aspectErrors.reduce(0, +) / Double(aspectErrors.count) * 100, aspectErrors.max()! * 100)
        // Sure but off: a quad reported at confidence >= 0.75 that is not the page (IoU < 0.9).
        let sureText = sure.map { String(format: "  sure(conf>=0.75)=%d under IoU 0.9: %d", $0, sureOff) } ?? ""
        return String(
            format:
                "%-10@ n=%3d  meanIoU=%.4f  IoU>=0.9: %5.1f%%  minIoU=%.3f  worstCorner/diag=%.4f  found=%d  harmful(IoU<0.6)=%d  ms/page=%@",
            name as NSString, ious.count, mean, share * 100, ious.min()!, corner, found, harmful, msText as NSString)
            + sureText + aspect
    }
}

func readJSON(_ path: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
}

func quad(from value: Any?) -> Quad? {
    guard let pts = value as? [[Double]], pts.count == 4, pts.allSatisfy({ $0.count == 2 }) else { return nil }
    return Quad(corners: pts.map { Point(x: $0[0], y: $0[1]) })
}

var args = Array(CommandLine.arguments.dropFirst())
var peers: [(String, String)] = []
var pagesDir: String? = nil
var warpBench = false
var verbose = false
var repeats = 1
var fullResolution = true
var datasets: [String] = []
// The verifier's modes (Verifier.swift), and the candidate table its per-source refits read.
var dumpTable: String? = nil, fitTable: (String, String)? = nil, reportTable: String? = nil
var reliabilityCSV: String? = nil, verifierTable: String? = nil
while !args.isEmpty {
    let a = args.removeFirst()
    switch a {
    case "--peer":
        let spec = args.removeFirst()
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2 { peers.append((parts[0], parts[1])) }
    case "--pages": pagesDir = args.removeFirst()
    case "--warp-bench": warpBench = true
    case "--verbose", "-v": verbose = true
    case "--fast": fullResolution = false
    case "--repeat": repeats = max(1, Int(args.removeFirst()) ?? 1)
    case "--dump-candidates": dumpTable = args.removeFirst()
    case "--fit-verifier": fitTable = (args.removeFirst(), args.removeFirst())
    case "--verifier-report": reportTable = args.removeFirst()
    case "--reliability-csv": reliabilityCSV = args.removeFirst()
    case "--verifier": verifierTable = args.removeFirst()
    default: datasets.append(a)
    }
}

do {
    if let dumpTable { try dumpCandidates(datasets: datasets, to: dumpTable); exit(0) }
    if let fit = fitTable { try fitVerifier(table: fit.0, output: fit.1); exit(0) }
    if let reportTable { try verifierReport(table: reportTable, curve: reliabilityCSV); exit(0) }
} catch {
    print("QuireAccuracy: \(error)")
    exit(2)
}
let verifierRows = try verifierTable.map { try CandidateTable.parse(String(contentsOfFile: $0, encoding: .utf8)) }

var peerResults: [String: [String: (Quad?, Double?)]] = [:]
for (name, file) in peers {
    guard let root = try? readJSON(file) as? [String: Any], let results = root["results"] as? [[String: Any]] else {
        print("peer \(name): cannot read \(file), skipped")
        continue
    }
    var map: [String: (Quad?, Double?)] = [:]
    for r in results {
        guard let source = r["source"] as? String else { continue }
        map[source] = (quad(from: r["quad"])?.readingOrdered(), r["ms"] as? Double)
    }
    peerResults[name] = map
}

for dataset in datasets {
    let truthPath = (dataset as NSString).appendingPathComponent("truth.json")
    guard let truth = (try? readJSON(truthPath)) as? [String: [String: Any]] else {
        print("\(dataset): no truth.json, skipped")
        continue
    }
    let names = truth.keys.sorted()
    let isScanSet = truth.values.contains { $0["skew_deg"] != nil }
    print("== \(dataset) (\(names.count) \(isScanSet ? "scans" : "photos"))")
    if isScanSet {
        var errors: [Double] = [], ms: [Double] = [], asScan = 0
        for name in names {
            let path = (dataset as NSString).appendingPathComponent(name)
            let trueSkew = truth[name]?["skew_deg"] as? Double ?? 0
            guard let r = try? Detector.detect(file: path, fullResolution: fullResolution) else {
                print("  \(name): unreadable"); continue
            }
            if verbose {
                print(
                    String(
                        format: "  %@ true %.3f measured %@", name as NSString, trueSkew,
                        r.skewDegrees.map { String(format: "%.3f (conf %.2f)", $0, r.confidence) }
                            ?? "- (taken as photo)"))
            }
            if r.skewDegrees != nil { asScan += 1 }
            errors.append(abs((r.skewDegrees ?? 0) - trueSkew))
            if let t = r.detectionMilliseconds { ms.append(t) }
        }
        let n = Double(max(1, errors.count))
        print(
            String(
                format: "quire      n=%3d  taken as scan: %d  mean|skew err|=%.3f deg  worst=%.3f deg  ms/page=%.1f",
                errors.count, asScan, errors.reduce(0, +) / n, errors.max() ?? 0,
                ms.reduce(0, +) / Double(max(1, ms.count))))
        continue
    }
    var quire = Scores()
    var peerScores = [String: Scores]()
    var asPhoto = 0
    var bySource = SourceReport()
    // Grouped by source, so that each source is scored right after the fit that left it out.
    let sourceOf = names.map { name in truth[name].flatMap(PhotoSource.init(entry:)) }
    let ordered = zip(names, sourceOf).sorted {
        ($0.1?.publisher ?? "", $0.1?.name ?? "", $0.0) < ($1.1?.publisher ?? "", $1.1?.name ?? "", $1.0)
    }
    var fittedFor: String? = nil
    var verified = Scores(), verifiedBySource = SourceReport()
    // Photos without a source (the generated sets) are left out of the fit as their set.
    var verifier = verifierRows.map { refit(excluding: candidateSet(dataset) ?? "", rows: $0) }
    for (name, source) in ordered {
        let path = (dataset as NSString).appendingPathComponent(name)
        guard let entry = truth[name], let t = quad(from: entry["corners"]) else { continue }
        if let source, source.publisher != fittedFor {
            fittedFor = source.publisher
            verifier = verifierRows.map { refit(excluding: source.publisher, rows: $0) }
        }
        let size = entry["display_size"] as? [Int] ?? [0, 0]
        do {
            var r = try Detector.detect(file: path, fullResolution: fullResolution)
            // The machine is shared: the best of several runs is the cost of detection itself.
            for _ in 1..<repeats {
                let again = try Detector.detect(file: path, fullResolution: fullResolution)
                r.detectionMilliseconds = min(
                    r.detectionMilliseconds ?? .infinity, again.detectionMilliseconds ?? .infinity)
            }
            if r.skewDegrees == nil {
                asPhoto += 1
            } else if r.quad == nil {
                // Taken for a scan: the user gets the page deskewed and trimmed, not the frame.
                r.quad = scanRegion(path, width: r.width, height: r.height)
            }
            if verbose {
                let used = r.quad ?? Quad(rect: Rect(x: 0, y: 0, width: Double(r.width), height: Double(r.height)))
                print(
                    String(
                        format: "  %@ IoU=%.4f conf=%.2f scan=%@ ms=%.1f", name as NSString,
                        t.intersectionOverUnion(with: used),
                        r.confidence, r.skewDegrees == nil ? "no" : "yes", r.detectionMilliseconds ?? 0))
            }
            quire.add(
                truth: t, quad: r.quad, width: r.width, height: r.height, ms: r.detectionMilliseconds,
                confidence: r.confidence)
            if let source {
                bySource.add(source, truth: t, quad: r.quad, width: r.width, height: r.height, confidence: r.confidence)
            }
            if let verifier {
                var v = try Detector.detect(file: path, fullResolution: fullResolution, verifier: verifier)
                if v.skewDegrees != nil, v.quad == nil { v.quad = scanRegion(path, width: v.width, height: v.height) }
                verified.add(
                    truth: t, quad: v.quad, width: v.width, height: v.height, ms: v.detectionMilliseconds,
                    confidence: v.confidence)
                if let source {
                    verifiedBySource.add(
                        source, truth: t, quad: v.quad, width: v.width, height: v.height, confidence: v.confidence)
                }
            }
            if let q = r.quad, let paper = entry["paper_aspect"] as? Double {
                quire.addAspect(
                    estimated: PageCorrection.estimatedAspectRatio(of: q, imageWidth: r.width, imageHeight: r.height),
                    truth: paper)
                let fromTruth = PageCorrection.estimatedAspectRatio(of: t, imageWidth: r.width, imageHeight: r.height)
                if ProcessInfo.processInfo.environment["QUIRE_ASPECT_DEBUG"] != nil {
                    let e = t.edgeLengths
                    print(
                        String(
                            format: "  %@ aspect true %.4f  from true quad %.4f  edges %.4f", name as NSString, paper,
                            fromTruth,
                            (e.top + e.bottom) / (e.left + e.right)))
                }
            }
        } catch {
            print("  \(name): \(error)")
        }
        for (peer, map) in peerResults {
            let hit = map[name] ?? map[path]
            peerScores[peer, default: Scores()].add(
                truth: t, quad: hit?.0 ?? nil, width: size[0], height: size[1],
                ms: hit?.1 ?? nil)
        }
        if let dir = pagesDir {
            try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let out = (dir as NSString).appendingPathComponent((name as NSString).deletingPathExtension + ".jpg")
            let clock = ContinuousClock()
            var info = ""
            let elapsed = clock.measure {
                do {
                    let (record, w, h) = try PageCorrection.correctFile(PageSource(path: path), outputPath: out)
                    info = "\(record.kind.rawValue) \(w)x\(h)"
                } catch { info = "\(error)" }
            }
            print("  page \(name): \(info)  (decode+correct+encode \(elapsed))")
        }
    }
    // Held-out sources first, then in-sample, then the whole set (both pooled).
    for line in bySource.lines() { print(line) }
    print(quire.line("quire") + "  taken as photo: \(asPhoto)" + (bySource.scores.isEmpty ? "" : "  (all sources)"))
    if verifier != nil {
        print("the fitted verifier, refitted without each scored source's publisher (leave-one-publisher-out):")
        for line in verifiedBySource.lines() { print("  " + line) }
        print(verified.line("verifier") + (verifiedBySource.scores.isEmpty ? "" : "  (all sources)"))
    }
    scoreSpreads(dataset: dataset, truth: truth)
    for (peer, s) in peerScores.sorted(by: { $0.key < $1.key }) { print(s.line(peer)) }
}

/// The part of a photo taken for a scan that `quire process` keeps: its trimmed rectangle in
/// the deskewed page, turned back into display pixels of the photo (nil when nothing was
/// trimmed: the whole frame is kept).
func scanRegion(_ path: String, width: Int, height: Int) -> Quad? {
    let work = NSTemporaryDirectory() + "quire-scan-\(getpid())"
    try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: work) }
    let pipeline = PagePipeline(
        renditions: RenditionOptions(previewSize: 64, thumbnailSize: 32),
        correction: CorrectionOptions(rotate: .none), split: SplitOptions(mode: .none))
    let paths = PageOutputPaths(
        page: work + "/page.jpg", preview: work + "/preview.jpg", thumbnail: work + "/thumb.jpg")
    guard let record = try? pipeline.process(PageSource(path: path), to: paths).first?.correction,
        record.kind == .deskew, let crop = record.crop
    else { return nil }
    return unturned(crop, degrees: record.skewDegrees ?? 0, width: Double(width), height: Double(height))
}

/// A rectangle of a page turned clockwise by `degrees` about its centre on a grown canvas (as
/// libvips' rotate does), back in pixels of the `width` x `height` page before the turn.
func unturned(_ rect: Rect, degrees: Double, width: Double, height: Double) -> Quad {
    let back = AffineTransform.turn(degrees: degrees, width: width, height: height).transform.inverted() ?? .identity
    return Quad(rect: rect).map { back.apply(to: $0) }
}

/// Open books (entries with `pages`): processed with `--split auto`; each written page's region
/// in the photo (its quad, or its half of the frame when no quad was found) against the true
/// page. Single pages split are counted too.
func scoreSpreads(dataset: String, truth: [String: [String: Any]]) {
    let spreads = truth.keys.filter { truth[$0]?["pages"] != nil }.sorted()
    guard !spreads.isEmpty else { return }
    let work = NSTemporaryDirectory() + "quire-spreads-\(getpid())"
    try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: work) }
    let pipeline = PagePipeline(renditions: RenditionOptions(previewSize: 1600, thumbnailSize: 64))
    var split = 0, good = 0, ious: [Double] = []
    for name in spreads {
        guard let pages = truth[name]?["pages"] as? [[String: Any]] else { continue }
        let paths = PageOutputPaths(
            page: work + "/page.jpg", preview: work + "/preview.jpg", thumbnail: work + "/thumb.jpg")
        guard
            let results = try? pipeline.process(
                PageSource(path: (dataset as NSString).appendingPathComponent(name)), to: paths)
        else {
            print("  spread \(name): cannot be processed"); continue
        }
        guard results.count == pages.count else { print("  spread \(name): not split"); continue }
        split += 1
        for (result, page) in zip(results, pages) {
            guard let t = quad(from: page["corners"]) else { continue }
            var region = result.correction.quad
            if region == nil, let rect = result.split?.rect {
                // No quad: its part of the spread, after a scan's trim, turned back into the photo.
                let origin = result.correction.crop.map { Point(x: $0.minX, y: $0.minY) } ?? Point(x: 0, y: 0)
                let part = Rect(
                    x: rect.minX + origin.x, y: rect.minY + origin.y, width: rect.width, height: rect.height)
                let size = truth[name]?["display_size"] as? [Double] ?? [0, 0]
                region =
                    result.correction.kind == .deskew
                    ? unturned(part, degrees: result.correction.skewDegrees ?? 0, width: size[0], height: size[1])
                    : Quad(rect: part)
            }
            let iou = region.map { t.intersectionOverUnion(with: $0) } ?? 0
            ious.append(iou)
            if iou >= 0.9 { good += 1 }
            print(
                String(
                    format: "  spread %@ page %d (%@): IoU=%.4f", name as NSString, result.split?.part ?? 0,
                    result.correction.kind.rawValue as NSString, iou))
        }
    }
    print(
        String(
            format: "spreads    n=%3d  split=%d  pages IoU>=0.9: %d of %d  minIoU=%.3f", spreads.count, split, good,
            ious.count, ious.min() ?? 0))
}

if warpBench, let dataset = datasets.first {
    // A 12 MP capture warped with its true quad to the page's own size.
    let path = (dataset as NSString).appendingPathComponent("cap_000.jpg")
    if let truth = (try? readJSON((dataset as NSString).appendingPathComponent("truth.json")))
        as? [String: [String: Any]],
        let t = quad(from: truth["cap_000.jpg"]?["corners"]),
        let image = try? VIPSImage.load(file: path).autorotated().displayReady(),
        let bytes = try? image.pixelBytes()
    {
        let e = t.edgeLengths
        // The page at its own size, and a whole-frame 12 MP output (a page filling the photo).
        let inset = Quad(
            topLeft: Point(x: 40, y: 30), topRight: Point(x: Double(image.width) - 10, y: 0),
            bottomRight: Point(x: Double(image.width), y: Double(image.height)),
            bottomLeft: Point(x: 0, y: Double(image.height) - 20))
        for (quad, w, h) in [
            (t, Int(max(e.top, e.bottom)), Int(max(e.left, e.right))), (inset, image.width, image.height)
        ] {
            var times: [Double] = [], cpu: [Double] = []
            for _ in 0..<7 {
                let cpu0 = clock()
                defer { cpu.append(Double(clock() - cpu0) / Double(CLOCKS_PER_SEC) * 1000) }
                let clock = ContinuousClock()
                let d = clock.measure {
                    _ = try? PerspectiveWarp.warp(
                        pixels: bytes, width: image.width, height: image.height, bands: image.bands,
                        quad: quad, outputWidth: w, outputHeight: h)
                }
                times.append(Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000)
            }
            times.sort(); cpu.sort()
            print(
                String(
                    format:
                        "warp RGB: %dx%d source (%.1f MP) -> %dx%d (%.1f MP): wall median %.1f ms, best %.1f ms; CPU (all threads) median %.1f ms",
                    image.width, image.height, Double(image.width * image.height) / 1e6, w, h,
                    Double(w * h) / 1e6, times[times.count / 2], times[0], cpu[cpu.count / 2]))
            // The same from the file's YCbCr planes (what `quire process` warps for 4:2:0 JPEGs).
            if image.width == 4000,
                let frame = try? YCbCrFrame.decodingJPEG(file: path, width: image.width, height: image.height)
            {
                let planes = PlanarPixels(frame)
                var out = [UInt8](repeating: 0, count: w * h * 3)
                var times: [Double] = [], cpu: [Double] = []
                for _ in 0..<7 {
                    let cpu0 = clock()
                    let d = ContinuousClock().measure {
                        out.withUnsafeMutableBufferPointer {
                            _ = try? PerspectiveWarp.warp(
                                planes: planes, quad: quad, outputWidth: w, outputHeight: h, into: $0)
                        }
                    }
                    cpu.append(Double(clock() - cpu0) / Double(CLOCKS_PER_SEC) * 1000)
                    times.append(Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000)
                }
                times.sort(); cpu.sort()
                print(
                    String(
                        format:
                            "warp YCbCr: -> %dx%d: wall median %.1f ms, best %.1f ms; CPU (all threads) median %.1f ms",
                        w, h, times[times.count / 2], times[0], cpu[cpu.count / 2]))
            }
        }
    }
}
