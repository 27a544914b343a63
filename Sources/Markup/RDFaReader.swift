/// RDFa Lite 1.1 (https://www.w3.org/TR/rdfa-lite/): `vocab`, `prefix`, `typeof`,
/// `property`, `resource`, read with an explicit stack of evaluation contexts.
///
/// Each element with `typeof` starts an item; `property` attaches a value to the nearest
/// enclosing item; properties outside any item describe the page itself and are returned
/// as one item with no types and the page as its resource.
struct RDFaReader {
    private let resolver: URLResolver
    private static let maxItems = 10_000
    /// The most property values that copies of nested items may add. An item under several
    /// property names (`property="a b"`) is copied into each, and a chain of such items
    /// multiplies per level; values beyond this keep their empty placeholder.
    private static let maxCopiedValues = 20_000

    /// The RDFa initial context's common prefixes (https://www.w3.org/2011/rdfa-context/rdfa-1.1).
    private static let initialPrefixes: [String: String] = [
        "schema": "http://schema.org/", "og": "http://ogp.me/ns#", "fb": "http://ogp.me/ns/fb#",
        "dc": "http://purl.org/dc/terms/", "dcterms": "http://purl.org/dc/terms/", "foaf": "http://xmlns.com/foaf/0.1/",
        "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#", "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
        "xsd": "http://www.w3.org/2001/XMLSchema#", "sioc": "http://rdfs.org/sioc/ns#",
        "article": "http://ogp.me/ns/article#", "book": "http://ogp.me/ns/book#", "music": "http://ogp.me/ns/music#",
        "video": "http://ogp.me/ns/video#", "profile": "http://ogp.me/ns/profile#",
    ]

    init(resolver: URLResolver) {
        self.resolver = resolver
    }

    private struct Context {
        var vocab: String?
        /// Index into `items` of the item new properties attach to; `nil` means the page.
        var subject: Int?
    }

    /// Where a nested item goes: which properties of which parent (`nil`: the page) hold it.
    private struct Nesting {
        var child: Int
        var parent: Int?
        var propertyIndices: [Int]
    }

    /// A step of the walk: read an element, or leave one that declared prefixes (its children were read).
    private enum Visit {
        case element(HTMLNode, context: Int)
        case leave(RDFaPrefixMap.Mark)
    }

    /// Every item, top-level ones in tree order, nested ones inside their parents.
    func items(in root: HTMLNode) -> [RDFaItem] {
        var items: [RDFaItem] = []
        var nestings: [Nesting] = []
        var page = RDFaItem(types: [], resource: resolver.base)
        // Each evaluation context is stored once; an element hands its children the index of the one
        // in force (copying a context for every child retained its strings each time).
        var contexts = [Context(vocab: nil, subject: nil)]
        var prefixes = RDFaPrefixMap(Self.initialPrefixes)
        var stack: [Visit] = [.element(root, context: 0)]
        while let visit = stack.popLast(), items.count < Self.maxItems {
            guard case .element(let node, let inheritedIndex) = visit else {
                if case .leave(let mark) = visit { prefixes.restore(mark) }
                continue
            }
            guard node.isElement else { continue }
            // No attribute, no RDFa: the context passes through unchanged.
            guard node.hasAttributes else {
                node.forEachChildReversed { stack.append(.element($0, context: inheritedIndex)) }
                continue
            }
            let inherited = contexts[inheritedIndex]
            var context = inherited
            var changesContext = false
            if let vocab = node.attribute("vocab") {
                let trimmed = vocab.trimmingSpaces()
                context.vocab = trimmed.isEmpty ? nil : trimmed
                changesContext = true
            }
            if let prefix = node.attribute("prefix") {
                // Taken back once the element and everything below it are read.
                stack.append(.leave(prefixes.mark))
                prefixes.declare(Self.prefixes(prefix))
            }
            let properties =
                node.attribute("property")?.splitOnSpaces().compactMap { expand(String($0), context, prefixes) } ?? []
            let typeof = node.attribute("typeof")
            // RDFa 1.1 Core §7.5 steps 5–6: `typeof` starts a new item; so does `about` or
            // `resource` on an element without `property` (an untyped subject for what is inside).
            let startsSubject =
                typeof != nil || (properties.isEmpty && (node.hasAttribute("about") || node.hasAttribute("resource")))
            if startsSubject {
                let types = (typeof ?? "").splitOnSpaces().compactMap {
                    expand(String($0), context, prefixes)
                }
                let resource = subjectIRI(of: node, hasProperty: !properties.isEmpty)
                let child = items.count
                items.append(RDFaItem(types: types, resource: resource))
                if !properties.isEmpty {
                    // With `property`, the new item is also that property's value in the enclosing
                    // item: hold its place now (tree order), fill it in once the item is complete.
                    let placeholder = StructuredValue<RDFaItem>.text("")
                    var indices: [Int] = []
                    for name in properties {
                        if let subject = inherited.subject {
                            indices.append(items[subject].properties.count)
                            items[subject].properties.append(RDFaProperty(name: name, value: placeholder))
                        } else {
                            indices.append(page.properties.count)
                            page.properties.append(RDFaProperty(name: name, value: placeholder))
                        }
                    }
                    nestings.append(Nesting(child: child, parent: inherited.subject, propertyIndices: indices))
                }
                context.subject = child
                changesContext = true
            } else if !properties.isEmpty {
                let value = literalOrLink(node)
                for name in properties {
                    if let subject = context.subject {
                        items[subject].properties.append(RDFaProperty(name: name, value: value))
                    } else {
                        page.properties.append(RDFaProperty(name: name, value: value))
                    }
                }
            }
            var childContext = inheritedIndex
            if changesContext {
                contexts.append(context)
                childContext = contexts.count - 1
            }
            node.forEachChildReversed { stack.append(.element($0, context: childContext)) }
        }
        // Children were created after their parents: filling in from the last item back
        // completes every grandchild before its parent is copied into place. `sizes` are the
        // items' property values as expanded, copies included.
        var sizes = items.map(\.properties.count)
        var budget = Self.maxCopiedValues
        for nesting in nestings.reversed() {
            let child = StructuredValue.item(items[nesting.child])
            let size = sizes[nesting.child]
            for (position, index) in nesting.propertyIndices.enumerated() {
                if position > 0 {
                    guard budget >= size else { break }
                    budget -= size
                }
                if let parent = nesting.parent {
                    items[parent].properties[index].value = child
                    sizes[parent] += size
                } else {
                    page.properties[index].value = child
                }
            }
        }
        let nested = Set(nestings.map(\.child))
        let topLevel = items.indices.filter { !nested.contains($0) }.map { items[$0] }
        return (page.properties.isEmpty ? [] : [page]) + topLevel
    }

