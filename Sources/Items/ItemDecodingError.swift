import PlainText

/// Why a JSON text is not a ``SearchableItem``, and where: the path of the value that is wrong
/// (`attributeSet.offers[1].price`), or the byte offset of text that is not JSON at all.
package struct ItemDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    package enum Reason: Sendable, Hashable {
        /// The text is not RFC 8259 JSON: the parser's reason, at `offset` bytes into the text.
        case invalidJSON(String, offset: Int)
        /// A key the item always has is absent.
        case missingKey
        /// A value of another JSON type than the property holds; both are named with an article
        /// (`a string`, `a number`, `null`).
        case wrongType(expected: String, found: String)
        /// The key appears more than once in its object (the encoder writes each key once).
        case duplicateKey
        /// A string that names no case of the property's enumeration (a source, a deep link's kind).
        case unknownValue(String)
        /// A number, as written, that the property cannot hold: a fraction or an out-of-range
        /// number for a count, an infinite one for a rating or a coordinate.
        case unrepresentableNumber(String)
    }

    /// The value's path from the item (`deepLinks[0].kind`); empty for the item itself.
    package var path: String
    /// What is wrong there.
    package var reason: Reason

    /// Creates an error.
    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The most characters of a stored value a message shows.
    static let shownLength = 80

    /// `path: reason`, the way a log line names it (`attributeSet.rating: expected a number, found a
    /// string`); what comes from the text is shortened and has no control characters.
    package var description: String {
        let place = path.isEmpty ? "item" : Self.shortened(path)
        let text: String
        switch reason {
        case .invalidJSON(let why, let offset): text = "not JSON at byte \(offset): \(why)"
        case .missingKey: text = "\(place): missing"
        case .wrongType(let expected, let found): text = "\(place): expected \(expected), found \(found)"
        case .duplicateKey: text = "\(place): the key appears more than once"
        case .unknownValue(let value): text = "\(place): unknown value \"\(Self.shortened(value))\""
        case .unrepresentableNumber(let literal): text = "\(place): the number \(Self.shortened(literal)) does not fit"
        }
        return PlainText.cleaned(text)
    }

    private static func shortened(_ value: String) -> String {
        guard value.unicodeScalars.count > shownLength else { return value }
        var shown = ""
        shown.unicodeScalars.append(contentsOf: value.unicodeScalars.prefix(shownLength))
        return shown + "…"
    }
}
