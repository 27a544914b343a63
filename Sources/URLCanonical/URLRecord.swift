/// The standard's URL record (https://url.spec.whatwg.org/#concept-url) and its serializer.
struct URLRecord: Sendable, Hashable {
    var scheme = ""
    var username = ""
    var password = ""
    var host: URLHost?
    var port: Int?
    var path: [String] = []
    /// Set instead of `path` for URLs with an opaque path (`mailto:a@b`, `data:…`).
    var opaquePath: String?
    var query: String?
    var fragment: String?

    /// The special schemes and their default ports (`file` has none).
    static let specialSchemes: [String: Int?] = [
        "ftp": 21, "file": nil, "http": 80, "https": 443, "ws": 80, "wss": 443,
    ]

    var isSpecial: Bool { Self.specialSchemes[scheme] != nil }

    var defaultPort: Int? { Self.specialSchemes[scheme] ?? nil }

    var hasOpaquePath: Bool { opaquePath != nil }

    var includesCredentials: Bool { !username.isEmpty || !password.isEmpty }

    var serializedPath: String {
        if let opaquePath { return opaquePath }
        var output = ""
        for segment in path {
            output += "/"
            output += segment
        }
        return output
    }

    /// https://url.spec.whatwg.org/#shorten-a-urls-path
    mutating func shortenPath() {
        if scheme == "file", path.count == 1, URLParser.isNormalizedWindowsDriveLetter(path[0]) { return }
        if !path.isEmpty { path.removeLast() }
    }

    func serialized(excludingFragment: Bool) -> String {
        var output = scheme + ":"
        if let host {
            output += "//"
            if includesCredentials {
                output += username
                if !password.isEmpty { output += ":" + password }
                output += "@"
            }
            output += host.serialized
            if let port { output += ":" + String(port) }
        }
        if host == nil, opaquePath == nil, path.count > 1, path[0].isEmpty { output += "/." }
        output += serializedPath
        if let query { output += "?" + query }
        if !excludingFragment, let fragment { output += "#" + fragment }
        return output
    }
}
