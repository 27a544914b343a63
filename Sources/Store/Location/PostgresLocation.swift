internal import ASCIIText

/// A PostgreSQL database named by a libpq-style URL (SPEC §1):
/// `postgres://USER[:PASSWORD]@HOST[:PORT][/DATABASE][?PARAMETER=VALUE&…]`, scheme `postgres` or `postgresql`.
///
/// As libpq reads such a URL: user, password, host and database are percent-decoded; the port defaults to
/// 5432; the database defaults to the user's name; a host that starts with `/` is the folder of the
/// server's Unix socket (`postgres://me@%2Fvar%2Frun%2Fpostgresql/db`, or `?host=/var/run/postgresql`); an
/// IPv6 address is written in brackets. The password may instead come from `PGPASSWORD` (the URL's wins).
/// Query parameters: `sslmode`, `connect_timeout` (whole seconds), `application_name`, and libpq's `user`,
/// `password`, `host`, `port` and `dbname`, which override the parts before them. Anything else is an
/// error rather than silently ignored.
package struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// The URL schemes that name a PostgreSQL store, lowercased.
    package static let schemes: Set<String> = ["postgres", "postgresql"]

    /// The user to connect as.
    package var user: String
    /// The password, from the URL or `PGPASSWORD`; nil when neither gives one.
    package var password: String?
    /// A host name or IP address, or (starting with `/`) the folder of the server's Unix socket.
    package var host: String
    /// The TCP port, also the number in the Unix socket's name (`.s.PGSQL.PORT`).
    package var port: Int
    /// The database.
    package var database: String
    /// Whether and how TLS is used.
    package var sslMode: SSLMode
    /// How long a connection attempt may take, name resolution and authentication included.
    package var connectTimeout: Duration
    /// The `application_name` the server shows for the connection.
    package var applicationName: String

    /// libpq's `sslmode` values.
    package enum SSLMode: String, Sendable, CaseIterable {
        /// Plain TCP only.
        case disable
        /// TLS when the server offers it, unverified (libpq tries plain first; TLS first is the safer order).
        case allow
        /// TLS when the server offers it, unverified: libpq's default.
        case prefer
        /// TLS or no connection, certificate not verified.
        case require
        /// TLS, with a certificate signed by a trusted authority.
        case verifyCA = "verify-ca"
        /// TLS, with a trusted certificate for the host name.
        case verifyFull = "verify-full"
    }

    /// The port when the URL gives none.
    package static let defaultPort = 5432
    /// The connect timeout when the URL gives none: a dead or filtered host fails in seconds, not minutes.
    package static let defaultConnectTimeout = Duration.seconds(5)
    /// The `application_name` when the URL gives none.
    package static let defaultApplicationName = "searchlight"

    /// Whether ``host`` is a Unix socket folder rather than a network host.
    package var isUnixSocket: Bool { host.hasPrefix("/") }

    /// The Unix socket file the server listens on, for a socket folder host.
    package var unixSocketPath: String { "\(host)/.s.PGSQL.\(port)" }

    /// The URL without its password (and without default parameters), safe for messages and logs:
    /// `postgres://USER@HOST:PORT/DATABASE`, plus `?sslmode=…` when not the default.
    package var description: String {
        let hostPart: String
        if isUnixSocket {
            hostPart = Self.percentEncoded(host)
        } else if host.contains(":") {
            hostPart = "[\(host)]"
        } else {
            hostPart = host
        }
        var text = "postgres://\(Self.percentEncoded(user))@\(hostPart):\(port)"
        text += "/\(Self.percentEncoded(database))"
        if sslMode != .prefer { text += "?sslmode=\(sslMode.rawValue)" }
        return text
    }

    /// `text` as a redacted URL shows it: unreserved characters as they are, every other byte
    /// percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        String(decoding: PercentEscape.encoded(text.utf8, keeping: URICharacter.isUnreserved), as: UTF8.self)
    }
}
