internal import URLCanonical

/// An absolute `http`/`https` URL in the normalized form the crawler's frontier deduplicates on.
///
/// Parsing is the WHATWG URL Standard's (URLCanonical's parser, so a link is keyed as a browser reads it);
/// on top of it, two links that name the same resource in different spellings get the same ``string``:
///
/// | Part | Normalization |
/// |---|---|
/// | input | the parser's: C0 controls and spaces trimmed at both ends; tabs, newlines removed; `\` as `/` |
/// | scheme | lowercase |
/// | user info | dropped: credentials found in a page are never keyed or sent |
/// | host | percent-decoded; IDNA to lowercase ASCII, international labels as punycode; one trailing dot removed |
/// | IP literal | as the parser writes it: `127.1`, `0x7f.1` → `127.0.0.1`; `[0:0::1]` → `[::1]` |
/// | port | dropped when it is the scheme's default (80, 443) |
/// | path | `/` when empty; dot segments resolved (escaped ones, `%2e`, too); escapes normalized |
/// | query | kept in its order; `'` escaped (`%27`, the parser's query set); escapes normalized; bare `?` dropped |
/// | fragment | dropped |
///
/// A host must then be 1–63-byte labels of `a-z 0-9 - _`, at most 253 bytes in all (``HostName``); the
/// parser alone would also take `a..b` or `exa$mple.com`, which no server answers to.
///
/// Escapes: `%` + hex naming an unreserved character (`A–Z a–z 0–9 - . _ ~`) is decoded, every
/// other escape gets uppercase hex digits, and characters not allowed in a URI (non-ASCII,
/// controls, space, a `%` without two hex digits, the backquote and `" < > \ ^ { | }`) are escaped
/// as UTF-8. The result is pure ASCII, so its length in characters is its length in bytes, and
/// normalizing it again changes nothing.
///
/// Ordinary absolute URLs (`https://host/path?query` with a plain ASCII host) skip the full parser: the
/// link resolver's byte scan proves the parser's answer for them (``init(_:)``; a test holds the two equal).
package struct CrawlURL: Sendable, Hashable, CustomStringConvertible {
    /// Longer input is refused without parsing (the crawler's own limit is usually far lower).
    package static let maximumInputLength = 65_536

    /// `http` or `https`.
    package let scheme: String
    /// The normalized host: lowercase ASCII, IPv6 literals in brackets.
    package let host: String
    /// The port when it is not the scheme's default; `nil` for 80 on `http` and 443 on `https`.
    package let port: Int?
    /// The normalized path, starting with `/`.
    package let path: String
    /// The normalized query without its `?`; `nil` when absent or empty.
    package let query: String?
    /// The whole normalized URL: the frontier key.
    package let string: String

    /// The path and, when there is one, `?` and the query: what path-only ``URLPattern``s match.
    package var pathAndQuery: String {
        query.map { "\(path)?\($0)" } ?? path
    }

    /// The origin, `scheme://host[:port]`: the key robots.txt rules and per-host politeness
    /// are kept under (RFC 9309 section 2.3 applies robots.txt per scheme, host and port).
    package var hostKey: String {
        port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }

    /// The host's registrable domain (see ``RegistrableDomain/of(host:)``).
    package var registrableDomain: String? {
        RegistrableDomain.of(normalizedHost: host)
    }

    /// The normalized URL.
    package var description: String { string }

    /// Why a string is not a crawlable URL.
    package enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// An absolute URL with a scheme other than `http` or `https` (lowercased; empty if unreadable).
        case unsupportedScheme(String)
        /// Longer than ``CrawlURL/maximumInputLength`` bytes.
        case tooLong(length: Int)
        /// Not an absolute URL with a usable host; the reason says what is wrong.
        case invalid(reason: String)

        /// A short readable reason.
        package var description: String {
            switch self {
            case .unsupportedScheme(let scheme): "unsupported scheme '\(scheme)' (only http and https are crawled)"
            case .tooLong(let length): "URL too long (\(length) bytes)"
            case .invalid(let reason): "invalid URL: \(reason)"
            }
        }
    }

    /// Parses and normalizes `string`, which must be absolute (resolve relative links first).
    package init(_ string: String) throws(ParseError) {
        let length = string.utf8.count
        guard length <= Self.maximumInputLength else { throw .tooLong(length: length) }
        try self.init(string, parsed: WebURL.parseAbsolute(string))
    }

    /// A URL of parts already normalized.
    init(scheme: String, host: String, port: Int?, path: String, query: String?, string: String) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
        self.string = string
    }

    /// The normalized form of `string`, or `nil` when it is not an absolute `http`/`https` URL.
    package static func normalize(_ string: String) -> String? {
        try? CrawlURL(string).string
    }
}
