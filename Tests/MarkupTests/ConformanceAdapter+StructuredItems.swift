import Foundation
import Markup

/// Microdata in extruct's shape (`extruct.w3cmicrodata.MicrodataExtractor`):
/// `{"type": …, "id"?: …, "properties": {name: value or [values]}}`.
///
/// - `type` is a string when the item has one type and `strict` is off, else a list; it and `id` are only written
///   for an item with a type (extruct's rule).
/// - Values are grouped by property name; with `strict` off a name with one value holds that value, not a list.
/// - Nested items are inlined (`nested`), or with `nested: false` every item is listed once, numbered `iid` in
///   document order, and a nested item is written `{"iid_ref": n}`.
extension ConformanceAdapter {
    static func microdata(_ items: [MicrodataItem], strict: Bool, nested: Bool) -> ConformanceValue {
        guard nested else { return .array(flatMicrodata(items)) }
        return .array(items.map { microdataItem($0, strict: strict) })
    }

    private static func microdataItem(_ item: MicrodataItem, strict: Bool) -> ConformanceValue {
        var object = microdataHeader(item, strict: strict)
        let properties = grouped(item.properties.map { ($0.name, $0.value) }, strict: strict) { value in
            switch value {
            case .text(let text): return .string(text)
            case .url(let url): return .url(url)
            case .item(let nested): return microdataItem(nested, strict: strict)
            }
        }
        if !properties.isEmpty { object["properties"] = .object(properties) }
        return .object(object)
    }

    /// `type` and `id`, as extruct writes them.
    private static func microdataHeader(_ item: MicrodataItem, strict: Bool) -> [String: ConformanceValue] {
        var object: [String: ConformanceValue] = [:]
        guard !item.types.isEmpty else { return object }
        let types = item.types.map(ConformanceValue.string)
        object["type"] = !strict && types.count == 1 ? types[0] : .array(types)
        if let id = item.id { object["id"] = .url(id) }
        return object
    }

    /// The flat form: items numbered in document order, which for the project's output is depth-first order (an
    /// item, then the items nested in its properties).
    private static func flatMicrodata(_ items: [MicrodataItem]) -> [ConformanceValue] {
        var output: [ConformanceValue] = []
        func visit(_ item: MicrodataItem) -> Int {
            let iid = output.count + 1
            output.append(.null)
            var object = microdataHeader(item, strict: true)
            object["iid"] = .number(Double(iid))
            let properties = grouped(item.properties.map { ($0.name, $0.value) }, strict: true) { value in
                switch value {
                case .text(let text): return .string(text)
                case .url(let url): return .url(url)
                case .item(let nested): return .object(["iid_ref": .number(Double(visit(nested)))])
                }
            }
            if !properties.isEmpty { object["properties"] = .object(properties) }
            output[iid - 1] = .object(object)
            return iid
        }
        for item in items { _ = visit(item) }
        return output
    }

    /// Groups `(name, value)` pairs by name in order; with `strict` off a single value is unwrapped.
    static func grouped<Value>(
        _ pairs: [(String, Value)], strict: Bool, _ convert: (Value) -> ConformanceValue
    ) -> [String: ConformanceValue] {
        var lists: [String: [ConformanceValue]] = [:]
        for (name, value) in pairs { lists[name, default: []].append(convert(value)) }
        return lists.mapValues { !strict && $0.count == 1 ? $0[0] : .array($0) }
    }

    /// extruct gives an item without properties a `value`: the element's text (its own addition, "not in the specs").
    /// The project, like the W3C algorithm, gives such an item no properties and no text, so the expected `value` of
    /// a property-less item is dropped before comparing; every other key is kept.
    static func normalizedExpectedMicrodata(_ expected: ConformanceValue) -> ConformanceValue {
        guard let items = expected.arrayValue else { return expected }
        return .array(items.map { normalizedItem($0, topLevel: true) })
    }

    /// The same for extruct's `uniform` form, where an item's properties sit beside `@type`, `@context` and `id`.
    static func normalizedExpectedUniform(_ expected: ConformanceValue) -> ConformanceValue {
        switch expected {
        case .array(let elements): return .array(elements.map(normalizedExpectedUniform))
        case .object(var object):
            if object["@type"] != nil, Set(object.keys).isSubset(of: ["@type", "@context", "id", "value"]) {
                object["value"] = nil
            }
            return .object(object.mapValues(normalizedExpectedUniform))
        default: return expected
        }
    }

