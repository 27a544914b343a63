package import StrictJSON

extension JSONLD {
    /// Flattens parsed blocks into the list of top-level entities, in page order.
    ///
    /// Top-level arrays (and arrays of arrays) contribute their elements; an object with `@graph` contributes the
    /// graph's nodes, each given the graph's `@context` when it has none of its own (so `isSchemaOrg(_:)` can judge
    /// it alone). A graph object that has an `@type` of its own is a node too and comes first, without its graph.
    /// Only objects are kept; nested entities (an `aggregateRating` inside a `Recipe`) stay where they are.
    package static func entities(in blocks: [JSONLDBlock]) -> [JSONValue] {
        var entities: [JSONValue] = []
        for block in blocks {
            collect(block.value, context: nil, into: &entities)
        }
        return entities
    }

    /// Adds the entities in `value` to `entities`; `context` is the enclosing graph's `@context`, if any.
    private static func collect(_ value: JSONValue, context: JSONValue?, into entities: inout [JSONValue]) {
        switch value {
        case .array(let elements):
            for element in elements {
                collect(element, context: context, into: &entities)
            }
        case .object(let members):
            let graphs = members.filter { $0.key == "@graph" }
            guard !graphs.isEmpty else {
                entities.append(adding(context, to: members))
                return
            }
            if value["@type"] != nil {
                entities.append(adding(context, to: members.filter { $0.key != "@graph" }))
            }
            let graphContext = value["@context"] ?? context
            for graph in graphs {
                // `@graph` is usually an array, but a single node object is valid JSON-LD too.
                collect(graph.value, context: graphContext, into: &entities)
            }
        default:
            // Strings, numbers and the like at the top level are not entities.
            break
        }
    }

    /// The object with `context` as its first member when it has no `@context` of its own.
    private static func adding(_ context: JSONValue?, to members: [JSONMember]) -> JSONValue {
        guard let context, !members.contains(where: { $0.key == "@context" }) else { return .object(members) }
        return .object([JSONMember(key: "@context", value: context)] + members)
    }

    /// Whether the entity uses the schema.org vocabulary.
    ///
    /// True when its `@context` is schema.org: the string `http://schema.org` or `https://schema.org` (with or
    /// without a trailing `/` or `www.`, any case, also schema.org's `docs/jsonldcontext.json`), an object whose
    /// `@vocab` is one of those, or an array holding one. Also true when an `@type` names schema.org explicitly
    /// (`http://schema.org/Recipe`, or `schema:Recipe` with any prefix the context maps to schema.org), and, for an
    /// entity with no `@context` at all (a node nested in another, or a page that left it out), when an `@type` is
    /// a bare schema.org-style term such as `Recipe`.
    package static func isSchemaOrg(_ entity: JSONValue) -> Bool {
        let context = ownContext(of: entity)
        if let context, isSchemaOrgContext(context) { return true }
        let prefixes = schemaOrgPrefixes(in: context)
        for type in rawTypes(of: entity) {
            if schemaOrgTerm(type, prefixes: prefixes) != nil { return true }
            if context == nil, looksLikeSchemaOrgTerm(type) { return true }
        }
        return false
    }

    /// The entity's `@type` values, with any schema.org prefix removed: `http://schema.org/Recipe` and
    /// `schema:Recipe` both give `Recipe`. Types from other vocabularies are returned as written (trimmed).
    package static func types(of entity: JSONValue) -> [String] {
        let prefixes = schemaOrgPrefixes(in: ownContext(of: entity))
        return rawTypes(of: entity).map { schemaOrgTerm($0, prefixes: prefixes) ?? $0 }
    }

    /// The entity's `@context`, treating an explicit `null` as none.
    private static func ownContext(of entity: JSONValue) -> JSONValue? {
        guard let context = entity["@context"], context != .null else { return nil }
        return context
    }

    /// The `@type` strings, trimmed, empty ones left out.
    private static func rawTypes(of entity: JSONValue) -> [String] {
        (entity["@type"]?.listValue ?? []).compactMap { value in
            guard case .string(let text) = value else { return nil }
            let trimmed = text.trimmingSpaces()
            return trimmed.isEmpty ? nil : trimmed
        }
    }

    /// Whether a context (string, array or object) makes schema.org the vocabulary.
    private static func isSchemaOrgContext(_ context: JSONValue) -> Bool {
        switch context {
        case .string(let iri):
            guard let path = schemaOrgPath(iri) else { return false }
            // schema.org also serves its context document under this path; pages link it directly.
            return path.isEmpty || path.hasPrefix("docs/jsonldcontext.json")
        case .array(let contexts):
            return contexts.contains(where: isSchemaOrgContext)
        case .object:
            guard case .string(let vocabulary)? = context["@vocab"] else { return false }
            return schemaOrgPath(vocabulary)?.isEmpty ?? false
        default:
            return false
        }
    }

    /// The compact-IRI prefixes that stand for schema.org: `schema` always (the conventional one, which pages use
    /// without declaring it), plus every term a context object maps to the schema.org namespace (`"sdo":
    /// "https://schema.org/"`).
    private static func schemaOrgPrefixes(in context: JSONValue?) -> Set<String> {
        var prefixes: Set<String> = ["schema"]
        for part in context?.listValue ?? [] {
            guard case .object(let members) = part else { continue }
            for member in members where !member.key.hasPrefix("@") {
                if case .string(let iri) = member.value, schemaOrgPath(iri)?.isEmpty == true {
                    prefixes.insert(member.key)
                }
            }
        }
        return prefixes
    }

    /// The schema.org term a type names explicitly (`http://schema.org/Recipe`, `schema:Recipe`), else `nil`.
    private static func schemaOrgTerm(_ type: String, prefixes: Set<String>) -> String? {
        if let path = schemaOrgPath(type) { return path.isEmpty ? nil : String(path) }
        guard let colon = type.firstIndex(of: ":") else { return nil }
        let term = type[type.index(after: colon)...]
        // `prefix://…` is an IRI of some other site, not a compact IRI.
        guard prefixes.contains(String(type[..<colon])), !term.isEmpty, !term.hasPrefix("//") else { return nil }
        return String(term)
    }

    /// Whether a type is a bare term shaped like schema.org's: ASCII letters and digits, starting with an
    /// upper-case letter or a digit (`Recipe`, `LocalBusiness`, `3DModel`).
    private static func looksLikeSchemaOrgTerm(_ type: String) -> Bool {
        guard let first = type.unicodeScalars.first, ("A"..."Z").contains(first) || ("0"..."9").contains(first)
        else { return false }
        return type.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// For an IRI in the schema.org namespace (`http` or `https`, optional `www.`, host in any case), the path after
    /// the host's `/` (empty for the namespace itself, with or without the `/`); `nil` for any other text.
    static func schemaOrgPath(_ iri: String) -> Substring? {
        var rest = Substring(iri.trimmingSpaces())
        guard let scheme = ["https://", "http://"].first(where: { rest.prefix(8).lowercased().hasPrefix($0) })
        else { return nil }
        rest = rest.dropFirst(scheme.count)
        if rest.prefix(4).lowercased() == "www." { rest = rest.dropFirst(4) }
        guard rest.prefix(10).lowercased() == "schema.org" else { return nil }
        rest = rest.dropFirst(10)
        guard let first = rest.first else { return "" }
        // `schema.org.example.com` or `schema.org:8080` is some other host.
        return first == "/" ? rest.dropFirst() : nil
    }
}
