internal import ASCIIText

extension PostgresLocation {
    /// Reads a `postgres://` or `postgresql://` URL (the scheme is checked by ``StoreLocation``).
    ///
    /// - Parameters:
    ///   - url: the URL.
    ///   - environment: `PGPASSWORD` is the password when the URL gives none.
    /// - Throws: the ``StoreLocationError/Problem`` that names the malformed part.
    init(url: String, environment: [String: String]) throws(StoreLocationError.Problem) {
        guard let schemeEnd = url.range(of: "://") else { throw .unsupportedScheme(url) }
        let rest = url[schemeEnd.upperBound...]
        guard !rest.contains("#") else { throw .fragment }
        let (main, query) = Self.split(rest, at: "?")
        let (authority, path) = Self.split(main, at: "/")

        var user = ""
        var password: String?
        var hostPort = authority
        if let at = authority.firstIndex(of: "@") {
            let (userText, passwordText) = Self.split(authority[..<at], at: ":")
            user = try Self.decoded(userText, part: "user")
            password = try passwordText.map { text throws(StoreLocationError.Problem) in
                try Self.decoded(text, part: "password")
            }
            hostPort = authority[authority.index(after: at)...]
        }
        let (hostText, portText) = try Self.splitHost(hostPort)
        var host = try Self.decoded(hostText, part: "host")
        var port = try portText.map(Self.port) ?? Self.defaultPort
        var database = try path.map { text throws(StoreLocationError.Problem) in
            try Self.decoded(text, part: "database name")
        }
        var sslMode = SSLMode.prefer
        var connectTimeout = Self.defaultConnectTimeout
        var applicationName = Self.defaultApplicationName

        for (name, value) in try Self.parameters(query) {
            switch name {
            case "user": user = value
            case "password": password = value
            case "host": host = value
            case "port": port = try Self.port(value)
            case "dbname": database = value
            case "application_name": applicationName = value
            case "sslmode":
                guard let mode = SSLMode(rawValue: value) else {
                    let modes = SSLMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .badParameterValue(name: name, value: value, expected: "one of \(modes)")
                }
                sslMode = mode
            case "connect_timeout":
                guard let seconds = Int(value), (1...3600).contains(seconds) else {
                    throw .badParameterValue(name: name, value: value, expected: "whole seconds from 1 to 3600")
                }
                connectTimeout = .seconds(seconds)
            default:
                throw .unknownParameter(name)
            }
        }

        guard !user.isEmpty else { throw .missingUser }
        guard !host.isEmpty else { throw .missingHost }
        guard !host.contains(",") else { throw .severalHosts }
        guard !host.contains("@") else { throw .atSignInHost }
        if password == nil, let fromEnvironment = environment["PGPASSWORD"], !fromEnvironment.isEmpty {
            password = fromEnvironment
        }
        let databaseName = database ?? ""
        self.init(
            user: user, password: password, host: host, port: port,
            database: databaseName.isEmpty ? user : databaseName, sslMode: sslMode,
            connectTimeout: connectTimeout, applicationName: applicationName)
    }

    /// The text before and after the first `separator`; nil after when there is none.
    private static func split(_ text: Substring, at separator: Character) -> (Substring, Substring?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (text[..<index], text[text.index(after: index)...])
    }

    /// The host (still percent-encoded) and the port text of `host[:port]` or `[ipv6][:port]`.
    private static func splitHost(
        _ text: Substring
    ) throws(StoreLocationError.Problem) -> (Substring, Substring?) {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .malformedIPv6 }
            let host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            guard !host.isEmpty, after.isEmpty || after.hasPrefix(":") else { throw .malformedIPv6 }
            return (host, after.isEmpty ? nil : after.dropFirst())
        }
        let (host, port) = split(text, at: ":")
        if let port, port.contains(":") { throw .malformedIPv6 }
        return (host, port)
    }

    /// A port: an empty one is the default, as libpq reads `host:`.
    private static func port(_ text: some StringProtocol) throws(StoreLocationError.Problem) -> Int {
        if text.isEmpty { return defaultPort }
        guard text.utf8.count <= 5, text.allSatisfy(\.isASCIIDigit), let port = Int(text), (1...65535).contains(port)
        else { throw .badPort(String(text)) }
        return port
    }

    /// The query's `name=value` pairs, percent-decoded, in order.
    private static func parameters(
        _ query: Substring?
    ) throws(StoreLocationError.Problem) -> [(String, String)] {
        guard let query, !query.isEmpty else { return [] }
        var pairs: [(String, String)] = []
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            let (name, value) = split(item, at: "=")
            let decodedName = try decoded(name, part: "parameter name")
            guard let value else { throw .parameterWithoutValue(decodedName) }
            pairs.append((decodedName, try decoded(value, part: "parameter \(decodedName)")))
        }
        return pairs
    }

    /// `text` with `%XX` escapes decoded, as UTF-8.
    ///
    /// - Throws: ``StoreLocationError/Problem/badPercentEncoding(part:)`` for a `%` without two hex digits,
    ///   a NUL, or bytes that are not UTF-8.
    static func decoded(_ text: Substring, part: String) throws(StoreLocationError.Problem) -> String {
        guard text.contains("%") else { return String(text) }
        guard let bytes = PercentEscape.strictlyDecoded(Array(text.utf8)), !bytes.contains(0),
            let decoded = String(validating: bytes, as: UTF8.self)
        else { throw .badPercentEncoding(part: part) }
        return decoded
    }
}

extension Character {
    /// `0` to `9` only (not other scripts' digits, which `isNumber` admits).
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
