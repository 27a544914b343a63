/// A `--store` or `SEARCHLIGHT_STORE` value that names no store: where it came from and what is wrong.
///
/// The message never repeats a password, not even a malformed one.
package struct StoreLocationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the value came from.
    package enum Source: Sendable, Equatable {
        /// The `--store` option.
        case option
        /// The `SEARCHLIGHT_STORE` environment variable.
        case environment
    }

    /// What is wrong with the value.
    package enum Problem: Error, Sendable, Equatable {
        /// The value is empty.
        case empty
        /// A URL of another scheme than `postgres`/`postgresql`.
        case unsupportedScheme(String)
        /// The URL names no user.
        case missingUser
        /// The URL names no host.
        case missingHost
        /// The URL names several hosts (`h1,h2`), which libpq tries in turn; one is supported.
        case severalHosts
        /// An `@` left in the host: usually a password with an unencoded `@`.
        case atSignInHost
        /// An IPv6 address without brackets, or a bracket not closed.
        case malformedIPv6
        /// The port is not a number from 1 to 65535.
        case badPort(String)
        /// A `%` not followed by two hex digits, or decoding to a NUL or to bytes that are not UTF-8, in the
        /// named part of the URL.
        case badPercentEncoding(part: String)
        /// A `#fragment`, which has no meaning in a store URL.
        case fragment
        /// A query parameter without `=`.
        case parameterWithoutValue(String)
        /// A query parameter this build does not know.
        case unknownParameter(String)
        /// A known query parameter with a value it does not take.
        case badParameterValue(name: String, value: String, expected: String)
    }

    /// Where the value came from.
    package var source: Source
    /// What is wrong with it.
    package var problem: Problem

    package init(source: Source, problem: Problem) {
        self.source = source
        self.problem = problem
    }

    /// `--store: …` or `SEARCHLIGHT_STORE: …`, then the problem, on one line.
    package var description: String {
        let origin = source == .option ? "--store" : StoreLocation.environmentVariable
        return "\(origin): \(problem.description)"
    }
}

extension StoreLocationError.Problem: CustomStringConvertible {
    /// The problem in a sentence fragment, naming the offending part (never a password's text).
    package var description: String {
        switch self {
        case .empty:
            "the store is empty (give a SQLite path or a postgres:// URL)"
        case .unsupportedScheme(let scheme):
            "'\(scheme)://' is not a store: give a SQLite path, or a postgres:// or postgresql:// URL"
        case .missingUser:
            "the PostgreSQL URL names no user (postgres://USER@HOST/DATABASE)"
        case .missingHost:
            "the PostgreSQL URL names no host (postgres://USER@HOST/DATABASE, or ?host=/socket/folder)"
        case .severalHosts:
            "the PostgreSQL URL names several hosts; give one"
        case .atSignInHost:
            "the PostgreSQL URL's host contains '@' (percent-encode an '@' in the user or password as %40)"
        case .malformedIPv6:
            "the PostgreSQL URL's host is a malformed IPv6 address (write it in brackets: postgres://USER@[::1]:5432/DB)"
        case .badPort(let port):
            "the PostgreSQL URL's port '\(port)' is not a number from 1 to 65535"
        case .badPercentEncoding(let part):
            "the PostgreSQL URL's \(part) has a bad percent-encoding (write '%' itself as %25)"
        case .fragment:
            "the PostgreSQL URL has a '#' fragment (percent-encode a '#' in the password as %23)"
        case .parameterWithoutValue(let name):
            "the PostgreSQL URL's parameter '\(name)' has no value (NAME=VALUE)"
        case .unknownParameter(let name):
            "the PostgreSQL URL's parameter '\(name)' is not supported (supported: \(Self.parameterNames))"
        case .badParameterValue(let name, let value, let expected):
            "the PostgreSQL URL's \(name)=\(value) is not valid (expected \(expected))"
        }
    }

    /// The query parameters a store URL takes, for the message of an unknown one.
    static let parameterNames =
        "sslmode, connect_timeout, application_name, user, password, host, port, dbname"
}
