/// A character encoding, by its WHATWG canonical name ("UTF-8", "windows-1252", "Shift_JIS", "ISO-8859-2",
/// "UTF-16LE", "x-user-defined", "replacement", …).
///
/// The WHATWG Encoding Standard (https://encoding.spec.whatwg.org/#names-and-labels) is the list browsers agree on:
/// about 220 labels name 40 encodings, and nothing outside that list is supported. A value of this type can only be
/// made from one of those labels (or taken from the static members), so its `name` is always one of the 40 names.
///
/// Two values are equal when they name the same encoding: `TextEncoding(label: "latin1") == .windows1252`.
package struct TextEncoding: Sendable, Hashable, CustomStringConvertible {
    /// The WHATWG canonical name, spelled as the Encoding Standard spells it ("Shift_JIS", "gb18030", "UTF-8").
    package let name: String

    /// Looks up a WHATWG label (case-insensitive, ASCII whitespace trimmed): "latin1", "utf8", "sjis", "x-sjis",
    /// "iso_8859-1", …; nil for unknown labels.
    ///
    /// This is the Encoding Standard's "get an encoding" (https://encoding.spec.whatwg.org/#concept-encoding-get).
    /// Only ASCII letters are lowercased: the standard compares labels ASCII case-insensitively, so "UTF-8" with a
    /// Turkish dotless ı or a Kelvin sign does not match.
    package init?(label: String) {
        guard let key = Self.normalizedLabel(label), let name = Self.namesByLabel[key] else { return nil }
        self.name = name
    }

    /// Makes a value from a canonical name taken from the label table; callers guarantee the name is canonical.
    init(canonicalName: String) {
        self.name = canonicalName
    }

    /// The canonical name.
    package var description: String { name }

    /// UTF-8, the encoding every page is converted to, and the one new pages should use.
    package static let utf8 = TextEncoding(canonicalName: "UTF-8")

    /// windows-1252, which the labels "latin1", "iso-8859-1", "ascii" and "us-ascii" also name: browsers decode
    /// ISO-8859-1 pages with windows-1252's 0x80–0x9F punctuation, so the Encoding Standard merged them.
    package static let windows1252 = TextEncoding(canonicalName: "windows-1252")

    /// UTF-16 little-endian (also the label "utf-16" with no byte order mark).
    package static let utf16LE = TextEncoding(canonicalName: "UTF-16LE")

    /// UTF-16 big-endian.
    package static let utf16BE = TextEncoding(canonicalName: "UTF-16BE")

    /// The "replacement" encoding: the labels of ISO-2022-KR, ISO-2022-CN and HZ-GB-2312, which browsers refuse to
    /// decode (they enable script injection), so the whole page decodes to one U+FFFD.
    package static let replacement = TextEncoding(canonicalName: "replacement")

    /// x-user-defined: ASCII, plus bytes 0x80–0xFF mapped into the private use area U+F780–U+F7FF.
    package static let xUserDefined = TextEncoding(canonicalName: "x-user-defined")

    /// Whether this is UTF-16LE or UTF-16BE, the Encoding Standard's "UTF-16BE/LE".
    var isUTF16: Bool {
        self == .utf16LE || self == .utf16BE
    }

    /// The encoding an in-document declaration really selects.
    ///
    /// HTML §13.2.3.2 (prescan steps 14–15) and §13.2.3.4 ("change the encoding", steps 2–3): a `<meta>` that
    /// says UTF-16 was necessarily read as ASCII-compatible bytes, so it cannot be UTF-16 and means UTF-8; and
    /// x-user-defined in a `<meta>` means windows-1252.
    var asDeclaredInDocument: TextEncoding {
        if isUTF16 { return .utf8 }
        if self == .xUserDefined { return .windows1252 }
        return self
    }

    /// A label lowercased (ASCII letters only) with leading and trailing ASCII whitespace removed; nil when the
    /// label has characters no label has (non-ASCII), so they cannot be confused with a label after lowercasing.
    static func normalizedLabel(_ label: String) -> String? {
        var bytes = Array(label.utf8)
        while let last = bytes.last, last.isASCIIWhitespace { bytes.removeLast() }
        let start = bytes.firstIndex { !$0.isASCIIWhitespace } ?? bytes.endIndex
        bytes.removeSubrange(..<start)
        guard !bytes.isEmpty, bytes.count <= 64, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        for index in bytes.indices where (0x41...0x5A).contains(bytes[index]) {
            bytes[index] += 0x20
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
