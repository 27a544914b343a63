/// A URL parsed by the WHATWG URL Standard's basic URL parser (https://url.spec.whatwg.org/#url-parsing),
/// serialized the way browsers serialize it.
///
/// Parsing never crashes on bad input: anything the standard calls a failure makes `init` return `nil`.
/// Host names go through IDNA to their ASCII form (lowercase + NFKC mapping, then Punycode; the full UTS #46
/// validity tables are not applied).
package struct WebURL: Sendable, Hashable, CustomStringConvertible {
    var record: URLRecord

    /// Parses `string`, resolved against `base` when it is relative; `nil` when the standard says failure.
    package init?(_ string: String, base: WebURL? = nil) {
        guard let record = URLParser.parse(string, base: base?.record) else { return nil }
        self.record = record
    }

    init(record: URLRecord) { self.record = record }

    /// The scheme, lower-case, without the `:` (`https`).
    package var scheme: String { record.scheme }
    /// The username, percent-encoded; empty when there is none.
    package var username: String { record.username }
    /// The password, percent-encoded; empty when there is none.
    package var password: String { record.password }
    /// The serialized host: a lower-case ASCII domain, dotted IPv4, bracketed compressed IPv6, an opaque
    /// host, or `""` (empty host, as in `file:///`); `nil` when the URL has no host at all.
    package var host: String? { record.host?.serialized }
    /// The port, or `nil` when absent or the scheme's default (so `http://a:80/` has none).
    package var port: Int? { record.port }
    /// The serialized path: `/`-joined segments, or the opaque path of a URL like `mailto:x`.
    package var path: String { record.serializedPath }
    /// The query without its `?`, or `nil` when there is none (`""` for a bare `?`).
    package var query: String? { record.query }
    /// The fragment without its `#`, or `nil` when there is none.
    package var fragment: String? { record.fragment }
    /// Whether the scheme is one of the standard's special schemes (http, https, ws, wss, ftp, file).
    package var isSpecial: Bool { record.isSpecial }
    /// The whole URL serialized (https://url.spec.whatwg.org/#concept-url-serializer).
    package var href: String { record.serialized(excludingFragment: false) }
    /// The same as ``href``.
    package var description: String { href }
}
