internal import ASCIIText

/// How a rule compares text: Apple's `caseSensitive` and `percentEncoded` keys.
///
/// Reading of Apple's documentation (`applinks.Details.Components`, WWDC20 "What's new in Universal
/// Links"): `percentEncoded` says whether the *patterns* are written percent-encoded.
/// - `true` (the default): a pattern is compared with the URL component as it travels, percent-encoded
///   (`/caf%C3%A9`). A raw non-ASCII character in such a pattern can never match.
/// - `false`: the URL component is percent-decoded before matching, so patterns can be written in plain
///   Unicode (`/café/?*`), and `%` in a pattern is a literal percent sign.
///
/// `caseSensitive` (default `true`) set to `false` compares both sides lowercased.
struct MatchOptions: Sendable, Hashable {
    var caseSensitive = true
    var percentEncoded = true
}

/// Brings pattern text and URL text into the same form before they are compared.
enum MatchText {
    /// Literal pattern text: `%xx` escapes upper-cased when the pattern is percent-encoded (so `%c3`
    /// and `%C3` agree, as RFC 3986 §6.2.2.1 makes them equivalent), then lowercased if case-insensitive.
    static func pattern(_ text: String, _ options: MatchOptions) -> String {
        let form = options.percentEncoded ? uppercasingEscapes(text) : text
        return options.caseSensitive ? form : form.lowercased()
    }

    /// A URL component (path, query, fragment, query-item name or value), in the form `options` compares.
    ///
    /// Percent-encoded comparison first encodes any raw space, control or non-ASCII character the URL
    /// string carries (a browser sends them encoded) and upper-cases escapes; decoded comparison turns
    /// `%xx` escapes into bytes read as UTF-8 (invalid sequences become U+FFFD). `+` is not a space here:
    /// it is only one in form data, and universal links compare URL components.
    static func component(_ text: Substring, _ options: MatchOptions) -> [Unicode.Scalar] {
        let form = options.percentEncoded ? encodingRaw(text) : decoding(text)
        return Array((options.caseSensitive ? form : form.lowercased()).unicodeScalars)
    }

    /// `text` with the hex digits of its `%xx` escapes upper-cased; everything else as it is.
    static func uppercasingEscapes(_ text: String) -> String {
        let bytes = PercentEscape.normalized(Array(text.utf8), escapes: .uppercased) { _, _ in true }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` as a browser sends it: raw spaces, controls, DEL and non-ASCII bytes escaped, and escapes
    /// upper-cased (one pass: an escape written here is already upper-case and never joins a `%` before it,
    /// since it starts with `%` itself).
    private static func encodingRaw(_ text: Substring) -> String {
        let bytes = PercentEscape.normalized(Array(text.utf8), escapes: .uppercased) { byte, _ in
            byte > 0x20 && byte < 0x7F
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` with its escapes decoded, the bytes read as UTF-8 (U+FFFD for invalid sequences).
    private static func decoding(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return String(decoding: PercentEscape.decoded(Array(text.utf8)), as: UTF8.self)
    }
}
