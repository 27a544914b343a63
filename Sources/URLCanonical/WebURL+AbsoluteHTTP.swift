extension WebURL {
    /// What an absolute URL string parses to, for callers that handle many of them (every link of every page
    /// the crawler reads).
    package enum AbsoluteParse: Sendable, Hashable {
        /// An ordinary absolute `http` or `https` URL, taken by the resolver's byte scan
        /// (``WebURLResolver/FastPath``) without the full parse: its serialization without the fragment,
        /// `scheme://host[:port]/path[?query]`, where the host is a lower-case ASCII domain of letters,
        /// digits, `-` and `.` (no empty label, no trailing dot) or a dotted-quad IPv4 address in its serialized
        /// form (`127.0.0.1`), there are no credentials,
        /// and the port is not the scheme's default. The parser gives the same bytes.
        case ordinaryHTTP(href: String)
        /// Any other URL the parser accepts, of any scheme.
        case parsed(WebURL)
        /// The parser fails: not an absolute URL.
        case failure
    }

    /// Parses `string` as an absolute URL (no base): by the byte scan when it proves the parser's answer
    /// (lower-case `http://` or `https://` and an ordinary host), else by the parser (about 15 µs).
    package static func parseAbsolute(_ string: String) -> AbsoluteParse {
        if let href = WebURLResolver.FastPath.absoluteWebHref(string) { return .ordinaryHTTP(href: href) }
        guard let url = WebURL(string) else { return .failure }
        return .parsed(url)
    }

    /// ``parseAbsolute(_:)`` through the parser alone: what the byte scan is tested against.
    package static func parseAbsoluteWithoutShortcut(_ string: String) -> AbsoluteParse {
        guard let url = WebURL(string) else { return .failure }
        return .parsed(url)
    }
}
