/// Makes an untrusted string safe to show to a person, before any format-specific escaping:
/// characters that could restyle a terminal, break a line or a table, or reorder text are shown
/// as `\u{…}`, and very long strings are cut.
package enum DisplayText {
    /// The result of ``sanitized(_:limit:)``.
    package struct Sanitized {
        /// The text to show.
        package var text: String
        /// Whether anything was cut or replaced, in which case the text is not the original
        /// (a URL shown this way must not become a link).
        package var isAltered: Bool
    }

    /// Returns `raw` with C0/C1 controls, DEL, line and paragraph separators and bidirectional
    /// formatting characters replaced by a visible `\u{HEX}`, cut after `limit` Unicode scalars
    /// with a note of how many were left out. Linear in the length of `raw`.
    package static func sanitized(_ raw: String, limit: Int) -> Sanitized {
        let limit = max(1, limit)
        var text = ""
        text.reserveCapacity(min(raw.utf8.count, limit * 4) + 16)
        var shown = 0
        var omitted = 0
        var isAltered = false
        for scalar in raw.unicodeScalars {
            if shown == limit {
                omitted += 1
                continue
            }
            shown += 1
            if isHidden(scalar) {
                isAltered = true
                text += "\\u{"
                text += String(scalar.value, radix: 16, uppercase: true)
                text += "}"
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        if omitted > 0 {
            isAltered = true
            text += "… [\(omitted) more characters]"
        }
        return Sanitized(text: text, isAltered: isAltered)
    }

    /// Whether a scalar must not reach the reader as is: controls (including tab and newlines),
    /// U+2028/U+2029, and the bidi marks, embeddings, overrides and isolates (Trojan Source).
    package static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether `url` may become a link: only `http:` and `https:` URLs, so never `javascript:`,
    /// `data:` or `file:`. The check is on the exact string that goes into the link.
    package static func isLinkable(_ url: String) -> Bool {
        var prefix = ""
        for scalar in url.unicodeScalars.prefix(8) { prefix.unicodeScalars.append(scalar) }
        let lowered = prefix.lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }
}