    /// The IRI of an item an element starts: `about`, `resource`, `href`, `src`, in that order;
    /// with `property` on the same element `about` does not apply (the item is that property's value).
    private func subjectIRI(of node: HTMLNode, hasProperty: Bool) -> String? {
        let attributes = hasProperty ? ["resource", "href", "src"] : ["about", "resource", "href", "src"]
        for attribute in attributes {
            if let reference = node.attribute(attribute), let iri = resolver.resolve(reference) { return iri }
        }
        return nil
    }

    /// A property's value: `content`, else an IRI from `resource`, `href` or `src`, else
    /// `datetime` on `<time>`, else the element's text.
    private func literalOrLink(_ node: HTMLNode) -> StructuredValue<RDFaItem> {
        if let content = node.attribute("content") { return .text(content) }
        for attribute in ["resource", "href", "src"] {
            if let reference = node.attribute(attribute), let url = resolver.resolve(reference) { return .url(url) }
        }
        if node.name == "time", let datetime = node.attribute("datetime") { return .text(datetime) }
        return .text(node.readableText)
    }

    /// Expands a term (`name`), a CURIE (`schema:name`) or keeps an absolute IRI.
    private func expand(_ term: String, _ context: Context, _ prefixes: RDFaPrefixMap) -> String? {
        // Read as bytes: `contains("://")` went through Foundation's string search, thousands of
        // instructions a term.
        let bytes = term.utf8
        let isAbsolute = bytes.indices.contains { bytes[$0...].starts(with: "://".utf8) }
        if isAbsolute { return term }
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            let prefix = String(Substring(bytes[..<colon])).lowercased()
            if let namespace = prefixes[prefix] {
                return namespace + Substring(bytes[bytes.index(after: colon)...])
            }
            return term
        }
        guard let vocab = context.vocab else { return nil }
        return vocab + term
    }

    /// Parses `prefix="schema: http://schema.org/ og: http://ogp.me/ns#"`.
    private static func prefixes(_ declaration: String) -> [String: String] {
        let tokens = declaration.splitOnSpaces().map(String.init)
        var result: [String: String] = [:]
        var index = 0
        while index + 1 < tokens.count {
            if tokens[index].hasSuffix(":") {
                result[String(tokens[index].dropLast()).lowercased()] = tokens[index + 1]
                index += 2
            } else {
                index += 1
            }
        }
        return result
    }
}
