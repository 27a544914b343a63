internal import ASCIIText
internal import URLCanonical

extension CrawlURL {
    /// `string` parsed by the WHATWG parser alone, without the byte scan's shortcut: what the tests hold
    /// ``init(_:)`` equal to.
    init(parsingFully string: String) throws(ParseError) {
        let length = string.utf8.count
        guard length <= Self.maximumInputLength else { throw .tooLong(length: length) }
        try self.init(string, parsed: WebURL.parseAbsoluteWithoutShortcut(string))
    }

    /// The normalized URL of what `string` parsed to.
    init(_ string: String, parsed: WebURL.AbsoluteParse) throws(ParseError) {
        switch parsed {
        case .ordinaryHTTP(let href):
            self.init(ordinaryHref: href)
        case .parsed(let url):
            guard url.scheme == "http" || url.scheme == "https" else {
                throw .unsupportedScheme(url.scheme.utf8.count <= 32 ? url.scheme : "")
            }
            guard let parsedHost = url.host, let host = HostName.normalize(parsedHost) else {
                throw .invalid(reason: "'\(url.host ?? "")' is not a valid host name")
            }
            self.init(
                scheme: url.scheme, host: host, port: url.port, path: Substring(url.path),
                query: url.query.map { Substring($0) })
        case .failure:
            let scheme = Self.scheme(of: string)
            if !scheme.isEmpty, scheme != "http", scheme != "https" { throw .unsupportedScheme(scheme) }
            throw .invalid(reason: "not an absolute URL with a host (WHATWG URL parsing failed)")
        }
    }

    /// Splits the byte scan's serialization, `scheme://host[:port]/path[?query]` with a host already in
    /// ``HostName`` form (lowercase letters, digits, `-`, non-empty labels of at most 63 bytes, at most 253
    /// in all), and keeps it as the ``string`` when normalizing the escapes changes nothing.
    private init(ordinaryHref href: String) {
        let bytes = href.utf8
        let isHTTPS = bytes.starts(with: "https:".utf8)
        let authorityStart = bytes.index(bytes.startIndex, offsetBy: isHTTPS ? 8 : 7)
        let pathStart = bytes[authorityStart...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        let queryMark = bytes[pathStart...].firstIndex(of: UInt8(ascii: "?"))
        let authority = href[authorityStart..<pathStart]
        var host = authority
        var port: Int?
        if let colon = authority.utf8.firstIndex(of: UInt8(ascii: ":")) {
            host = authority[..<colon]
            port = Int(authority[authority.index(after: colon)...])
        }
        let path = href[pathStart..<(queryMark ?? bytes.endIndex)]
        let query = queryMark.map { href[bytes.index(after: $0)...] }
        let scheme = isHTTPS ? "https" : "http"
        if query?.isEmpty != true, URLEscaping.isNormalized(href[pathStart...]) {
            self.init(
                scheme: scheme, host: String(host), port: port, path: String(path), query: query.map(String.init),
                string: href)
        } else {
            self.init(scheme: scheme, host: String(host), port: port, path: path, query: query)
        }
    }

    /// The URL of parts the parser gave, with escapes normalized and an empty query dropped.
    private init(scheme: String, host: String, port: Int?, path: Substring, query: Substring?) {
        let normalizedQuery = query.map { URLEscaping.normalize($0) }
        let keptQuery = normalizedQuery?.isEmpty == false ? normalizedQuery : nil
        let normalizedPath = URLEscaping.normalize(path)
        let authority = port.map { "\(host):\($0)" } ?? host
        self.init(
            scheme: scheme, host: host, port: port, path: normalizedPath, query: keptQuery,
            string: "\(scheme)://\(authority)\(normalizedPath)" + (keptQuery.map { "?\($0)" } ?? ""))
    }

    /// The scheme of an absolute URL (RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`) after
    /// leading C0 controls and spaces, lowercased and at most 32 characters; empty when there is none.
    static func scheme(of string: String) -> String {
        let trimmed = string.utf8.drop { $0 <= 0x20 }
        guard let colon = trimmed.firstIndex(of: UInt8(ascii: ":")) else { return "" }
        let candidate = trimmed[..<colon]
        guard let first = candidate.first, candidate.count <= 32,
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20),
            candidate.allSatisfy({ byte in
                URICharacter.isUnreserved(byte) && byte != UInt8(ascii: "_") && byte != UInt8(ascii: "~")
                    || byte == UInt8(ascii: "+")
            })
        else { return "" }
        return String(decoding: candidate, as: UTF8.self).lowercased()
    }
}
