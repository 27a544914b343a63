internal import PostgresNIO

extension PostgresLocation {
    /// The configuration of one plain connection to this location.
    ///
    /// - Throws: an `NIOSSLError` when a TLS context cannot be made (no trust store for `verify-*`).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if isUnixSocket {
            configuration = .init(
                unixSocketPath: unixSocketPath, username: user, password: password, database: database)
        } else {
            let tls: PostgresConnection.Configuration.TLS =
                switch sslMode {
                case .disable: .disable
                case .allow, .prefer: .prefer(try NIOSSLContext(configuration: tlsConfiguration))
                case .require, .verifyCA, .verifyFull: .require(try NIOSSLContext(configuration: tlsConfiguration))
                }
            configuration = .init(
                host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .nanoseconds(Int64(connectTimeout.components.seconds) * 1_000_000_000)
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    /// The configuration of the pool (`PostgresClient`) for this location.
    func clientConfiguration() throws -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if isUnixSocket {
            configuration = .init(
                unixSocketPath: unixSocketPath, username: user, password: password, database: database)
        } else {
            let tls: PostgresClient.Configuration.TLS =
                switch sslMode {
                case .disable: .disable
                case .allow, .prefer: .prefer(tlsConfiguration)
                case .require, .verifyCA, .verifyFull: .require(tlsConfiguration)
                }
            configuration = .init(
                host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = connectTimeout
        configuration.options.additionalStartupParameters = startupParameters
        return configuration
    }

    /// TLS as libpq's `sslmode` asks: `allow`, `prefer` and `require` encrypt without checking the
    /// certificate; `verify-ca` checks it against the system's trusted authorities; `verify-full` also checks
    /// that it names the host.
    private var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification =
            switch sslMode {
            case .disable, .allow, .prefer, .require: .none
            case .verifyCA: .noHostnameVerification
            case .verifyFull: .fullVerification
            }
        return configuration
    }

    private var startupParameters: [(String, String)] {
        [("application_name", applicationName)]
    }
}
