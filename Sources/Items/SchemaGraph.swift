import Markup
package import StrictJSON

/// The schema.org entities of one page, from all three syntaxes, as JSON-LD-shaped objects:
/// `@type` holds local type names (`"Recipe"`, not `"http://schema.org/Recipe"`), property
/// names are local, nested entities are nested objects.
///
/// Lookups see nested entities too (a `Recipe`'s `aggregateRating`, a `WebPage`'s
/// `mainEntity`), in document order, JSON-LD first, then microdata, then RDFa.
package struct SchemaGraph: Sendable {
    /// Every entity, top-level and nested, in document order.
    package private(set) var entities: [JSONValue] = []

    /// Builds the graph from JSON-LD entities (schema.org ones only), microdata and RDFa items.
    package init(jsonLD: [JSONValue], microdata: [MicrodataItem], rdfa: [RDFaItem]) {
        for entity in jsonLD where JSONLD.isSchemaOrg(entity) { collect(normalized(jsonLD: entity)) }
        for item in microdata where item.types.contains(where: Self.isSchemaOrgIRI) { collect(Self.object(from: item)) }
        for item in rdfa where item.types.contains(where: Self.isSchemaOrgIRI) { collect(Self.object(from: item)) }
    }

    /// Entities whose `@type` includes one of `types`.
    package func entities(ofType types: Set<String>) -> [JSONValue] {
        entities.filter { entity in Self.types(of: entity).contains(where: types.contains) }
    }

    /// The local `@type` names of an entity.
    package static func types(of entity: JSONValue) -> [String] {
        (entity["@type"]?.listValue ?? []).compactMap(\.stringValue)
    }

    private mutating func collect(_ entity: JSONValue) {
        var stack = [entity]
        var budget = 10_000  // hostile pages: bound the work, not just the depth
        while let value = stack.popLast(), budget > 0 {
            budget -= 1
            switch value {
            case .object(let members):
                if value["@type"] != nil { entities.append(value) }
                stack.append(contentsOf: members.reversed().map(\.value))
            case .array(let elements):
                stack.append(contentsOf: elements.reversed())
            default:
                continue
            }
        }
    }

    /// A JSON-LD entity with its types and property names made local.
    private func normalized(jsonLD entity: JSONValue) -> JSONValue {
        switch entity {
        case .object(let members):
            return .object(
                members.map { member in
                    if member.key == "@type" {
                        return JSONMember(
                            member.key,
                            .array(member.value.listValue.compactMap(\.stringValue).map { .string(Self.localName($0)) })
                        )
                    }
                    return JSONMember(Self.localName(member.key), normalized(jsonLD: member.value))
                })
        case .array(let elements):
            return .array(elements.map { normalized(jsonLD: $0) })
        default:
            return entity
        }
    }

    static func isSchemaOrgIRI(_ iri: String) -> Bool {
        let lower = iri.lowercased()
        return lower.hasPrefix("http://schema.org/") || lower.hasPrefix("https://schema.org/")
            || lower.hasPrefix("schema:") || !lower.contains(":")
    }

    /// `"http://schema.org/Recipe"`, `"https://schema.org/Recipe"`, `"schema:Recipe"` → `"Recipe"`.
    static func localName(_ name: String) -> String {
        for prefix in ["http://schema.org/", "https://schema.org/", "schema:"] where name.lowercased().hasPrefix(prefix)
        {
            return String(name.dropFirst(prefix.count))
        }
        return name
    }

    private static func object(from item: MicrodataItem) -> JSONValue {
        var members: [JSONMember] = [JSONMember("@type", .array(item.types.map { .string(localName($0)) }))]
        if let id = item.id { members.append(JSONMember("@id", .string(id))) }
        return .object(members + grouped(item.properties.map { (localName($0.name), json($0.value, nested: object)) }))
    }

    private static func object(from item: RDFaItem) -> JSONValue {
        var members: [JSONMember] = [JSONMember("@type", .array(item.types.map { .string(localName($0)) }))]
        if let resource = item.resource { members.append(JSONMember("@id", .string(resource))) }
        return .object(members + grouped(item.properties.map { (localName($0.name), json($0.value, nested: object)) }))
    }

    private static func json<Item>(_ value: StructuredValue<Item>, nested: (Item) -> JSONValue) -> JSONValue {
        switch value {
        case .text(let text), .url(let text): return .string(text)
        case .item(let item): return nested(item)
        }
    }

    /// Repeated property names become one array-valued member, as JSON-LD writes them.
    private static func grouped(_ pairs: [(String, JSONValue)]) -> [JSONMember] {
        var order: [String] = []
        var values: [String: [JSONValue]] = [:]
        for (name, value) in pairs {
            if values[name] == nil { order.append(name) }
            values[name, default: []].append(value)
        }
        return order.map { name in
            let list = values[name] ?? []
            return JSONMember(name, list.count == 1 ? list[0] : .array(list))
        }
    }
}