    /// A top-level entry is always an item; a nested value is one when it has a type, an id or only a `value`
    /// (an object such as schema.org's `{"valueRequired": true}` for a `query-input` is not).
    private static func normalizedItem(_ value: ConformanceValue, topLevel: Bool) -> ConformanceValue {
        guard var object = value.objectValue else { return value }
        guard let properties = object["properties"]?.objectValue else {
            let isItem = topLevel || object["type"] != nil || object["id"] != nil || Array(object.keys) == ["value"]
            if isItem { object["value"] = nil }
            return .object(object)
        }
        object["properties"] = .object(
            properties.mapValues { property in
                if let list = property.arrayValue { return .array(list.map { normalizedItem($0, topLevel: false) }) }
                return normalizedItem(property, topLevel: false)
            })
        return .object(object)
    }
}

/// RDFa in extruct's shape: the page's RDF graph as expanded JSON-LD (pyRdfa + rdflib), a list of nodes
/// `{"@id": …, "@type"?: [IRIs], "<property IRI>": [{"@value": text} | {"@id": IRI}]}`.
///
/// Each project item becomes a node: its `resource` is the `@id` (the page's own properties come as an item whose
/// resource is the page URL), an item without one gets a blank node, and a nested item becomes a node of its own
/// that its parent refers to by `@id`. Nodes with the same `@id` merge and repeated values collapse, because a graph
/// is a set of triples; an untyped node without properties states nothing and is left out.
extension ConformanceAdapter {
    static func rdfa(_ items: [RDFaItem]) -> ConformanceValue {
        var graph = RDFaGraph()
        for item in items { _ = graph.add(item) }
        return graph.nodes
    }

    /// The `http://www.w3.org/ns/rdfa#usesVocabulary` triples an RDFa 1.1 processor adds for every `vocab`
    /// attribute describe the markup, not the page; the project reports the page's data only, so they are removed
    /// from the expected graph, and nodes left with nothing but an `@id` with them.
    static func normalizedExpectedRDFa(_ expected: ConformanceValue) -> ConformanceValue {
        guard let nodes = expected.arrayValue else { return expected }
        return .array(
            nodes.compactMap { node in
                guard var members = node.objectValue else { return node }
                members[usesVocabulary] = nil
                return members.keys.contains(where: { $0 != "@id" }) ? .object(members) : nil
            })
    }

    static let usesVocabulary = "http://www.w3.org/ns/rdfa#usesVocabulary"
}

/// The graph under construction: nodes by `@id`, in first-seen order.
private struct RDFaGraph {
    private var order: [String] = []
    private var types: [String: [String]] = [:]
    private var properties: [String: [(name: String, value: ConformanceValue)]] = [:]
    private var blankNodes = 0

    /// Adds `item` and its nested items; returns its node id.
    mutating func add(_ item: RDFaItem) -> String {
        let id: String
        if let resource = item.resource {
            id = resource
        } else {
            blankNodes += 1
            id = "_:n\(blankNodes)"
        }
        if types[id] == nil {
            order.append(id)
            types[id] = []
            properties[id] = []
        }
        for type in item.types where !(types[id]?.contains(type) ?? false) { types[id]?.append(type) }
        for property in item.properties {
            let value: ConformanceValue
            switch property.value {
            case .text(let text): value = .object(["@value": .string(text)])
            case .url(let url): value = .object(["@id": .string(url)])
            case .item(let nested): value = .object(["@id": .string(add(nested))])
            }
            let isNew = !(properties[id] ?? []).contains { $0.name == property.name && $0.value == value }
            if isNew { properties[id]?.append((property.name, value)) }
        }
        return id
    }

    /// The nodes as expanded JSON-LD, property values in document order.
    var nodes: ConformanceValue {
        .array(
            order.compactMap { id in
                let nodeTypes = types[id] ?? []
                let nodeProperties = properties[id] ?? []
                guard !nodeTypes.isEmpty || !nodeProperties.isEmpty else { return nil }
                var members = ConformanceAdapter.grouped(nodeProperties.map { ($0.name, $0.value) }, strict: true) {
                    $0
                }
                members["@id"] = .string(id)
                if !nodeTypes.isEmpty { members["@type"] = .array(nodeTypes.map(ConformanceValue.string)) }
                return .object(members)
            })
    }
}
