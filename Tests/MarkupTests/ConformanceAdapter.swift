import Foundation
import Markup

/// Maps what the project extracted (`PageMarkup`) into the shape extruct prints, so the two can be compared.
///
/// The adapter only changes the shape; it never extracts anything from the page itself. Every normalization of the
/// expected side is an extruct addition the project does not model, and is listed in `Docs/conformance.md`.
enum ConformanceAdapter {
    /// extruct's output for `conformanceCase`, rebuilt from the project's extraction of the page.
    static func actual(_ conformanceCase: ConformanceCase, _ markup: PageMarkup) -> ConformanceValue {
        switch conformanceCase.syntax {
        case "json-ld":
            return jsonLD(markup.jsonLD)
        case "opengraph":
            let openGraph = openGraph(markup.metaTags)
            return conformanceCase.uniform ? uniformOpenGraph(openGraph) : openGraph
        case "microdata":
            let microdata = microdata(
                markup.microdata, strict: conformanceCase.strict, nested: conformanceCase.nested)
            return conformanceCase.uniform ? uniformMicrodata(microdata) : microdata
        case "rdfa":
            return rdfa(markup.rdfa)
        case "all":
            var all: [String: ConformanceValue] = [
                "microdata": microdata(markup.microdata, strict: false, nested: true),
                "json-ld": jsonLD(markup.jsonLD), "opengraph": openGraph(markup.metaTags), "rdfa": rdfa(markup.rdfa),
            ]
            if conformanceCase.comparesOnlyRDFa { all = ["rdfa": all["rdfa"] ?? .null] }
            return .object(all)
        default:
            // Microformats and Dublin Core: the project reads neither (SPEC §2 names JSON-LD, microdata, RDFa and
            // meta tags), so it has nothing to offer.
            return .array([])
        }
    }

    /// extruct's expected output, with its additions the project does not model taken out (see each function).
    static func expected(_ conformanceCase: ConformanceCase, _ value: ConformanceValue) -> ConformanceValue {
        switch conformanceCase.syntax {
        case "microdata" where conformanceCase.uniform:
            // `uniform` files hold every syntax; the manifest compares `expected["microdata"]`.
            return normalizedExpectedUniform(value.objectValue?["microdata"] ?? value)
        case "microdata":
            return normalizedExpectedMicrodata(value)
        case "rdfa":
            return normalizedExpectedRDFa(value)
        case "all":
            // Compared on the syntaxes the project reads; `url` and `status` are the CLI's, microformats and
            // Dublin Core have their own cases.
            guard var all = value.objectValue else { return value }
            all = all.filter { ["microdata", "json-ld", "opengraph", "rdfa"].contains($0.key) }
            if let microdata = all["microdata"] { all["microdata"] = normalizedExpectedMicrodata(microdata) }
            if let rdfa = all["rdfa"] { all["rdfa"] = normalizedExpectedRDFa(rdfa) }
            if conformanceCase.comparesOnlyRDFa { all = ["rdfa": all["rdfa"] ?? .null] }
            return .object(all)
        default:
            return value
        }
    }

    /// JSON-LD as extruct lists it: the items of every block, a top-level array spread into its elements, anything
    /// Python counts as false (`null`, `{}`, `[]`, `""`, `0`) left out; a block that is neither object nor array
    /// gives nothing.
    static func jsonLD(_ blocks: [JSONLDBlock]) -> ConformanceValue {
        var items: [ConformanceValue] = []
        for block in blocks {
            switch ConformanceValue(block.value) {
            case .array(let elements): items += elements.filter(\.isTruthy)
            case .object(let members) where !members.isEmpty: items.append(.object(members))
            default: break
            }
        }
        return .array(items)
    }

    /// The Open Graph namespaces extruct knows without a `prefix` declaration (`extruct/opengraph.py`).
    static let openGraphNamespaces: [String: String] = [
        "og": "http://ogp.me/ns#", "music": "http://ogp.me/ns/music#", "video": "http://ogp.me/ns/video#",
        "article": "http://ogp.me/ns/article#", "book": "http://ogp.me/ns/book#",
        "profile": "http://ogp.me/ns/profile#", "product": "http://ogp.me/ns/product#",
    ]

