/// Untrusted text (page markup, donated records, headers) made plain before it is stored or shown.
///
/// Control characters never reach the store or a terminal: an `ESC [ 2 J` in a page title would clear the
/// screen of whoever prints a search result, an OSC sequence could retitle the window or write to the
/// clipboard. The rules are Unicode's general category `Cc`: C0 (U+0000–U+001F), DEL (U+007F) and C1
/// (U+0080–U+009F, where U+009B is a one-character CSI).
package enum PlainText {
    /// `text` with every control character removed, white-space controls (tab, line feed, vertical tab,
    /// form feed, carriage return, U+0085) turned into one space each, so words on either side stay apart.
    ///
    /// For single-field text (titles, descriptions, keywords, names): it keeps no line structure. Text with
    /// no control character is returned as it is, after one scan of its UTF-8 bytes.
    package static func cleaned(_ text: String) -> String {
        guard containsControl(text.utf8, keepingLineBreaks: false) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isSpaceLike(scalar) {
                result.unicodeScalars.append(" ")
            } else if !isControl(scalar) {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` for a terminal: every control character removed except line feed and tab, which lay out
    /// the output; a carriage return is removed too (it would let a later line overwrite an earlier one).
    ///
    /// For whole lines the tool writes: whatever a field held, no escape sequence survives.
    package static func terminalSafe(_ text: String) -> String {
        guard containsControl(text.utf8, keepingLineBreaks: true) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars where !isControl(scalar) || scalar == "\n" || scalar == "\t" {
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// Whether `scalar` is a control character (general category `Cc`).
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
    }

    /// Whether `text` holds any control character.
    package static func containsControl(_ text: String) -> Bool {
        containsControl(text.utf8, keepingLineBreaks: false)
    }

    private static func isSpaceLike(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value >= 0x09 && scalar.value <= 0x0D) || scalar.value == 0x85
    }

    /// One pass over UTF-8 (line feed and tab not counted when `keepingLineBreaks`): C0 and DEL are single
    /// bytes; C1 is encoded as 0xC2 followed by 0x80–0x9F.
    private static func containsControl(_ bytes: String.UTF8View, keepingLineBreaks: Bool) -> Bool {
        var afterC2 = false
        for byte in bytes {
            if byte < 0x20 {
                if !(keepingLineBreaks && (byte == 0x0A || byte == 0x09)) { return true }
            } else if byte == 0x7F {
                return true
            } else if afterC2, byte >= 0x80, byte <= 0x9F {
                return true
            }
            afterC2 = byte == 0xC2
        }
        return false
    }
}
