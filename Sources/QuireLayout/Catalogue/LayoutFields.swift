import QuireGeometry

/// A JSON object being read field by field: typed getters that name the field on error, and a
/// check that no unknown key was left over (catches typos such as `viewPort`). A catalogue
/// entry reads its parameters with it, so every layout words its errors the same way.
public struct LayoutFields {
    /// The object's members.
    public let object: [String: LayoutJSON]
    /// The object's dotted path in the request (`parameters`, `parameters.updates[2]`).
    public let path: String
    private let seen: Box

    /// The keys read so far, shared by copies of the reader.
    final class Box { var keys: Set<String> = [] }

    /// A reader of `value` at `path`.
    /// - Throws: `LayoutRequestError` when `value` is not an object.
    public init(_ value: LayoutJSON, path: String) throws {
        guard case .object(let o) = value else {
            throw LayoutRequestError(
                field: path, message: path.isEmpty ? "the request must be a JSON object" : "must be an object")
        }
        object = o
        self.path = path
        seen = Box()
    }

    /// The dotted path of `key`.
    public func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    /// An error at `key` with `message`.
    public func error(_ key: String, _ message: String) -> LayoutRequestError {
        LayoutRequestError(field: name(key), message: message)
    }
    /// Whether `key` is present and not null.
    public func has(_ key: String) -> Bool { object[key] != nil && object[key] != .null }

    /// The value at `key` (nil when absent or null), marking it as read.
    public func raw(_ key: String) -> LayoutJSON? {
        seen.keys.insert(key)
        guard let v = object[key], v != .null else { return nil }
        return v
    }

    /// The number at `key`, which must lie within ±`LayoutLimits.maximumMagnitude` (so no
    /// formula downstream can overflow to infinity).
    public func number(_ key: String, required: Bool) throws -> Double? {
        guard let v = raw(key) else {
            if required { throw error(key, "is required") }
            return nil
        }
        guard case .number(let d) = v, d.isFinite else { throw error(key, "must be a finite number") }
        guard abs(d) <= LayoutLimits.maximumMagnitude else {
            throw error(key, "must be a number in \(LayoutLimits.magnitudeText)")
        }
        return d
    }

    /// The integer at `key` (a number with no fraction).
    public func integer(_ key: String, required: Bool) throws -> Int? {
        guard let d = try number(key, required: required) else { return nil }
        guard d == d.rounded(), abs(d) <= 9e15 else { throw error(key, "must be an integer") }
        return Int(d)
    }

    /// The string at `key`.
    public func string(_ key: String, required: Bool) throws -> String? {
        guard let v = raw(key) else {
            if required { throw error(key, "is required") }
            return nil
        }
        guard case .string(let s) = v else { throw error(key, "must be a string") }
        return s
    }

    /// The boolean at `key`.
    public func bool(_ key: String) throws -> Bool? {
        guard let v = raw(key) else { return nil }
        guard case .bool(let b) = v else { throw error(key, "must be true or false") }
        return b
    }

    /// A reader of the object at `key`.
    public func object(_ key: String) throws -> LayoutFields? {
        guard let v = raw(key) else { return nil }
        return try LayoutFields(v, path: name(key))
    }

    /// This object read as a point `{x, y}`.
    public func point() throws -> Point {
        let p = Point(x: try number("x", required: true)!, y: try number("y", required: true)!)
        try rejectUnknown()
        return p
    }

    /// Refuses the first key (in sorted order) that was never read.
    public func rejectUnknown() throws {
        for key in object.keys.sorted() where !seen.keys.contains(key) {
            throw error(key, "is not a known field")
        }
    }
}
