import Foundation
import QuireKit
import Testing

/// The request schema and the web viewer agree with `LayoutCatalogue`: the names, and each
/// layout's parameters with their types, bounds and defaults.
@Suite struct LayoutCatalogueTests {
    static let root = TestSupport.repoRoot

    /// The Codable defaults of an entry's parameters, flattened one level (`layout` holds the
    /// layout's own parameters), as JSON values.
    static func defaults<E: LayoutCatalogueEntry>(_ entry: E.Type) throws -> [String: Any] {
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(entry.defaultParameters)) as? [String: Any])
        var out = object
        if let inner = object["layout"] as? [String: Any] {
            out["layout"] = nil
            out.merge(inner) { a, _ in a }
        }
        return out
    }

    /// A default as the schema's description writes it (`default 0.3`, `default left`).
    static func text(_ value: Any, _ kind: LayoutParameter.Kind) -> String {
        switch kind {
        case .boolean: (value as? Bool).map { $0 ? "true" : "false" } ?? "\(value)"
        case .number, .integer: (value as? Double).map(LayoutJSON.format) ?? "\(value)"
        case .choice, .list: "\(value)"
        }
    }

    @Test func requestSchemaListsEveryLayoutAndParameter() throws {
        let url = Self.root.appendingPathComponent("Schemas/quire.layout-request-1.schema.json")
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: Any])
        let layoutNames = try #require((properties["layout"] as? [String: Any])?["enum"] as? [String])
        #expect(layoutNames == LayoutCatalogue.names.map(\.rawValue))
        let parameters = try #require(
            (properties["parameters"] as? [String: Any])?["properties"] as? [String: [String: Any]])
        let specs = LayoutCatalogue.entries.flatMap { entry in entry.parameterSpecs.map { (entry, $0) } }
        #expect(Set(parameters.keys) == Set(specs.map(\.1.name)), "schema parameters and the catalogue differ")
        for (entry, spec) in specs {
            let property = try #require(parameters[spec.name], "schema lacks \(spec.name)")
            let where_ = "\(entry.name).\(spec.name)"
            switch spec.kind {
            case .number: #expect(property["type"] as? String == "number", "\(where_) type")
            case .integer: #expect(property["type"] as? String == "integer", "\(where_) type")
            case .boolean: #expect(property["type"] as? String == "boolean", "\(where_) type")
            case .list: #expect(property["type"] as? String == "array", "\(where_) type")
            case .choice(let values): #expect(property["enum"] as? [String] == values, "\(where_) values")
            }
            #expect((property["exclusiveMinimum"] as? Double == 0) == spec.positive, "\(where_) positivity")
            if case .list = spec.kind { continue }
            let description = try #require(property["description"] as? String, "\(where_) has no description")
            #expect(description.contains(entry.name.rawValue), "\(where_): description does not name its layout")
            if let value = try Self.defaults(entry)[spec.name] {
                let text = Self.text(value, spec.kind)
                #expect(description.contains("default \(text)"), "\(where_): schema default is not \(text)")
            }
        }
    }

    @Test func everyParameterIsReadAndEveryDefaultIsAParameter() throws {
        for entry in LayoutCatalogue.entries {
            // Each named parameter is read: a wrong type is refused naming it.
            for spec in entry.parameterSpecs {
                let query = LayoutQuery(viewport: Size(width: 390, height: 844), ratios: [1, 1], offset: .zero)
                #expect(throws: LayoutRequestError.self, "\(entry.name).\(spec.name)") {
                    _ = try entry.respond(to: query, parameters: [spec.name: .object(["bad": .null])])
                }
            }
            let names = entry.parameterNames
            for key in try Self.defaults(entry).keys {
                #expect(names.contains(key), "\(entry.name): default \(key) is no parameter")
            }
        }
    }

    /// The viewer's menu offers the catalogue's layouts, each has its script, loaded by the
    /// page, defining its constructor, and the defaults a script writes are the catalogue's.
    @Test func viewerMenuAndScriptsMatchTheCatalogue() throws {
        let viewer = Self.root.appendingPathComponent("Viewer")
        let html = try String(contentsOf: viewer.appendingPathComponent("index.html"), encoding: .utf8)
        let options = Set(html.matches(of: /<option value="(\w+)">/).map { String($0.1) })
        // The strip is always shown under the pager, so it is no menu choice; the review mode
        // (Viewer/review.js) is a menu choice that is no layout of the engine.
        #expect(options.subtracting(["review"]) == Set(LayoutCatalogue.names.map(\.rawValue)).subtracting(["strip"]))
        #expect(options.contains("review"))
        var checked = 0
        for entry in LayoutCatalogue.entries {
            let name = entry.name.rawValue
            let file = "layouts/\(name).js"
            #expect(html.contains("src=\"quire-viewer/\(file)\""), "index.html does not load \(file)")
            let script = try String(contentsOf: viewer.appendingPathComponent(file), encoding: .utf8)
            #expect(
                script.contains("Quire.\(name.prefix(1).uppercased() + name.dropFirst())"),
                "\(file) defines no constructor")
            let defaults = try Self.defaults(entry)
            for match in script.matches(of: /this\.(\w+) = (?:[^;]*: )?(-?[0-9.]+);/) {
                let key = String(match.1)
                guard entry.parameterNames.contains(key), let value = defaults[key] as? Double else { continue }
                #expect(
                    Double(String(match.2)) == value,
                    "\(file): \(key) defaults to \(match.2), the catalogue to \(value)")
                checked += 1
            }
        }
        #expect(checked >= 6, "the scripts' defaults were not found")
    }
}
