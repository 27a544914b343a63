internal import ASCIIText

/// RFC 9309 path patterns: `*` matches any sequence, a final `$` anchors the end; a rule's path and
/// a URL's path are compared in one normalized form (``normalizeRule(_:)``, ``normalizePath(_:)``).
enum PathPattern {
    /// A rule's path in the form it is compared in (RFC 9309 §2.2.2): octets that may not appear in
    /// a URI (non-ASCII, controls, space, `"`, `<`, `>`, `\`, `^`, `` ` ``, `{`, `|`, `}`, a `%` that
    /// starts no escape) are percent-encoded; an escape of an unreserved character (`A–Z a–z 0–9 - .
    /// _ ~`) is decoded; every other escape keeps its meaning with upper-case hex, so `%2F` stays
    /// apart from `/`. `*` stays the wildcard and a final `$` the anchor; `%2A`, `%24` and a `$`
    /// elsewhere stand for the characters themselves (§2.2.3), so `/a<`, `/a%3c` and `/a%3C` are all
    /// `/a%3C`.
    static func normalizeRule(_ text: String) -> String {
        normalize(Array(text.utf8), specialCharacters: true)
    }

    /// A URL's path and query in the form of ``normalizeRule(_:)``, whose `*` and `$` are characters
    /// (`%2A`, `%24`), so that a rule matches a URL however either escapes it: `/a<d` and
    /// `/a%3cd` are the same path.
    static func normalizePath(_ text: String) -> String {
        normalize(Array(text.utf8), specialCharacters: false)
    }

    /// Whether `pattern` matches the start of `path`, or all of it when the pattern ends with `$`.
    ///
    /// The pattern is literal runs between `*`s. The first run must start the path; each later one is
    /// taken where it first occurs after the one before (ending as early as possible leaves every later
    /// choice open, so the leftmost place never loses); with a final `$`, the last run must end the
    /// path, after the others. Each search is Knuth–Morris–Pratt from where the last one ended, so the
    /// path is read once and the pattern once, however many stars: `*a*a*a…` costs what `/aaa…` costs.
    static func matches(_ path: [UInt8], _ pattern: [UInt8]) -> Bool {
        let anchored = pattern.last == UInt8(ascii: "$")
        let runs = pattern[..<(pattern.count - (anchored ? 1 : 0))].split(
            separator: UInt8(ascii: "*"), omittingEmptySubsequences: false)
        guard path.starts(with: runs[0]) else { return false }
        var position = runs[0].count
        guard runs.count > 1 else { return !anchored || position == path.count }
        for run in runs[1..<(runs.count - 1)] {
            guard let start = firstOccurrence(of: run, in: path, from: position) else { return false }
            position = start + run.count
        }
        let last = runs[runs.count - 1]
        guard anchored else { return firstOccurrence(of: last, in: path, from: position) != nil }
        return path.count - last.count >= position && path[(path.count - last.count)...].elementsEqual(last)
    }

    /// Where `needle` first occurs in `haystack` at or after `start` (Knuth–Morris–Pratt: the haystack is
    /// read once, from `start` to the end of the occurrence).
    static func firstOccurrence(of needle: ArraySlice<UInt8>, in haystack: [UInt8], from start: Int) -> Int? {
        let needle = Array(needle)
        guard !needle.isEmpty else { return start <= haystack.count ? start : nil }
        // `border[i]`: the length of the longest proper prefix of `needle[...i]` that is also its suffix.
        var border = [Int](repeating: 0, count: needle.count)
        var length = 0
        for index in 1..<needle.count {
            while length > 0 && needle[index] != needle[length] { length = border[length - 1] }
            if needle[index] == needle[length] { length += 1 }
            border[index] = length
        }
        var matched = 0
        for index in start..<max(start, haystack.count) {
            while matched > 0 && haystack[index] != needle[matched] { matched = border[matched - 1] }
            if haystack[index] == needle[matched] { matched += 1 }
            if matched == needle.count { return index + 1 - needle.count }
        }
        return nil
    }

    /// The path and query of a URL, `/` when empty; a path given alone is used as is. The result
    /// is still to be normalized (``normalizePath(_:)``).
    static func pathAndQuery(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") {
            rest = rest[scheme.upperBound...]
            if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                rest = rest[slash...]
            } else {
                rest = ""
            }
        }
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        if rest.isEmpty { return "/" }
        if rest.first == "?" { rest = "/" + rest }
        return String(rest)
    }

    /// `bytes` normalized as a URI (``URICharacter/isAllowed(_:)`` bytes kept, every other byte and a `%`
    /// that starts no escape escaped); with `specialCharacters`, `*` and a final `$` are kept as the pattern
    /// syntax, otherwise they are escaped like any reserved character written as a character.
    private static func normalize(_ bytes: [UInt8], specialCharacters: Bool) -> String {
        let result = PercentEscape.normalized(bytes, escapes: .unreservedDecoded) { byte, offset in
            switch byte {
            case UInt8(ascii: "*"): specialCharacters
            case UInt8(ascii: "$"): specialCharacters && offset == bytes.count - 1
            default: URICharacter.isAllowed(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
