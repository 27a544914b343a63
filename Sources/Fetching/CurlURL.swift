internal import CCurl

/// The parts of an `http` or `https` URL, parsed by libcurl's own URL parser
/// (https://curl.se/libcurl/c/curl_url_get.html) so that what is checked is exactly
/// what libcurl will connect to.
///
/// libcurl removes dot segments from the path and normalizes IP address literals
/// (`127.1` → `127.0.0.1`, `[0:0::1]` → `[::1]`); it leaves percent-escapes, non-ASCII
/// bytes and the case of the host as given.
struct CurlURL: Sendable, Hashable {
    /// The URL as libcurl normalizes it (lowercase scheme, default port kept as given).
    let normalized: String
    /// `http` or `https`.
    let scheme: String
    /// The host name, lowercased; IPv6 literals in brackets.
    let host: String
    /// The port, the scheme's default when none is given.
    let port: Int
    /// The path as libcurl holds it, always starting with `/` (`/` when the URL has none).
    let path: String
    /// The query without its `?`; `nil` when the URL has no `?`, empty for a bare `?`.
    let query: String?

    /// The key transfers are counted under for the per-host cap.
    var hostKey: String { "\(scheme)://\(host):\(port)" }

    /// Parses `string`, accepting only absolute `http` and `https` URLs with a host.
    ///
    /// - Throws: ``FetchError`` of kind ``FetchError/Kind/unsupportedScheme`` for another
    ///   scheme, ``FetchError/Kind/invalidURL`` for anything libcurl cannot parse or a URL
    ///   without a host.
    init(_ string: String) throws(FetchError) {
        CurlRuntime.ensureInitialized()
        guard let handle = curl_url() else {
            throw FetchError(kind: .other, url: string, message: "libcurl could not allocate a URL handle")
        }
        defer { curl_url_cleanup(handle) }
        let setCode = string.withCString { curl_url_set(handle, CURLUPART_URL, $0, 0) }
        guard setCode == CURLUE_OK else {
            let reason = String(cString: curl_url_strerror(setCode))
            if setCode == CURLUE_UNSUPPORTED_SCHEME {
                throw FetchError(kind: .unsupportedScheme, url: string, message: "only http and https are fetched")
            }
            throw FetchError(kind: .invalidURL, url: string, message: "invalid URL: \(reason)")
        }
        func part(_ which: CURLUPart, _ flags: UInt32 = 0) -> String? {
            var pointer: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, which, &pointer, flags) == CURLUE_OK, let pointer else { return nil }
            defer { curl_free(pointer) }
            return String(cString: pointer)
        }
        let scheme = part(CURLUPART_SCHEME)?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            throw FetchError(
                kind: .unsupportedScheme, url: string, message: "only http and https are fetched, not '\(scheme)'")
        }
        guard let host = part(CURLUPART_HOST), !host.isEmpty else {
            throw FetchError(kind: .invalidURL, url: string, message: "the URL has no host")
        }
        let port =
            part(CURLUPART_PORT, UInt32(CURLU_DEFAULT_PORT)).flatMap { Int($0) } ?? (scheme == "https" ? 443 : 80)
        let path = part(CURLUPART_PATH) ?? "/"
        self.normalized = part(CURLUPART_URL) ?? string
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
        self.path = path.hasPrefix("/") ? path : "/" + path
        self.query = part(CURLUPART_QUERY)
    }
}

/// Process-wide libcurl initialization.
enum CurlRuntime {
    /// `curl_global_init` must run once before any other libcurl call
    /// (https://curl.se/libcurl/c/curl_global_init.html); a `static let` runs it exactly once.
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    static func ensureInitialized() {
        _ = initialized
    }

    /// The content encodings this libcurl decodes, e.g. `["br", "deflate", "gzip", "zstd"]`.
    static var supportedEncodings: [String] {
        ensureInitialized()
        guard let info = sl_version_info() else { return [] }
        let features = Int32(info.pointee.features)
        var encodings = ["deflate", "gzip"]
        if features & CURL_VERSION_BROTLI != 0 { encodings.append("br") }
        if features & CURL_VERSION_ZSTD != 0 { encodings.append("zstd") }
        return encodings
    }

    /// libcurl's version string, e.g. `libcurl/7.88.1 OpenSSL/3.0.17 …`.
    static var version: String {
        ensureInitialized()
        return String(cString: curl_version())
    }
}
