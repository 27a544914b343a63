/// A JSON value (RFC 8259), as parsed or as built to be written.
///
/// Objects keep their members in document order, duplicates included: what a repeated key means
/// (first wins, last wins, an error) is the reader's decision, not the parser's; and output that
/// reorders what a page said is harder to check against the page. Numbers keep their text, so two
/// values are equal when they are written alike (`1.0` is not `1`). Equality, hashing and
/// deallocation recurse, which the parser's depth limit keeps bounded.
package enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as written so the reader chooses how to convert it.
    case number(JSONNumber)
    /// A string, unescaped.
    case string(String)
    /// An array, in document order.
    case array([JSONValue])
    /// An object's members, in document order, duplicates included.
    case object([JSONMember])

    /// The value's JSON type with an article, for messages such as "found a number".
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One `"key": value` member of a JSON object.
package struct JSONMember: Sendable, Hashable {
    /// The key, unescaped.
    package var key: String
    /// The value.
    package var value: JSONValue

    /// Creates a member.
    package init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }

    /// Creates a member; the short form for writers that list many (`JSONMember("name", .string(name))`).
    package init(_ key: String, _ value: JSONValue) {
        self.init(key: key, value: value)
    }
}
