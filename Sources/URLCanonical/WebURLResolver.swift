/// A base URL made ready to resolve many references against it, as a page's links are.
///
/// Every answer is the WHATWG basic URL parser's (``WebURL/init(_:base:)``), serialized. The parser works
/// code point by code point and costs microseconds a link; most links on real pages are ordinary (`/path`,
/// `page.html`, `https://host/path?query`), so those are resolved by a byte scan
/// (``WebURLResolver/FastPath``) that proves the parser would give the same bytes, and everything else takes
/// the parser. A test holds the two equal over the WHATWG corpus and generated references.
public struct WebURLResolver: Sendable {
    /// The base every reference is resolved against.
    public let base: WebURL
    /// The pieces of an http(s) base the byte scan needs; `nil` sends every reference to the parser.
    let prepared: PreparedBase?

    /// A resolver against `base`.
    public init(base: WebURL) {
        self.base = base
        self.prepared = PreparedBase(base)
    }

    /// A resolver against the URL `base` parses to, or `nil` when it is not a URL.
    public init?(base: String) {
        guard let url = WebURL(base) else { return nil }
        self.init(base: url)
    }

    /// The serialized URL `reference` resolves to, with its fragment; `nil` when the parser fails.
    public func href(resolving reference: String) -> String? {
        if let prepared, let fast = FastPath.resolve(reference, against: prepared, keepingFragment: true) {
            return fast
        }
        return WebURL(reference, base: base)?.href
    }

    /// The serialized URL `reference` resolves to when it is an `http` or `https` URL with a host (a link a
    /// crawler can follow), without its fragment; `nil` for `mailto:`, `javascript:` and the like, and when
    /// the parser fails.
    public func webHref(resolving reference: String) -> String? {
        if let prepared, let fast = FastPath.resolve(reference, against: prepared, keepingFragment: false) {
            return fast
        }
        return Self.webHref(of: WebURL(reference, base: base))
    }

    /// ``webHref(resolving:)`` through the parser alone: what the byte scan is tested against.
    public func parsedWebHref(resolving reference: String) -> String? {
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

        init?(_ base: WebURL) {
            let record = base.record
            guard record.scheme == "http" || record.scheme == "https", let host = record.host, !host.serialized.isEmpty,
                !record.hasOpaquePath
            else { return nil }
            let serialized = Array(record.serialized(excludingFragment: true).utf8)
            let path = Array(record.serializedPath.utf8)
            let query = record.query.map { Array("?\($0)".utf8) } ?? []
            // The serialization is origin + path + query; anything else (the `/.` a host-less path gets) is rare.
            guard path.first == UInt8(ascii: "/"), serialized.count >= path.count + query.count else { return nil }
            let originEnd = serialized.count - path.count - query.count
            guard Array(serialized[originEnd...]) == path + query else { return nil }
            self.scheme = Array("\(record.scheme):".utf8)
            self.isHTTPS = record.scheme == "https"
            self.origin = Array(serialized[..<originEnd])
            self.path = path
            self.query = query
        }
    }
}

extension WebURL {
    /// Whether `string` parses to an `http` or `https` URL with a host (the parser's verdict). An absolute URL
    /// the resolver's byte scan takes (the usual `https://host/path?query`) is answered without the full parse.
    public static func isHTTP(_ string: String) -> Bool {
        if string.hasPrefix("http://") || string.hasPrefix("https://"),
            WebURLResolver.FastPath.resolve(string, against: .placeholder, keepingFragment: false) != nil
        {
            return true
        }
        guard let url = WebURL(string), url.scheme == "http" || url.scheme == "https", let host = url.host else {
            return false
        }
        return !host.isEmpty
    }
}

extension WebURLResolver.PreparedBase {
    /// A base for references known to be absolute, which never read it.
    static let placeholder = WebURLResolver.PreparedBase(WebURL("http://placeholder.invalid/")!)!
}
