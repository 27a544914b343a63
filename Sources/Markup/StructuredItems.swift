/// One microdata item (https://html.spec.whatwg.org/multipage/microdata.html).
package struct MicrodataItem: Sendable, Hashable {
    /// The `itemtype` URLs, in order (usually one, e.g. `https://schema.org/Recipe`).
    package var types: [String]
    /// The `itemid`, resolved, if given.
    package var id: String?
    /// The properties in tree order; a name that appears twice keeps both values.
    package var properties: [MicrodataProperty]

    /// Creates an item.
    package init(types: [String], id: String? = nil, properties: [MicrodataProperty] = []) {
        self.types = types
        self.id = id
        self.properties = properties
    }

    /// Every value of property `name`, in order.
    package func values(_ name: String) -> [StructuredValue<MicrodataItem>] {
        properties.filter { $0.name == name }.map(\.value)
    }
}

/// One `itemprop` name and its value.
package struct MicrodataProperty: Sendable, Hashable {
    /// The property name (one token of `itemprop`).
    package var name: String
    /// Its value.
    package var value: StructuredValue<MicrodataItem>

    /// Creates a property.
    package init(name: String, value: StructuredValue<MicrodataItem>) {
        self.name = name
        self.value = value
    }
}

/// One RDFa Lite item: an element with `typeof` (https://www.w3.org/TR/rdfa-lite/).
package struct RDFaItem: Sendable, Hashable {
    /// The `typeof` types, expanded against `vocab` and `prefix` (e.g. `http://schema.org/Person`).
    package var types: [String]
    /// The `resource` (or `about`) IRI, resolved, if given.
    package var resource: String?
    /// The properties in tree order, names expanded like the types.
    package var properties: [RDFaProperty]

    /// Creates an item.
    package init(types: [String], resource: String? = nil, properties: [RDFaProperty] = []) {
        self.types = types
        self.resource = resource
        self.properties = properties
    }
}

/// One RDFa `property` and its value.
package struct RDFaProperty: Sendable, Hashable {
    /// The expanded property IRI (e.g. `http://schema.org/name`).
    package var name: String
    /// Its value.
    package var value: StructuredValue<RDFaItem>

    /// Creates a property.
    package init(name: String, value: StructuredValue<RDFaItem>) {
        self.name = name
        self.value = value
    }
}

/// A property value in microdata or RDFa: text, a URL, or a nested item.
package indirect enum StructuredValue<Item: Sendable & Hashable>: Sendable, Hashable {
    /// A text value (`content`, `datetime`, `value`, or the element's text).
    case text(String)
    /// A URL value (`href`, `src`, `data`, `resource`), resolved.
    case url(String)
    /// A nested item.
    case item(Item)

    /// The text or URL; `nil` for a nested item.
    package var stringValue: String? {
        switch self {
        case .text(let text), .url(let text): return text
        case .item: return nil
        }
    }
}
