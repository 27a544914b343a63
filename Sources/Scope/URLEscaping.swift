internal import ASCIIText

/// Percent-escape normalization for paths and queries (RFC 3986 section 6.2.2), so that URLs
/// differing only in escaping share one frontier key.
enum URLEscaping {
    /// `text` with its escapes in one form:
    ///
    /// - `%` + two hex digits naming an unreserved character (`A–Z a–z 0–9 - . _ ~`) becomes that
    ///   character; any other such escape keeps its byte with uppercase hex (`%2f` → `%2F`).
    /// - A `%` not followed by two hex digits is itself escaped (`%25`).
    /// - Bytes RFC 3986 does not allow in a URI (non-ASCII, controls, space, the backquote and
    ///   `" < > \ ^ { | }`) are escaped as their UTF-8 bytes; reserved characters
    ///   (`: / ? # [ ] @ ! $ & ' ( ) * + , ; =`) are kept as they are, since escaping or unescaping
    ///   them can change the meaning.
    static func normalize(_ text: some StringProtocol) -> String {
        if isNormalized(text) { return String(text) }
        let output = PercentEscape.normalized(Array(text.utf8), escapes: .unreservedDecoded) { byte, _ in
            URICharacter.isAllowed(byte)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether ``normalize(_:)`` would give `text` back unchanged because it holds no `%` and only
    /// unreserved and reserved characters (most URLs).
    static func isNormalized(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy(URICharacter.isAllowed)
    }
}
