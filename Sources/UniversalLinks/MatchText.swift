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

    static func uppercasingEscapes(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), hexValue(bytes[index + 1]) != nil, hexValue(bytes[index + 2]) != nil {
                bytes[index + 1] = upper(bytes[index + 1])
                bytes[index + 2] = upper(bytes[index + 2])
                index += 3
            } else {
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func encodingRaw(_ text: Substring) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if byte >= 0x80 || byte <= 0x20 || byte == 0x7F {
                result += [UInt8(ascii: "%"), hexDigit(byte >> 4), hexDigit(byte & 0x0F)]
            } else {
                result.append(byte)
            }
        }
        return uppercasingEscapes(String(decoding: result, as: UTF8.self))
    }

    private static func decoding(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "%")) else { return String(text) }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                result.append(high << 4 | low)
                index += 3
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func upper(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) ? byte - 32 : byte
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}
