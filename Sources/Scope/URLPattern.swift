/// An `--include` / `--exclude` pattern: a glob over a normalized ``CrawlURL``.
///
/// - `*` matches any run of characters, including none and including `/`; every other
///   character matches itself. There are no other wildcards, classes or escapes.
/// - The pattern is anchored at both ends: it must match the whole text, so "everything under
///   `/docs/`" is `/docs/*`, not `/docs/`.
/// - A pattern that starts with a scheme and `://` (`https://…`, `*://…`) matches the whole
///   normalized URL, e.g. `https://*.example.com/*`. Its scheme and host part are compared
///   case-insensitively (URLs are keyed lowercase there); `https://example.com` means the root
///   page `https://example.com/`, and a default port (`:80` on http, `:443` on https) is dropped,
///   as in the URLs it is matched against.
/// - **Any other pattern matches the path and query only** (``CrawlURL/pathAndQuery``), e.g.
///   `--exclude '/private/*'` or `--exclude '*?session=*'`. Such a pattern must start with `/` or
///   `*`, since every path does.
/// - Paths and queries compare case-sensitively. The pattern's escapes are normalized the way
///   URLs are (`%7e` → `~`, `%2f` → `%2F`, `/café` → `/caf%C3%A9`, space → `%20`), so a
///   pattern is written as a URL is, not as its key happens to be spelled.
///
/// Matching takes time linear in the pattern and URL lengths (no backtracking), and patterns are
/// at most ``maximumLength`` bytes.
package struct URLPattern: Sendable, Hashable, CustomStringConvertible {
    /// The longest pattern accepted, in UTF-8 bytes.
    package static let maximumLength = 1024

    /// What a pattern is matched against.
    package enum Target: Sendable, Hashable {
        /// The whole normalized URL (``CrawlURL/string``).
        case url
        /// The path and query (``CrawlURL/pathAndQuery``).
        case pathAndQuery
    }

    /// Why a pattern was refused.
    package enum Problem: Hashable, Sendable, CustomStringConvertible {
        /// The pattern is empty.
        case empty
        /// The pattern is longer than ``URLPattern/maximumLength`` bytes.
        case tooLong(length: Int)
        /// A path pattern (no `scheme://`) that starts with neither `/` nor `*` could never match.
        case notAPath

        /// A short readable reason.
        package var description: String {
            switch self {
            case .empty:
                "the pattern is empty"
            case .tooLong(let length):
                "the pattern is \(length) bytes long; at most \(URLPattern.maximumLength) are allowed"
            case .notAPath:
                "a pattern without 'scheme://' matches the path and query, so it must start with '/' or '*'"
            }
        }
    }

    /// The pattern as given.
    package let source: String
    /// What the pattern is matched against.
    package let target: Target
    /// The pattern after normalization, the form that is matched.
    package let normalized: String
    /// `normalized` split at each `*`.
    let segments: [GlobSegment]

    /// The pattern as given.
    package var description: String { source }

    /// Checks and prepares `pattern`.
    ///
    /// - Throws: ``ScopeError/invalidPattern(_:problem:)`` when it is empty, too long or a path
    ///   pattern that cannot match.
    package init(_ pattern: String) throws(ScopeError) {
        let length = pattern.utf8.count
        guard length > 0 else { throw .invalidPattern(pattern, problem: .empty) }
        guard length <= Self.maximumLength else {
            throw .invalidPattern(pattern, problem: .tooLong(length: length))
        }
        if let (scheme, rest) = Self.splitScheme(pattern) {
            target = .url
            normalized = scheme + "://" + Self.normalizeAfterScheme(rest, scheme: scheme)
        } else {
            guard pattern.hasPrefix("/") || pattern.hasPrefix("*") else {
                throw .invalidPattern(pattern, problem: .notAPath)
            }
            target = .pathAndQuery
            normalized = URLEscaping.normalize(pattern)
        }
        source = pattern
        segments = normalized.utf8.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false)
            .map { GlobSegment(Array($0)) }
    }

    /// Whether the pattern matches `url` (its whole string or its path and query, per ``target``).
    package func matches(_ url: CrawlURL) -> Bool {
        switch target {
        case .url: matches(text: url.string)
        case .pathAndQuery: matches(text: url.pathAndQuery)
        }
    }

    /// `scheme` and what follows `://` when the pattern starts with a scheme (letters, digits,
    /// `+ - .` or `*`) and `://`.
    private static func splitScheme(_ pattern: String) -> (String, Substring)? {
        guard let range = pattern.range(of: "://") else { return nil }
        let scheme = pattern[..<range.lowerBound]
        let isScheme = !scheme.isEmpty && scheme.utf8.allSatisfy(isSchemeByte)
        return isScheme ? (scheme.lowercased(), pattern[range.upperBound...]) : nil
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "*"):
            return true
        default:
            return false
        }
    }

    /// Lowercases the authority (up to the first `/` or `?`), drops a default port, adds the root
    /// path when there is none and normalizes the escapes of the rest.
    private static func normalizeAfterScheme(_ rest: Substring, scheme: String) -> String {
        let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<end].lowercased()
        let defaultPort = scheme == "https" ? ":443" : scheme == "http" ? ":80" : nil
        if let defaultPort, authority.hasSuffix(defaultPort) { authority.removeLast(defaultPort.count) }
        let remainder = rest[end...]
        if remainder.isEmpty && !authority.hasSuffix("*") { return authority + "/" }
        return authority + URLEscaping.normalize(remainder)
    }
}
