import Fetching

/// An absolute `http`/`https` URL in the normalized form the crawler's frontier deduplicates on.
///
/// Two links that name the same resource in different spellings get the same ``string``:
///
/// | Part | Normalization |
/// |---|---|
/// | input | leading/trailing spaces and controls trimmed; tabs and newlines removed; spaces → `%20` |
/// | scheme | lowercase |
/// | user info | dropped: credentials found in a page are never keyed or sent |
/// | host | lowercase ASCII; international names as punycode; one trailing dot removed |
/// | IP literal | as libcurl writes it: `127.1` → `127.0.0.1`, `[0:0::1]` → `[::1]` |
/// | port | dropped when it is the scheme's default (80, 443) |
/// | path | `/` when empty; dot segments resolved; escapes normalized (see below) |
/// | query | kept in its order; escapes normalized; a bare `?` is dropped |
/// | fragment | dropped |
///
/// Escapes: `%` + hex naming an unreserved character (`A–Z a–z 0–9 - . _ ~`) is decoded, every
/// other escape gets uppercase hex digits, and characters not allowed in a URI (non-ASCII,
/// controls, space, the backquote and `" < > \ ^ { | }`) are escaped as UTF-8. The result is pure
/// ASCII, so its length in characters is its length in bytes, and normalizing it again changes
/// nothing.
///
/// Parsing is libcurl's (through ``CurlURL``), so the crawler fetches what it keyed.
public struct CrawlURL: Sendable, Hashable, CustomStringConvertible {
    /// Longer input is refused without parsing (the crawler's own limit is usually far lower).
    public static let maximumInputLength = 65_536

    /// `http` or `https`.
    public let scheme: String
    /// The normalized host: lowercase ASCII, IPv6 literals in brackets.
    public let host: String
    /// The port when it is not the scheme's default; `nil` for 80 on `http` and 443 on `https`.
    public let port: Int?
    /// The normalized path, starting with `/`.
    public let path: String
    /// The normalized query without its `?`; `nil` when absent or empty.
    public let query: String?
    /// The whole normalized URL: the frontier key.
    public let string: String

    /// The path and, when there is one, `?` and the query: what path-only ``URLPattern``s match.
    public var pathAndQuery: String {
        query.map { "\(path)?\($0)" } ?? path
    }

    /// The origin, `scheme://host[:port]`: the key robots.txt rules and per-host politeness
    /// are kept under (RFC 9309 section 2.3 applies robots.txt per scheme, host and port).
    public var hostKey: String {
        port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }

    /// The host's registrable domain (see ``RegistrableDomain/of(host:)``).
    public var registrableDomain: String? {
        RegistrableDomain.of(normalizedHost: host)
    }

    /// The normalized URL.
    public var description: String { string }

    /// Why a string is not a crawlable URL.
    public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// An absolute URL with a scheme other than `http` or `https` (lowercased; empty if unreadable).
        case unsupportedScheme(String)
        /// Longer than ``CrawlURL/maximumInputLength`` bytes.
        case tooLong(length: Int)
        /// Not an absolute URL with a usable host; the reason says what is wrong.
        case invalid(reason: String)

        /// A short readable reason.
        public var description: String {
            switch self {
            case .unsupportedScheme(let scheme): "unsupported scheme '\(scheme)' (only http and https are crawled)"
            case .tooLong(let length): "URL too long (\(length) bytes)"
            case .invalid(let reason): "invalid URL: \(reason)"
            }
        }
    }

    /// Parses and normalizes `string`, which must be absolute (resolve relative links first).
    public init(_ string: String) throws(ParseError) {
        let length = string.utf8.count
        guard length <= Self.maximumInputLength else { throw .tooLong(length: length) }
        let prepared = Self.prepare(string)
        let parsed: CurlURL
        do {
            parsed = try CurlURL(prepared)
        } catch {
            if error.kind == .unsupportedScheme { throw .unsupportedScheme(Self.scheme(of: prepared)) }
            throw .invalid(reason: error.message)
        }
        guard let host = HostName.normalize(parsed.host) else {
            throw .invalid(reason: "'\(parsed.host)' is not a valid host name")
        }
        let defaultPort = parsed.scheme == "https" ? 443 : 80
        let query = parsed.query.map(URLEscaping.normalize)
        self.scheme = parsed.scheme
        self.host = host
        self.port = parsed.port == defaultPort ? nil : parsed.port
        self.path = URLEscaping.removeDotSegments(URLEscaping.normalize(parsed.path))
        self.query = query?.isEmpty == false ? query : nil
        let authority = port.map { "\(host):\($0)" } ?? host
        self.string = "\(scheme)://\(authority)\(path)" + (self.query.map { "?\($0)" } ?? "")
    }

    /// The normalized form of `string`, or `nil` when it is not an absolute `http`/`https` URL.
    public static func normalize(_ string: String) -> String? {
        try? CrawlURL(string).string
    }
}

extension CrawlURL {
    /// What browsers do before parsing (WHATWG URL standard, "basic URL parser"): trim C0 controls
    /// and spaces at both ends, remove tabs and newlines; then escape inner spaces, which libcurl
    /// refuses but pages write in links.
    static func prepare(_ string: String) -> String {
        var bytes = Array(string.utf8)[...]
        while let first = bytes.first, first <= 0x20 { bytes.removeFirst() }
        while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        for byte in bytes where byte != 0x09 && byte != 0x0A && byte != 0x0D {
            if byte == 0x20 {
                output.append(contentsOf: "%20".utf8)
            } else {
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The scheme of an absolute URL (RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`),
    /// lowercased and at most 32 characters; empty when there is none.
    static func scheme(of string: String) -> String {
        guard let colon = string.utf8.firstIndex(of: UInt8(ascii: ":")) else { return "" }
        let candidate = string.utf8[..<colon]
        guard let first = candidate.first, candidate.count <= 32,
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20),
            candidate.allSatisfy({ byte in
                URLEscaping.isUnreserved(byte) && byte != UInt8(ascii: "_") && byte != UInt8(ascii: "~")
                    || byte == UInt8(ascii: "+")
            })
        else { return "" }
        return String(decoding: candidate, as: UTF8.self).lowercased()
    }
}
