/// Lookups for readers that take JSON as it comes (JSON-LD on web pages): no errors, `nil` or an
/// empty list for what is not there or not of the kind asked for.
extension JSONValue {
    /// The value of the first member named `key` of an object; `nil` for other values.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// The string, or the number's text; `nil` for other values.
    package var stringValue: String? {
        switch self {
        case .string(let text): text
        case .number(let number): number.literal
        default: nil
        }
    }

    /// The number as a `Double`, also from a numeric string such as `" 4.5"` (ASCII white space around
    /// it allowed); `nil` for other values. Out of `Double`'s range is infinity (or zero), not `nil`:
    /// the reader checks `isFinite` when it matters.
    package var doubleValue: Double? {
        switch self {
        case .number(let number): Double(number.literal)
        case .string(let text): Double(Self.trimmingSpaces(text))
        default: nil
        }
    }

    /// The elements of an array; nothing for `null`; any other value as a one-element list (JSON-LD
    /// treats a single value and a one-element array alike).
    package var listValue: [JSONValue] {
        switch self {
        case .array(let elements): elements
        case .null: []
        default: [self]
        }
    }

    /// `text` without leading and trailing ASCII white space (space, tab, CR, LF, FF).
    private static func trimmingSpaces(_ text: String) -> Substring {
        let isSpace: (Unicode.Scalar) -> Bool = {
            $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}"
        }
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !isSpace($0) }),
            let end = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return Substring(scalars[start...end])
    }
}
