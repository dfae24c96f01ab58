import Testing
import QuireLayout
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Golden files: readable one-line-per-item text beside the tests (`Goldens/<name>.txt`),
/// re-recorded when the environment variable `QUIRE_RECORD=1` is set (the run then fails
/// once so a recording is never mistaken for a pass).
enum Golden {
    static var directory: String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast()
        return parts.joined(separator: "/") + "/Goldens"
    }

    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "NONFINITE(\(v))" }
        var r = (v * 10_000).rounded(.toNearestOrAwayFromZero) / 10_000
        if r == 0 { r = 0 }
        if r == r.rounded(), abs(r) < 1e15 { return String(Int(r)) }
        return "\(r)"
    }

    /// `i=… center=(x,y) size=(w×h) t=(tx,ty,scale) alpha=… z=…`.
    static func line(_ a: LayoutAttributes) -> String {
        "i=\(a.index) center=(\(number(a.center.x)),\(number(a.center.y))) size=(\(number(a.size.width))x\(number(a.size.height)))"
            + " t=(\(number(a.transform.tx)),\(number(a.transform.ty)),\(number(a.transform.scale))) alpha=\(number(a.alpha)) z=\(a.zIndex)"
    }

    static func rect(_ r: Rect?) -> String {
        guard let r else { return "nil" }
        return "(\(number(r.x)),\(number(r.y)),\(number(r.width))x\(number(r.height)))"
    }

    /// Compares `lines` with the golden file `name`, or records it when `QUIRE_RECORD=1`.
    static func check(_ name: String, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let path = directory + "/" + name + ".txt"
        let text = lines.joined(separator: "\n") + "\n"
        if let flag = getenv("QUIRE_RECORD"), String(cString: flag) == "1" {
            write(text, to: path)
            Issue.record("recorded golden \(name); run again without QUIRE_RECORD", sourceLocation: sourceLocation)
            return
        }
        guard let expected = read(path) else {
            Issue.record("missing golden \(path); run with QUIRE_RECORD=1 to record it", sourceLocation: sourceLocation)
            return
        }
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let b = text.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? String(a[i]) : "<none>", y = i < b.count ? String(b[i]) : "<none>"
            if x != y {
                Issue.record(
                    "golden \(name) line \(i + 1):\n  expected: \(x)\n  actual:   \(y)", sourceLocation: sourceLocation)
                return
            }
        }
    }

    private static func read(_ path: String) -> String? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, f)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func write(_ text: String, to path: String) {
        guard let f = fopen(path, "wb") else { return }
        defer { fclose(f) }
        let bytes = Array(text.utf8)
        _ = fwrite(bytes, 1, bytes.count, f)
    }
}

/// Checks the invariants every attribute must hold.
func expectSane(_ a: LayoutAttributes, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let values = [
        a.center.x, a.center.y, a.size.width, a.size.height, a.transform.tx, a.transform.ty, a.transform.scale, a.alpha
    ]
    let allFinite = values.allSatisfy { $0.isFinite }
    #expect(allFinite, "non-finite value in \(context): \(a)", sourceLocation: sourceLocation)
    #expect(a.alpha >= 0 && a.alpha <= 1, "alpha out of range in \(context): \(a)", sourceLocation: sourceLocation)
    #expect(a.size.width >= 0 && a.size.height >= 0, "negative size in \(context)", sourceLocation: sourceLocation)
}
