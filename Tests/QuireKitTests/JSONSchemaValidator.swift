import Foundation

/// A validator for the subset of JSON Schema (draft 2020-12) that
/// `Schemas/quire.layout-1.schema.json` uses: `type` (one or a list), `const`, `enum`,
/// `properties`, `required`, `additionalProperties: false`, `items`, `minItems`, `maxItems`,
/// `minimum`, `maximum`, `exclusiveMinimum`, `minLength`, `pattern`, `anyOf` and local `$ref`
/// (`#/$defs/...`). A keyword it does not know makes validation fail loudly, so the schema
/// cannot silently outgrow the validator.
struct JSONSchemaValidator {
    let root: [String: Any]

    static let knownKeywords: Set<String> = [
        "$schema", "$id", "$defs", "title", "description", "type", "const", "enum", "properties", "required",
        "additionalProperties", "items", "minItems", "maxItems", "minimum", "maximum", "exclusiveMinimum",
        "minLength", "pattern", "anyOf", "$ref",
    ]

    init(schema: Data) throws {
        guard let object = try JSONSerialization.jsonObject(with: schema) as? [String: Any] else {
            throw NSError(domain: "schema", code: 1, userInfo: [NSLocalizedDescriptionKey: "schema is not an object"])
        }
        root = object
    }

    /// Every violation, as `path: problem`; empty when the document is valid.
    func validate(_ document: Data) throws -> [String] {
        let instance = try JSONSerialization.jsonObject(with: document, options: [.fragmentsAllowed])
        var problems: [String] = []
        check(instance, against: root, at: "$", into: &problems)
        return problems
    }

    private func resolve(_ ref: String) -> [String: Any]? {
        guard ref.hasPrefix("#/") else { return nil }
        var node: Any = root
        for part in ref.dropFirst(2).split(separator: "/") {
            guard let dict = node as? [String: Any], let next = dict[String(part)] else { return nil }
            node = next
        }
        return node as? [String: Any]
    }

    /// JSON true/false come back as NSNumbers of type BOOL ("c"); numbers as other types.
    private static func isBoolean(_ n: NSNumber) -> Bool {
        String(cString: n.objCType) == "c"
    }

    private static func typeMatches(_ value: Any, _ type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "boolean": return (value as? NSNumber).map(isBoolean) ?? false
        case "number": return (value as? NSNumber).map { !isBoolean($0) } ?? false
        case "integer":
            guard let n = value as? NSNumber, !isBoolean(n) else { return false }
            return n.doubleValue.rounded() == n.doubleValue
        default: return false
        }
    }

    private static func equal(_ a: Any, _ b: Any) -> Bool {
        if let x = a as? String, let y = b as? String { return x == y }
        if let x = a as? NSNumber, let y = b as? NSNumber { return x == y }
        if a is NSNull && b is NSNull { return true }
        return false
    }

    private func check(_ value: Any, against schema: [String: Any], at path: String, into problems: inout [String]) {
        for key in schema.keys where !Self.knownKeywords.contains(key) {
            problems.append("\(path): schema keyword \(key) is not supported by the test validator")
        }
        if let ref = schema["$ref"] as? String {
            guard let target = resolve(ref) else { problems.append("\(path): unresolved $ref \(ref)"); return }
            check(value, against: target, at: path, into: &problems)
        }
        if let type = schema["type"] {
            let types = (type as? [String]) ?? [type as? String ?? ""]
            if !types.contains(where: { Self.typeMatches(value, $0) }) {
                problems.append("\(path): expected \(types.joined(separator: " or ")), found \(value)")
                return
            }
        }
        if let constant = schema["const"], !Self.equal(value, constant) {
            problems.append("\(path): expected \(constant), found \(value)")
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal(value, $0) }) {
            problems.append("\(path): \(value) is not one of \(options)")
        }
        if let anyOf = schema["anyOf"] as? [[String: Any]] {
            let matches = anyOf.contains { option in
                var sub: [String] = []
                check(value, against: option, at: path, into: &sub)
                return sub.isEmpty
            }
            if !matches { problems.append("\(path): matches none of anyOf") }
        }
        if let number = value as? NSNumber, !Self.isBoolean(number) {
            let x = number.doubleValue
            if let m = (schema["minimum"] as? NSNumber)?.doubleValue, x < m { problems.append("\(path): \(x) < minimum \(m)") }
            if let m = (schema["maximum"] as? NSNumber)?.doubleValue, x > m { problems.append("\(path): \(x) > maximum \(m)") }
            if let m = (schema["exclusiveMinimum"] as? NSNumber)?.doubleValue, x <= m { problems.append("\(path): \(x) <= exclusiveMinimum \(m)") }
        }
        if let string = value as? String {
            if let m = schema["minLength"] as? Int, string.count < m { problems.append("\(path): shorter than \(m)") }
            if let pattern = schema["pattern"] as? String {
                let regex = try? NSRegularExpression(pattern: pattern)
                let range = NSRange(string.startIndex..., in: string)
                if regex?.firstMatch(in: string, range: range) == nil {
                    problems.append("\(path): \"\(string)\" does not match \(pattern)")
                }
            }
        }
        if let array = value as? [Any] {
            if let m = schema["minItems"] as? Int, array.count < m { problems.append("\(path): fewer than \(m) items") }
            if let m = schema["maxItems"] as? Int, array.count > m { problems.append("\(path): more than \(m) items") }
            if let items = schema["items"] as? [String: Any] {
                for (i, item) in array.enumerated() { check(item, against: items, at: "\(path)[\(i)]", into: &problems) }
            }
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): missing required \(key)")
            }
            if let additional = schema["additionalProperties"] as? Bool, !additional {
                for key in object.keys where properties[key] == nil { problems.append("\(path): unexpected key \(key)") }
            }
            for (key, sub) in properties {
                if let child = object[key], let subschema = sub as? [String: Any] {
                    check(child, against: subschema, at: "\(path).\(key)", into: &problems)
                }
            }
        }
    }
}