    /// Open Graph as extruct lists it: `[{"namespace": {prefix: IRI}, "properties": [[property, content], …]}]`, the
    /// `<meta property>` tags whose prefix (the text before the first `:`, or all of it) is an Open Graph namespace,
    /// in page order with duplicates; nothing at all when there are none.
    static func openGraph(_ tags: [MetaTag]) -> ConformanceValue {
        var namespaces: [String: ConformanceValue] = [:]
        var pairs: [ConformanceValue] = []
        for tag in tags where tag.kind == .property {
            let prefix = String(tag.key.prefix { $0 != ":" })
            guard let namespace = openGraphNamespaces[prefix] else { continue }
            namespaces[prefix] = .string(namespace)
            pairs.append(.array([.string(tag.key), .string(tag.content)]))
        }
        guard !pairs.isEmpty else { return .array([]) }
        return .array([.object(["namespace": .object(namespaces), "properties": .array(pairs)])])
    }
}

/// extruct's `uniform=True` forms (`extruct/uniform.py`), computed from the adapter's own extruct-shaped output, the
/// way extruct computes them from its own: the comparison still checks what the project extracted.
extension ConformanceAdapter {
    /// `_umicrodata_microformat`: each top-level item flattened with `@context` (schema.org-like: `@type` is the last
    /// path segment of the type URL, `@context` the rest; properties beside it, nested items flattened too).
    static func uniformMicrodata(_ microdata: ConformanceValue) -> ConformanceValue {
        guard let items = microdata.arrayValue else { return microdata }
        return .array(items.map { flattened($0, addContext: true) })
    }

    /// `_uopengraph` without `with_og_array`: one object per Open Graph result, each property holding its first
    /// non-empty value in page order, `og:type` as `@type` and the namespaces as `@context`.
    static func uniformOpenGraph(_ openGraph: ConformanceValue) -> ConformanceValue {
        guard let results = openGraph.arrayValue else { return openGraph }
        return .array(
            results.map { result in
                guard let object = result.objectValue, let pairs = object["properties"]?.arrayValue else {
                    return result
                }
                var flattened: [String: ConformanceValue] = [:]
                for pair in pairs.reversed() {
                    guard let elements = pair.arrayValue, elements.count == 2, let key = elements[0].stringValue,
                        let value = elements[1].stringValue
                    else { continue }
                    let nonEmpty = pairs.contains { $0.arrayValue?.first?.stringValue == key && isNonBlank($0) }
                    if !nonEmpty || !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                        flattened[key] = elements[1]
                    }
                }
                if let type = flattened.removeValue(forKey: "og:type"), type.isTruthy { flattened["@type"] = type }
                flattened["@context"] = object["namespace"] ?? .object([:])
                return .object(flattened)
            })
    }

    private static func isNonBlank(_ pair: ConformanceValue) -> Bool {
        guard let elements = pair.arrayValue, elements.count == 2, let value = elements[1].stringValue else {
            return false
        }
        return !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// `flatten_dict`: an item without a type is returned unchanged.
    private static func flattened(_ value: ConformanceValue, addContext: Bool) -> ConformanceValue {
        guard var object = value.objectValue, let type = object.removeValue(forKey: "type"), type.isTruthy else {
            return value
        }
        var context = "http://schema.org"
        if let text = type.stringValue {
            let inferred = inferredContext(text, default: context)
            context = inferred.context
            object["@type"] = .string(inferred.type)
        } else {
            object["@type"] = type
        }
        if addContext { object["@context"] = .string(context) }
        let properties = object.removeValue(forKey: "properties")?.objectValue ?? [:]
        for (field, property) in properties {
            if let list = property.arrayValue {
                object[field] = .array(list.map { $0.objectValue == nil ? $0 : flattened($0, addContext: false) })
            } else {
                object[field] = property.objectValue == nil ? property : flattened(property, addContext: false)
            }
        }
        return .object(object)
    }

    /// `infer_context`: `http://schema.org/Book` → (`http://schema.org`, `Book`); with a fragment, the fragment is the
    /// type and the URL without it the context.
    private static func inferredContext(_ type: String, default context: String) -> (context: String, type: String) {
        guard let components = URLComponents(string: type), let scheme = components.scheme,
            let host = components.host, !host.isEmpty
        else { return (context, type) }
        let base = "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
        let path = components.path
        let slashes = CharacterSet(charactersIn: "/")
        if !path.isEmpty, let fragment = components.fragment, !fragment.isEmpty {
            return (base + (path.hasPrefix("/") ? path : "/" + path), fragment.trimmingCharacters(in: slashes))
        }
        if !path.isEmpty { return (base, path.trimmingCharacters(in: slashes)) }
        return (context, type)
    }
}
