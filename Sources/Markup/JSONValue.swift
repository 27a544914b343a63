/// A JSON value, as parsed from a JSON-LD block or written into a report.
///
/// Objects keep their members in document order (a list of pairs, not a dictionary),
/// because output that reorders what a page said is harder to check against the page.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its source text so `"12.50"`-like precision and large integers survive.
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in document order; a repeated key keeps every occurrence.
    case object([(key: String, value: JSONValue)])

    /// The first member named `key` of an object; `nil` for other values.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The string, or the number's text; `nil` for other values.
    public var stringValue: String? {
        switch self {
        case .string(let text), .number(let text): return text
        default: return nil
        }
    }

    /// The number as a `Double`, also from a numeric string such as `"4.5"`.
    public var doubleValue: Double? {
        switch self {
        case .number(let text), .string(let text): return Double(text.trimmingSpaces())
        default: return nil
        }
    }

    /// The elements of an array, or the value itself as a one-element list (JSON-LD treats
    /// a single value and a one-element array alike).
    public var listValue: [JSONValue] {
        if case .array(let elements) = self { return elements }
        if case .null = self { return [] }
        return [self]
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b || (Double(a) != nil && Double(a) == Double(b))
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let text): hasher.combine(Double(text) ?? 0)
        case .string(let text): hasher.combine(text)
        case .array(let elements): hasher.combine(elements)
        case .object(let members):
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }
}

extension String {
    /// The string without leading and trailing ASCII white space (space, tab, CR, LF, FF).
    func trimmingSpaces() -> String {
        let isSpace: (Unicode.Scalar) -> Bool = {
            $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}"
        }
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !isSpace($0) }),
            let end = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[start...end])
    }
}
