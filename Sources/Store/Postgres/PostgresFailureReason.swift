import Foundation
internal import PostgresNIO

/// The one-line reason of a failed PostgreSQL operation, in words a user acts on.
///
/// PostgresNIO's errors describe themselves vaguely on purpose (`PSQLError`'s description hides the server's
/// message, which may quote data) and in full only as multi-line dumps: neither belongs on a command line.
/// The reason is taken from what the error carries instead: the server's own message, the system's name for
/// a socket error, the host that does not resolve. It never contains the password.
enum PostgresFailureReason {
    /// The reason `error` happened, on one line.
    static func describe(_ error: any Error, _ location: PostgresLocation) -> String {
        oneLine(reason(error, location))
    }

    private static func reason(_ error: any Error, _ location: PostgresLocation) -> String {
        switch error {
        case let error as PostgresTransactionError:
            let inner = error.beginError ?? error.closureError ?? error.commitError ?? error.rollbackError
            return inner.map { reason($0, location) } ?? "the transaction failed"
        case let error as PSQLError:
            return reason(error, location)
        case let error as NIOConnectionError:
            if let failure = error.connectionErrors.first {
                return reason(failure.error, location)
            }
            if error.dnsAError != nil || error.dnsAAAAError != nil {
                return "cannot resolve the host name '\(location.host)'"
            }
            return "cannot connect to \(location.host):\(location.port)"
        case SocketAddressError.unknown:
            return "cannot resolve the host name '\(location.host)'"
        case let error as IOError:
            return systemReason(error.errnoCode, location)
        case ChannelError.connectTimeout:
            return "no answer within \(location.connectTimeout.components.seconds) s (connect_timeout)"
        case let error as NIOSSLError:
            return "TLS failed: \(error)"
        case let error as BoringSSLError:
            return "TLS failed: \(error)"
        default:
            return String(describing: error)
        }
    }

    private static func reason(_ error: PSQLError, _ location: PostgresLocation) -> String {
        switch error.code {
        case .server:
            return error.serverInfo?[.message] ?? "the server reported an error"
        case .connectionError:
            return error.underlying.map { reason($0, location) } ?? "the connection failed"
        case .sslUnsupported:
            return "the server does not offer TLS, which sslmode=\(location.sslMode.rawValue) requires"
        case .failedToAddSSLHandler:
            return "TLS could not be set up"
        case .authMechanismRequiresPassword:
            return "the server asks for a password and none was given (in the URL or PGPASSWORD)"
        case .unsupportedAuthMechanism:
            return "the server asks for an authentication method this build does not support"
        case .saslError:
            return "SCRAM authentication failed"
        case .serverClosedConnection:
            return error.underlying.map { "the server closed the connection: \(reason($0, location))" }
                ?? "the server closed the connection"
        case .uncleanShutdown:
            return "the connection closed uncleanly"
        case .queryCancelled:
            return "the query was cancelled"
        default:
            return "\(error.code)"
        }
    }

    /// `connection refused` and the like: the system's words for an errno, with a note for the usual ones.
    private static func systemReason(_ code: Int32, _ location: PostgresLocation) -> String {
        switch code {
        case ECONNREFUSED:
            return "connection refused"
        case ETIMEDOUT:
            return "no answer within \(location.connectTimeout.components.seconds) s (connect_timeout)"
        case ENOENT where location.isUnixSocket:
            return "no server socket at \(location.unixSocketPath)"
        default:
            return String(cString: strerror(code)).lowercased()
        }
    }

    /// `text` with its line breaks and other control characters made spaces.
    private static func oneLine(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
    }
}
