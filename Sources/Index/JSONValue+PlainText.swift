import Markup
import PlainText

extension JSONValue {
    /// The value with control characters removed from every string in it (``PlainText/cleaned(_:)``).
    ///
    /// Publishing passes every item through this: pages crawled and activities imported before text was
    /// cleaned on the way in still publish clean text, and so does anything a later source forgets.
    func withoutControlCharacters() -> JSONValue {
        switch self {
        case .null, .bool, .number: self
        case .string(let text): .string(PlainText.cleaned(text))
        case .array(let elements): .array(elements.map { $0.withoutControlCharacters() })
        case .object(let members): .object(members.map { ($0.key, $0.value.withoutControlCharacters()) })
        }
    }
}
