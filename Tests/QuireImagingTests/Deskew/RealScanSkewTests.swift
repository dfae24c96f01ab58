import Foundation
import Testing
@testable import QuireImaging

/// Real skewed scans with known angles (Tools/accuracy/real-skew.tsv): the scans committed in
/// Tools/accuracy/real-scans always, those under ../shared/data when it is there. Every one must
/// be found as a scan and turned to within 0.3 degree of its true angle, or left alone when it
/// has no text lines to measure (truth 0) — what issue 22 asks of a turned page.
@Suite struct RealScanSkewTests {
    struct Row: CustomStringConvertible {
        var path: String, truth: Double, name: String
        /// A failure the list records as known (a fifth column "known: why"): expected to fail
        /// until fixed.
        var known: String? = nil
        var description: String { name }
    }

    /// The rows of the list whose file is here; rows the harness turns itself ("turned:A") are
    /// left to `make accuracy-deskew`.
    static func rows(root: String) -> [Row] {
        let list = TestSupport.repoRoot.appendingPathComponent("Tools/accuracy/real-skew.tsv").path
        guard let text = try? String(contentsOfFile: list, encoding: .utf8) else { return [] }
        let repoScans = TestSupport.repoRoot.appendingPathComponent("Tools/accuracy/real-scans").path
        let shared = TestSupport.realData.deletingLastPathComponent().path
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: "\t").map(String.init)
            guard !line.hasPrefix("#"), f.count >= 3, f[0] == root, let truth = Double(f[2]) else { return nil }
            let path = (root == "repo" ? repoScans : shared) + "/" + f[1]
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            let known = f.count >= 5 && f[4].hasPrefix("known:") ? String(f[4].dropFirst("known:".count)) : nil
            return Row(path: path, truth: truth, name: f[1], known: known)
        }
    }

    static func check(_ row: Row) throws {
        guard let known = row.known else { return try checkPromises(row) }
        // Fails loudly once fixed, so the note in real-skew.tsv is removed with it.
        withKnownIssue(Comment(rawValue: known)) { try checkPromises(row) }
    }

    static func checkPromises(_ row: Row) throws {
        let dpi = row.path.hasSuffix(".pdf") ? 150.0 : 200.0
        let result = try Detector.detect(file: row.path, dpi: dpi, fullResolution: true)
        let skew = result.skewDegrees ?? 0
        #expect(abs(skew - row.truth) <= 0.3, "\(row.name): turned \(skew), true angle \(row.truth)")
        if row.truth != 0 {
            #expect(result.kind == .scan, "\(row.name) was taken for \(String(describing: result.kind))")
        }
    }

    @Test("The committed real scans are turned within 0.3 degree", arguments: rows(root: "repo"))
    func committedScans(_ row: Row) throws { try Self.check(row) }

    @Test("The shared real scans are turned within 0.3 degree or left alone", arguments: rows(root: "shared"))
    func sharedScans(_ row: Row) throws { try Self.check(row) }

    @Test func theCommittedSetIsThere() {
        // Guards against the list and the folder drifting apart (a renamed file would silently
        // drop out of the parameterised test above).
        #expect(Self.rows(root: "repo").count >= 42)
    }
}
