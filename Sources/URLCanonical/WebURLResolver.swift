/// A base URL made ready to resolve many references against it, as a page's links are.
///
/// Every answer is the WHATWG basic URL parser's (``WebURL/init(_:base:)``), serialized. The parser works
/// code point by code point and costs microseconds a link; most links on real pages are ordinary (`/path`,
/// `page.html`, `https://host/path?query`), so those are resolved by a byte scan
/// (``WebURLResolver/FastPath``) that proves the parser would give the same bytes, and everything else takes
/// the parser. A test holds the two equal over the WHATWG corpus and generated references.
package struct WebURLResolver: Sendable {
    /// The base as given.
    private let baseText: String
    /// The base, parsed; `nil` when the byte scan took it, since then only a reference the scan leaves to the
    /// parser needs it (and parses it again).
    private let parsedBase: WebURL?
    /// The pieces of an http(s) base the byte scan needs; `nil` sends every reference to the parser.
    let prepared: PreparedBase?

    private init(baseText: String, parsedBase: WebURL?, prepared: PreparedBase?) {
        self.baseText = baseText
        self.parsedBase = parsedBase
        self.prepared = prepared
    }

    /// A resolver against `base`.
    package init(base: WebURL) {
        self.init(
            baseText: base.href, parsedBase: base,
            prepared: PreparedBase(href: base.record.serialized(excludingFragment: true)))
    }

    /// A resolver against the URL `base` parses to, or `nil` when it is not a URL. An ordinary http(s) base
    /// (a page's own URL) is taken apart by the byte scan, without the parser.
    package init?(base: String) {
        if let href = FastPath.absoluteWebHref(base), let prepared = PreparedBase(href: href) {
            self.init(baseText: base, parsedBase: nil, prepared: prepared)
        } else if let url = WebURL(base) {
            self.init(base: url)
        } else {
            return nil
        }
    }

    /// The base URL.
    package var base: WebURL? { parsedBase ?? WebURL(baseText) }

    /// The serialized URL `reference` resolves to, with its fragment; `nil` when the parser fails.
    package func href(resolving reference: String) -> String? {
        if let prepared, let fast = FastPath.resolve(reference, against: prepared, keepingFragment: true) {
            return fast
        }
        return WebURL(reference, base: base)?.href
    }

    /// The serialized URL `reference` resolves to when it is an `http` or `https` URL with a host (a link a
    /// crawler can follow), without its fragment; `nil` for `mailto:`, `javascript:` and the like, and when
    /// the parser fails.
    package func webHref(resolving reference: String) -> String? {
        if let prepared, let fast = FastPath.resolve(reference, against: prepared, keepingFragment: false) {
            return fast
        }
        return Self.webHref(of: WebURL(reference, base: base))
    }

    /// The byte scan's answer alone: the serialized URL `reference` resolves to, with its fragment, when the
    /// scan takes it (always `http` or `https` then); `nil` when it would go to the parser.
    package func scannedHref(resolving reference: String) -> String? {
        guard let prepared else { return nil }
        return FastPath.resolve(reference, against: prepared, keepingFragment: true)
    }

    /// ``scannedHref(resolving:)`` for a URL that must be absolute: `nil` unless it starts with `http://` or
    /// `https://` and the scan takes it.
    package static func scannedHref(absolute string: String) -> String? {
        guard string.hasPrefix("http://") || string.hasPrefix("https://"), let placeholder = PreparedBase.placeholder
        else { return nil }
        return FastPath.resolve(string, against: placeholder, keepingFragment: true)
    }

    /// ``webHref(resolving:)`` through the parser alone: what the byte scan is tested against.
    package func parsedWebHref(resolving reference: String) -> String? {
        Self.webHref(of: WebURL(reference, base: base))
    }

    private static func webHref(of url: WebURL?) -> String? {
        guard let url, url.scheme == "http" || url.scheme == "https", let host = url.host, !host.isEmpty else {
            return nil
        }
        return url.record.serialized(excludingFragment: true)
    }
}

extension WebURLResolver {
    /// An http or https base taken apart once: its origin with credentials and port as serialized, its
    /// path, and its query.
    struct PreparedBase: Sendable {
        /// `https:`: what a scheme-relative reference (`//host/path`) keeps.
        let scheme: [UInt8]
        /// Whether the scheme is `https` (its default port is 443, not 80).
        let isHTTPS: Bool
        /// `https://user@host:8080`: what a path-absolute reference keeps.
        let origin: [UInt8]
        /// The serialized path, starting with `/`.
        let path: [UInt8]
        /// `?` and the query, or nothing.
        let query: [UInt8]

        /// Takes apart an http(s) URL as the parser serializes it, without its fragment: `scheme://`, an
        /// authority without `/` (user info encodes it), a path from the first `/`, a query from the first `?`.
        init?(href: String) {
            let bytes = Array(href.utf8)
            let isHTTPS = bytes.starts(with: Array("https://".utf8))
            guard isHTTPS || bytes.starts(with: Array("http://".utf8)) else { return nil }
            let authorityStart = isHTTPS ? 8 : 7
            guard let pathStart = bytes[authorityStart...].firstIndex(of: Byte.slash), pathStart > authorityStart,
                !bytes.contains(Byte.hash)
            else { return nil }
            let queryStart = bytes[pathStart...].firstIndex(of: Byte.question) ?? bytes.endIndex
            self.scheme = Array(bytes[..<(authorityStart - 2)])
            self.isHTTPS = isHTTPS
            self.origin = Array(bytes[..<pathStart])
            self.path = Array(bytes[pathStart..<queryStart])
            self.query = Array(bytes[queryStart...])
        }

        /// A base for references known to be absolute, which never read it.
        static let placeholder = PreparedBase(href: "http://placeholder.invalid/")
    }
}

extension WebURL {
    /// Whether `string` parses to an `http` or `https` URL with a host (the parser's verdict). An absolute URL
    /// the resolver's byte scan takes (the usual `https://host/path?query`) is answered without the full parse.
    package static func isHTTP(_ string: String) -> Bool {
        switch parseAbsolute(string) {
        case .ordinaryHTTP: return true
        case .parsed(let url): return (url.scheme == "http" || url.scheme == "https") && url.host?.isEmpty == false
        case .failure: return false
        }
    }
}
