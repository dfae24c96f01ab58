import Foundation
import QuireLayout

/// A `Decoder` over a parsed `LayoutJSON` tree, used to say why a JSON file from outside does
/// not decode: where (`pages[3].width`) and what was expected (`an integer, found 1.5`).
///
/// Foundation's `JSONDecoder` reports a number that does not fit the field's type (1.5 or
/// 1e20 for an `Int`) as "The given data was not valid JSON." with no path. Files are still
/// decoded with `JSONDecoder` (so valid ones read exactly as before); only a failure is decoded
/// again here, for its message: `reason(decoding:from:)`.
struct JSONTreeDecoder: Decoder {
    let value: LayoutJSON
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Why `tree` does not decode as `T`, in one line: `pages[3].width: expected an integer,
    /// found 1.5`; nil when it does (the caller's own error then stands).
    static func reason<T: Decodable>(decoding type: T.Type, from tree: LayoutJSON) -> String? {
        do {
            _ = try T(from: JSONTreeDecoder(value: tree, codingPath: []))
            return nil
        } catch let error as DecodingError {
            return describe(error)
        } catch {
            return "\(error)"
        }
    }

    /// Why `data` did not decode as `T` with `JSONDecoder` (`error`), in one line: the JSON
    /// path and what was expected there, or `error` when the tree decoder finds nothing wrong.
    static func reason<T: Decodable>(_ data: Data, _ type: T.Type, _ error: any Error) -> String {
        guard let tree = try? LayoutJSON.parse(data) else {
            return "not valid JSON, or a number beyond a Double's range"
        }
        return reason(decoding: type, from: tree) ?? "\(error)"
    }

    /// A decoding error in one line: the JSON path, then what was expected.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = pathText(context.codingPath)
            return (path.isEmpty ? "" : path + ": ") + context.debugDescription
        case .keyNotFound(let key, let context):
            return pathText(context.codingPath + [key]) + ": is missing"
        @unknown default:
            return "\(error)"
        }
    }

    /// `pages[3].width` for a coding path (an index key as `[n]`).
    static func pathText(_ path: [any CodingKey]) -> String {
        var out = ""
        for key in path {
            if let index = key.intValue, key.stringValue == "Index \(index)" {
                out += "[\(index)]"
            } else {
                out += (out.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return out
    }

    /// What a value is, for "found ...": a number as written, the kind of anything else.
    static func found(_ value: LayoutJSON) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let d): LayoutReportRanges.number(d)
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: codingPath, debugDescription: "expected \(expected), found \(Self.found(value))")
        if case .null = value { return .valueNotFound(type, context) }
        return .typeMismatch(type, context)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch([String: Any].self, "an object") }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else { throw mismatch([Any].self, "an array") }
        return UnkeyedContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleContainer(decoder: self) }

    /// The value as `T`: the JSON scalars by hand (an integer must be a whole number in
    /// range), anything else through its own `init(from:)`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is Bool.Type:
            guard case .bool(let b) = value else { throw mismatch(type, "true or false") }
            return b as! T
        case is String.Type:
            guard case .string(let s) = value else { throw mismatch(type, "a string") }
            return s as! T
        case is Double.Type:
            guard case .number(let d) = value else { throw mismatch(type, "a number") }
            return d as! T
        case is Float.Type:
            guard case .number(let d) = value, Float(d).isFinite else {
                throw mismatch(type, "a number")
            }
            return Float(d) as! T
        case let integer as any FixedWidthInteger.Type:
            // `init(exactly:)` refuses a fraction and a number outside the type (2^63 for Int).
            guard case .number(let d) = value, let n = integer.init(exactly: d) else {
                throw mismatch(type, "an integer")
            }
            return n as! T
        default:
            return try T(from: self)
        }
    }
}

/// An index in an array, named as `JSONDecoder` names it (`Index 3`), so `pathText` reads both.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: LayoutJSON]
    let codingPath: [any CodingKey]
    var allKeys: [Key] { object.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    func child(_ key: Key) throws -> JSONTreeDecoder {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "is missing"))
        }
        return JSONTreeDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try child(key).value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { JSONTreeDecoder(value: .object(object), codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let array: [LayoutJSON]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    init(array: [LayoutJSON], codingPath: [any CodingKey]) {
        self.array = array
        self.codingPath = codingPath
    }

    mutating func next() throws -> JSONTreeDecoder {
        let path = codingPath + [IndexKey(currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self,
                DecodingError.Context(codingPath: path, debugDescription: "is missing (the array is too short)"))
        }
        defer { currentIndex += 1 }
        return JSONTreeDecoder(value: array[currentIndex], codingPath: path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = array[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleContainer: SingleValueDecodingContainer {
    let decoder: JSONTreeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        if case .null = decoder.value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
}
