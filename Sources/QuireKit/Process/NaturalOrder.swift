/// Orders names the way people read them: runs of digits compare by value, so `page2` comes
/// before `page10`.
///
/// Letters compare case-insensitively; names that are equal under that rule (`page02`,
/// `page2`; `a`, `A`) are ordered by their exact characters, so the order is total and
/// deterministic.
public enum NaturalOrder {
    /// True when `a` sorts before `b`.
    /// - Complexity: O(length of the shorter string).
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        compare(a, b) < 0
    }

    /// -1, 0 or 1.
    public static func compare(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        var i = 0, j = 0
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                let si = i, sj = j
                while i < x.count && isDigit(x[i]) { i += 1 }
                while j < y.count && isDigit(y[j]) { j += 1 }
                let c = compareNumbers(x[si..<i], y[sj..<j])
                if c != 0 { return c }
                continue
            }
            let cx = folded(x[i]), cy = folded(y[j])
            if cx != cy { return cx < cy ? -1 : 1 }
            i += 1; j += 1
        }
        if i < x.count { return 1 }
        if j < y.count { return -1 }
        // Equal under the natural rule: fall back to the exact scalars for a total order.
        return a == b
            ? 0 : (a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) { $0.value < $1.value } ? -1 : 1)
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 48 && s.value <= 57 }

    private static func folded(_ s: Unicode.Scalar) -> UInt32 {
        (s.value >= 65 && s.value <= 90) ? s.value + 32 : s.value
    }

    /// Compares digit runs by value without overflow: strip leading zeros, then length, then digits.
    private static func compareNumbers(_ a: ArraySlice<Unicode.Scalar>, _ b: ArraySlice<Unicode.Scalar>) -> Int {
        let ta = a.drop { $0 == "0" }, tb = b.drop { $0 == "0" }
        if ta.count != tb.count { return ta.count < tb.count ? -1 : 1 }
        for (p, q) in zip(ta, tb) where p != q { return p.value < q.value ? -1 : 1 }
        return 0
    }
}

extension NaturalOrder {
    /// Compares relative paths component by component, so a folder's files stay together
    /// (`a/page10.jpg` before `a2/page1.jpg`... and `scan2/x` before `scan10/x`).
    public static func comparePaths(_ a: String, _ b: String) -> Bool {
        let pa = a.split(separator: "/", omittingEmptySubsequences: false)
        let pb = b.split(separator: "/", omittingEmptySubsequences: false)
        for (p, q) in zip(pa, pb) {
            let c = compare(String(p), String(q))
            if c != 0 { return c < 0 }
        }
        return pa.count < pb.count
    }
}
